import { count, sql, type SQL } from 'drizzle-orm'
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from './client'

/**
 * A list's total as a column of every row of its page, so that a page and its total are one prepared
 * statement and one round trip, read in one snapshot. The count is an uncorrelated scalar subquery,
 * which PostgreSQL runs once per statement (an InitPlan), from the same index as before.
 */
export const totalColumn = (db: Db, table: PgTable, where: SQL | undefined) =>
  sql<number>`(${db.select({ n: count() }).from(table).where(where)})`.mapWith(Number)

/**
 * The page's LIMIT, and its OFFSET unless it is the first page (`first`). PostgreSQL keeps one plan for
 * every call of a prepared statement (a generic plan) only while that plan looks no dearer than one made
 * for the call's values, and an OFFSET it cannot see looks dear (it assumes a tenth of the rows skipped):
 * with one, every call was planned anew, about a third of the database's time for a page. The first page,
 * most calls, is a statement without OFFSET and is planned once (docs/decisions.md, "Scale").
 */
export function pageOf<Query extends PgSelect>(query: Query, first: boolean): Query {
  const limited = query.limit(sql.placeholder('limit'))
  return (first ? limited : limited.offset(sql.placeholder('offset'))) as Query
}

interface PageStatement<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>
}

/**
 * One page at `offset` and the list's total, read by `statement(first)`: a statement built with
 * totalColumn (as `total`) and pageOf. A page past the end is empty and carries no total: the first row
 * is read for it then (a second statement, only there).
 */
export async function pageWithTotal<Row extends { total: number }>(
  statement: (first: boolean) => PageStatement<Row>,
  values: Record<string, unknown>,
  limit: number,
  offset: number,
): Promise<{ rows: Row[]; total: number }> {
  const rows = await statement(offset === 0).execute({ ...values, limit, offset })
  if (rows.length > 0 || offset === 0) return { rows, total: rows[0]?.total ?? 0 }
  const [first] = await statement(true).execute({ ...values, limit: 1, offset: 0 })
  return { rows, total: first?.total ?? 0 }
}
