import { lt } from 'drizzle-orm'
import type { Db } from '../db/client'
import { loginFailures, mobileChangeTickets, wechatSessions } from '../db/schema'
import type { Services } from '../services'
import type { JobDefinition } from './scheduler'

const DAY_MS = 86_400_000

/** Deletes secrets and counters that can no longer matter: old SMS codes, dead tokens, stale tickets. */
export function purgeExpiredJob(db: Db, services: Services): JobDefinition {
  return {
    kind: 'purge-expired',
    everyMs: 60 * 60_000,
    async run(_payload, now) {
      const dayAgo = new Date(now.getTime() - DAY_MS)
      const codes = await services.sms.purgeOld(now)
      const tokens = await services.sessions.purgeDead(now)
      await db.delete(loginFailures).where(lt(loginFailures.createdAt, dayAgo))
      await db.delete(mobileChangeTickets).where(lt(mobileChangeTickets.expiresAt, dayAgo))
      await db.delete(wechatSessions).where(lt(wechatSessions.seenAt, dayAgo))
      services.ctx.log.info({ codes, tokens }, 'purged expired sms codes and tokens')
    },
  }
}
