import { count, desc, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core'
import { toPaged } from '../domain/paging'
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

/**
 * One record of a list as PostgreSQL writes it in JSON: `json_build_object('key', value, …)`, the keys
 * as the contract names them (docs/decisions.md, "A busy list is JSON written by PostgreSQL";
 * server/test/contract/list-json.test.ts checks each such list against its schema).
 */
export function jsonRecord<Shape>(fields: { [Key in keyof Shape]: SQLWrapper }) {
  const pairs = Object.entries<SQLWrapper>(fields).map(
    ([key, value]) => sql`${sqlText(key)}, ${value}`,
  )
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`
}

/** A constant text as an SQL literal, part of a statement's text (quotes doubled, as SQL escapes them). */
export const sqlText = (text: string) => sql.raw(`'${text.replaceAll("'", "''")}'`)

/** A time as the API sends it, epoch milliseconds (as Date.getTime() of the same value). */
export const epochMs = (column: PgColumn) => sql`floor(extract(epoch from ${column}) * 1000)::int8`

/**
 * A page of a table's rows matching `where`, newest first (`createdAt`, then `id`), each written as
 * `record` (jsonRecord), as one row: `records`, the page as one JSON array, and `total`, even past the
 * last page. The server reads one text instead of a row per record: no columns to parse, no object or
 * date per row, no serialisation by the route's schema.
 */
export function newestFirstJsonPage(
  db: Db,
  table: PgTable & { createdAt: PgColumn; id: PgColumn },
  where: SQL | undefined,
  record: SQL,
  first: boolean,
) {
  const rows = db
    .select({ record: record.as('record'), createdAt: table.createdAt, id: table.id })
    .from(table)
    .where(where)
    .orderBy(desc(table.createdAt), desc(table.id))
    .$dynamic()
  const page = pageOf(rows, first).as('page')
  // the page's order again: json_agg keeps no order of its input
  const records = sql<string>`coalesce(json_agg(${page.record} order by ${page.createdAt} desc, ${page.id} desc), '[]')::text`
  return db.select({ records, total: totalColumn(db, table, where) }).from(page)
}

/** A page's data as the route sends it (sendOkData): its records (newestFirstJsonPage), page and total. */
export function pagedJson(records: string, page: number, rows: number, total: number) {
  const { records: _none, ...counts } = toPaged([], page, rows, total)
  return `{"records":${records},${JSON.stringify(counts).slice(1)}`
}
