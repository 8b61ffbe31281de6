import type { Services } from '../services'
import { CLAIM_BATCH } from '../services/auto-renew'
import type { JobDefinition } from './scheduler'

export const AUTO_RENEW_JOB = 'auto-renew'
/** The job runs this often; 10,000 phones due on one day are renewed in a few runs' batches. */
export const AUTO_RENEW_EVERY_MS = 60_000
/**
 * A run claims batches until nothing more is due or it has spent this long, so it stays inside its
 * period after downtime left a backlog (drained over the next runs).
 */
export const AUTO_RENEW_BUDGET_MS = 20_000

/**
 * 自动续费: renews the phones due (services/auto-renew/auto-renew-run.ts), a batch of CLAIM_BATCH
 * at a time. A phone is claimed in one statement before it is priced, so two instances, or a run and
 * one restarted after a stall, never renew it twice.
 */
export function autoRenewJob(services: Services, budgetMs = AUTO_RENEW_BUDGET_MS): JobDefinition {
  return {
    kind: AUTO_RENEW_JOB,
    everyMs: AUTO_RENEW_EVERY_MS,
    async run(_payload, now) {
      const started = performance.now()
      for (;;) {
        const batch = await services.autoRenewRun.runBatch(now)
        if (batch.renewed + batch.failed > 0) {
          services.ctx.log.info({ ...batch }, 'auto-renew batch')
        }
        if (batch.claimed < CLAIM_BATCH || performance.now() - started >= budgetMs) return
      }
    },
  }
}
