import { sql } from 'drizzle-orm'
import type { SaveUsageLogBody } from '../contract/config'
import type { Db } from '../db/client'
import { usageLogs } from '../db/schema'
import type { ServiceContext } from './context'

const p = (name: string) => sql.placeholder(name)

/**
 * One row per usage session (logId); repeated reports update it, and a later report may attach the
 * user. Prepared once: every page view sends one, and drizzle building this upsert anew each call
 * cost more server CPU than PostgreSQL spends running it.
 */
function prepareSave(db: Db) {
  return db
    .insert(usageLogs)
    .values({
      logId: p('logId'),
      userId: p('userId'),
      client: p('client'),
      version: p('version'),
      terminalType: p('terminalType'),
      accessingPages: p('accessingPages'),
      exitMark: p('exitMark'),
      firstAt: p('now'),
      lastAt: p('now'),
    })
    .onConflictDoUpdate({
      target: usageLogs.logId,
      set: {
        userId: sql`coalesce(${usageLogs.userId}, excluded.user_id)`,
        accessingPages: sql`excluded.accessing_pages`,
        exitMark: sql`excluded.exit_mark`,
        terminalType: sql`excluded.terminal_type`,
        lastAt: sql`excluded.last_at`,
        reportCount: sql`${usageLogs.reportCount} + 1`,
      },
    })
    .prepare('save_usage_log')
}

export class UsageLogService {
  private readonly saveStatement: ReturnType<typeof prepareSave>

  constructor(private readonly ctx: ServiceContext) {
    this.saveStatement = prepareSave(ctx.db)
  }

  async save(userId: number | null, body: SaveUsageLogBody): Promise<void> {
    await this.saveStatement.execute({
      logId: body.logId,
      userId,
      client: body.client,
      version: body.version,
      terminalType: body.terminalType,
      accessingPages: body.accessingPages,
      exitMark: body.exitMark,
      now: this.ctx.clock.now(),
    })
  }
}
