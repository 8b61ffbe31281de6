import { and, eq, lt } from 'drizzle-orm'
import type { Db } from '../db/client'
import {
  jobs,
  loginFailures,
  messages,
  mobileChangeTickets,
  usageLogs,
  wechatBindTickets,
} from '../db/schema'
import type { Services } from '../services'
import {
  PURGE_RUN_BUDGET_MS,
  purgeAll,
  timeBudget,
  type PurgeBudget,
  type PurgeTarget,
} from '../db/purge-batches'
import type { JobDefinition } from './scheduler'

const DAY_MS = 86_400_000
/** Finished jobs are kept this long for support, then deleted (failed ones stay for an operator). */
export const DONE_JOB_KEEP_MS = 7 * DAY_MS
/**
 * Usage logs (one row per app session: pages visited, client, version) are kept 90 days from the
 * session's start: a quarter's comparison of versions and pages, and a support question about "last
 * month". Nothing a user sees reads them.
 */
export const USAGE_LOG_KEEP_MS = 90 * DAY_MS
/**
 * A user's messages (notices, renewal reminders, transfers, new phones, operators' messages) are kept
 * 180 days from when they were sent, read or not: each is a notice of an event whose record (order,
 * phone, transfer, ledger) is kept on its own. The unread count and the list count the same rows.
 */
export const MESSAGE_KEEP_MS = 180 * DAY_MS
/** Failed sign-ins count for a day (the lock-out window is shorter). */
const LOGIN_FAILURE_KEEP_MS = DAY_MS
/** Tickets (mobile change, WeChat bind) a day past their expiry. */
const TICKET_KEEP_AFTER_EXPIRY_MS = DAY_MS

/** What the purge deletes besides the services' own (sms codes, tokens, scan logins, uploads). */
export function retentionTargets(now: Date): PurgeTarget[] {
  const before = (ms: number) => new Date(now.getTime() - ms)
  return [
    {
      table: loginFailures,
      due: lt(loginFailures.createdAt, before(LOGIN_FAILURE_KEEP_MS)),
      key: loginFailures.createdAt,
    },
    {
      table: mobileChangeTickets,
      due: lt(mobileChangeTickets.expiresAt, before(TICKET_KEEP_AFTER_EXPIRY_MS)),
      key: mobileChangeTickets.expiresAt,
    },
    {
      table: wechatBindTickets,
      due: lt(wechatBindTickets.expiresAt, before(TICKET_KEEP_AFTER_EXPIRY_MS)),
      key: wechatBindTickets.expiresAt,
    },
    {
      table: jobs,
      // jobs_due_idx (status, run_at)
      due: and(eq(jobs.status, 'done'), lt(jobs.runAt, before(DONE_JOB_KEEP_MS)))!,
      prefix: [jobs.status],
      key: jobs.runAt,
    },
    {
      table: messages,
      due: lt(messages.createdAt, before(MESSAGE_KEEP_MS)),
      key: messages.createdAt,
    },
    {
      table: usageLogs,
      due: lt(usageLogs.firstAt, before(USAGE_LOG_KEEP_MS)),
      key: usageLogs.firstAt,
    },
  ]
}

/**
 * Deletes what can no longer matter: old SMS codes, dead tokens, scan-login sessions a day past expiry,
 * stale tickets, uploads nothing refers to a day after they came, jobs that finished more than a week
 * ago, messages past MESSAGE_KEEP_MS and usage logs past USAGE_LOG_KEEP_MS. Every large table goes in
 * batches (purge-batches.ts) within one run's budget; what the budget leaves, the next hourly run takes.
 */
export function purgeExpiredJob(
  db: Db,
  services: Services,
  options: { budget?: () => PurgeBudget; batch?: number } = {},
): JobDefinition {
  return {
    kind: 'purge-expired',
    everyMs: 60 * 60_000,
    async run(_payload, now) {
      const budget = options.budget?.() ?? timeBudget(PURGE_RUN_BUDGET_MS)
      const codes = await services.sms.purgeOld(now, budget)
      const tokens = await services.sessions.purgeDead(now, budget)
      const scanLogins = await services.scanLogin.purgeDead(now, budget)
      const uploads = await services.files.purgeOrphans(now)
      const { deleted, finished } = await purgeAll(db, retentionTargets(now), {
        budget,
        batch: options.batch,
      })
      services.ctx.log.info(
        { codes, tokens, scanLogins, uploads, ...deleted, finished },
        finished
          ? 'purged everything due'
          : 'purge budget spent with rows still due: the next run continues',
      )
    },
  }
}
