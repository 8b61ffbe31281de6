/**
 * Whole-number lists as ONE bound parameter (a PostgreSQL array literal) rather than one parameter per
 * id: a 10,000-phone renewal stays one short statement, far from the 65,535-parameter limit
 * of the wire protocol, and the statement text is the same whatever the count.
 */
import { sql, type SQL } from 'drizzle-orm'

function literal(values: readonly (number | string)[]): string {
  return `{${values.join(',')}}`
}

/** `$1::integer[]` for whole numbers (checked: anything else throws). */
export function intArray(ids: readonly number[]): SQL {
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`not an integer id: ${id}`)
  return sql`${literal(ids)}::integer[]`
}

/** `$1::timestamptz[]` from epoch milliseconds. */
export function timeArray(times: readonly number[]): SQL {
  return sql`${literal(times.map((t) => `"${new Date(t).toISOString()}"`))}::timestamptz[]`
}

/** The number of rows at most one multi-row insert carries (parameters per row × this stays small). */
export const INSERT_CHUNK = 1_000

export function chunks<T>(rows: readonly T[], size = INSERT_CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size))
  return out
}

/** The rows of a raw `db.execute` (both drivers answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}
