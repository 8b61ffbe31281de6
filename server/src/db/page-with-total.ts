import { count, sql, type SQL } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Db } from './client'

/**
 * A list's total as a column of every row of its page, so that a page and its total are one prepared
 * statement and one round trip, read in one snapshot. The count is an uncorrelated scalar subquery,
 * which PostgreSQL runs once per statement (an InitPlan), from the same index as before.
 */
export const totalColumn = (db: Db, table: PgTable, where: SQL | undefined) =>
  sql<number>`(${db.select({ n: count() }).from(table).where(where)})`.mapWith(Number)

/**
 * Runs a statement that selects totalColumn as `total` for the page at `offset`. A page past the end is
 * empty and carries no total: the first page is read for it then (a second statement, only there).
 */
export async function pageWithTotal<Row extends { total: number }>(
  read: (offset: number) => Promise<Row[]>,
  offset: number,
): Promise<{ rows: Row[]; total: number }> {
  const rows = await read(offset)
  if (rows.length > 0 || offset === 0) return { rows, total: rows[0]?.total ?? 0 }
  const [first] = await read(0)
  return { rows, total: first?.total ?? 0 }
}
