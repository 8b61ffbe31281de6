import { and, eq, lt } from 'drizzle-orm'
import type { Db } from '../db/client'
import { jobs, loginFailures, mobileChangeTickets, wechatBindTickets } from '../db/schema'
import type { Services } from '../services'
import type { JobDefinition } from './scheduler'

const DAY_MS = 86_400_000
/** Finished jobs are kept this long for support, then deleted (failed ones stay for an operator). */
export const DONE_JOB_KEEP_MS = 7 * DAY_MS

/**
 * Deletes what can no longer matter: old SMS codes, dead tokens, scan-login sessions a day past expiry,
 * stale tickets, uploads nothing refers to a day after they came, and jobs that finished more than a
 * week ago.
 */
export function purgeExpiredJob(db: Db, services: Services): JobDefinition {
  return {
    kind: 'purge-expired',
    everyMs: 60 * 60_000,
    async run(_payload, now) {
      const dayAgo = new Date(now.getTime() - DAY_MS)
      const codes = await services.sms.purgeOld(now)
      const tokens = await services.sessions.purgeDead(now)
      const scanLogins = await services.scanLogin.purgeDead(now)
      const uploads = await services.files.purgeOrphans(now)
      await db.delete(loginFailures).where(lt(loginFailures.createdAt, dayAgo))
      await db.delete(mobileChangeTickets).where(lt(mobileChangeTickets.expiresAt, dayAgo))
      await db.delete(wechatBindTickets).where(lt(wechatBindTickets.expiresAt, dayAgo))
      const doneJobs = await db
        .delete(jobs)
        .where(
          and(eq(jobs.status, 'done'), lt(jobs.runAt, new Date(now.getTime() - DONE_JOB_KEEP_MS))),
        )
        .returning({ id: jobs.id })
      services.ctx.log.info(
        { codes, tokens, scanLogins, uploads, doneJobs: doneJobs.length },
        'purged expired sms codes, tokens, scan-login sessions, orphan uploads and finished jobs',
      )
    },
  }
}
