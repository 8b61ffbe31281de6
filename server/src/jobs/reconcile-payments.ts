import type { Services } from '../services'
import { SEND_REFUND_JOB } from '../services/refund-service'
import type { JobDefinition } from './scheduler'

export const RECONCILE_PAYMENTS_JOB = 'reconcile-payments'

/**
 * Every minute: what the provider knows and we may not. Pending trades are asked about (a paid one is
 * settled as its notification would be, one whose order can no longer be paid is closed there), and
 * refunds not yet final are sent again or asked about.
 */
export function reconcilePaymentsJob(services: Services): JobDefinition {
  return {
    kind: RECONCILE_PAYMENTS_JOB,
    everyMs: 60_000,
    async run(_payload, now) {
      const trades = await services.payments.reconcile(now)
      const refunds = await services.refunds.reconcile(now)
      if (trades + refunds > 0) {
        services.ctx.log.info({ trades, refunds }, 'payments reconciled with the provider')
      }
    },
  }
}

/** Sends one refund to the provider; queued in the transaction that decided it. Safe to run twice. */
export function sendRefundJob(services: Services): JobDefinition {
  return {
    kind: SEND_REFUND_JOB,
    maxAttempts: 10,
    async run(payload) {
      const refundId = Number(payload.refundId)
      if (!Number.isInteger(refundId)) {
        throw new Error(`bad send-refund payload ${JSON.stringify(payload)}`)
      }
      await services.refunds.advance(refundId)
    },
  }
}
