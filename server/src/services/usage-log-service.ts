import { sql } from 'drizzle-orm'
import type { SaveUsageLogBody } from '../contract/config'
import { usageLogs } from '../db/schema'
import type { ServiceContext } from './context'

export class UsageLogService {
  constructor(private readonly ctx: ServiceContext) {}

  /** One row per usage session (logId); repeated reports update it. A later report may attach the user. */
  async save(userId: number | null, body: SaveUsageLogBody): Promise<void> {
    const now = this.ctx.clock.now()
    await this.ctx.db
      .insert(usageLogs)
      .values({
        logId: body.logId,
        userId,
        client: body.client,
        version: body.version,
        terminalType: body.terminalType,
        accessingPages: body.accessingPages,
        exitMark: body.exitMark,
        firstAt: now,
        lastAt: now,
      })
      .onConflictDoUpdate({
        target: usageLogs.logId,
        set: {
          userId: sql`coalesce(${usageLogs.userId}, excluded.user_id)`,
          accessingPages: body.accessingPages,
          exitMark: body.exitMark,
          terminalType: body.terminalType,
          lastAt: now,
          reportCount: sql`${usageLogs.reportCount} + 1`,
        },
      })
  }
}
