import { and, getTableName, gte, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from './client'

/**
 * The one rule for deleting what is due from a table that can be large: at most `batch` rows per
 * statement, each statement its own transaction, the rows chosen by primary key through the index that
 * serves `due` (`delete … where id = any(array(select id … where due order by … limit batch for update
 * skip locked))`). No statement holds locks or writes WAL for more than one batch, so the table's writers
 * wait at most one batch; a process that dies between statements leaves every committed batch gone and
 * every other row untouched, and the next run starts again from what is still due.
 */

/** Rows per statement: about 30 ms of work each (bench/purge.ts), so no lock is held for long. */
export const PURGE_BATCH = 5_000
/**
 * What one purge run may spend on deleting (monotonic time). Well inside the job's lease (5 min) and
 * its period (1 h): a backlog (the first run after this shipped, a table a million rows behind) is
 * worked off over several hourly runs rather than in one long one.
 */
export const PURGE_RUN_BUDGET_MS = 2 * 60_000

export interface PurgeBudget {
  spent(): boolean
}

/** A budget of `ms` of real (monotonic) time from now, shared by every purge of one run. */
export function timeBudget(ms: number): PurgeBudget {
  const end = performance.now() + ms
  return { spent: () => performance.now() >= end }
}

export interface PurgeTarget {
  /** A table whose primary key is the one column `id`. */
  table: PgTable & { id: PgColumn }
  /** What is due; served by an index (migration 0033), so a batch never scans the table. */
  due: SQL
  /**
   * The time column batches go up by, oldest first (an unfinished run leaves the newest), the last
   * column of the index serving `due`; `prefix` are the columns before it that `due` fixes by equality.
   */
  key: PgColumn
  prefix?: PgColumn[]
}

export interface PurgeOutcome {
  deleted: number
  statements: number
  /** false: the budget ran out with rows still due (the next run continues). */
  finished: boolean
}

/**
 * Deletes `target`'s due rows in batches until none is due (a batch comes back short) or the budget is
 * spent. Rows another transaction holds locked are skipped (SKIP LOCKED): the purge never waits on a
 * writer, and what it skipped is still due next run.
 */
export async function purgeInBatches(
  db: Db,
  target: PurgeTarget,
  options: { budget: PurgeBudget; batch?: number },
): Promise<PurgeOutcome> {
  const batch = options.batch ?? PURGE_BATCH
  let deleted = 0
  let statements = 0
  let from: Date | null = null
  for (;;) {
    if (options.budget.spent()) return { deleted, statements, finished: false }
    const gone = await purgeStatement(db, target, batch, from)
    statements += 1
    deleted += gone.length
    if (gone.length < batch) return { deleted, statements, finished: true }
    for (const row of gone) {
      const key = row.key as Date // every key is a timestamp column
      if (!from || key > from) from = key
    }
  }
}

/**
 * One batch's statement. `= any(array(…))`, not `in (…)`: the chosen ids become one array and the
 * delete finds them through the primary key, where `in (subquery)` is planned as a hash join over a
 * scan of the whole table. Rows a writer holds are skipped, never waited for. `from`: the newest key
 * the previous batch deleted; the index scan starts there, not at the entries of the rows already
 * deleted (dead, but until vacuum, and while any older transaction runs, each would be visited again:
 * every batch would cost more than the one before).
 */
export function purgeStatement(db: Db, target: PurgeTarget, batch: number, from: Date | null) {
  const { id } = target.table
  const chosen = db
    .select({ id })
    .from(target.table)
    .where(from ? and(target.due, gte(target.key, from)) : target.due)
    .orderBy(...(target.prefix ?? []), target.key)
    .limit(batch)
    .for('update', { skipLocked: true })
  return db
    .delete(target.table)
    .where(sql`${id} = any(array(${chosen}))`)
    .returning({ id, key: target.key })
}

/** Runs the targets in order against one budget; what each deleted, by name. */
export async function purgeAll(
  db: Db,
  targets: PurgeTarget[],
  options: { budget: PurgeBudget; batch?: number },
): Promise<{ deleted: Record<string, number>; finished: boolean }> {
  const deleted: Record<string, number> = {}
  let finished = true
  for (const target of targets) {
    const outcome = await purgeInBatches(db, target, options)
    const name = getTableName(target.table)
    deleted[name] = (deleted[name] ?? 0) + outcome.deleted
    if (!outcome.finished) finished = false
  }
  return { deleted, finished }
}
