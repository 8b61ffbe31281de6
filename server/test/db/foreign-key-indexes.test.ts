/**
 * Deleting a row runs each foreign key that refers to it: PostgreSQL looks for the referring rows by
 * the key's columns, once per deleted row, and without an index on them it reads the referring table
 * whole. At scale deleting one group read all 1,000,000 phones, and deleting 2,000 orders
 * read the 5,000,000-row ledgers 2,000 times each. So every foreign key that refers to a table the
 * server deletes rows from (found in server/src: `.delete(table)` and `delete from "table"`) must lead
 * an index. Tables nothing deletes (accounts, orders and phones are kept) need none.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { getTableName, is } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import * as schema from '../../src/db/schema'
import { createTestDatabase } from '../helpers/test-database'

const SOURCE = path.join(__dirname, '../../src')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') ? [full] : []
  })
}

/** Table names the server deletes rows from. */
function deletedTables(): Set<string> {
  const byVariable = new Map<string, string>()
  for (const [name, value] of Object.entries(schema)) {
    if (is(value, PgTable)) byVariable.set(name, getTableName(value))
  }
  const deleted = new Set<string>()
  for (const file of sourceFiles(SOURCE)) {
    const text = fs.readFileSync(file, 'utf8')
    for (const [, variable] of text.matchAll(/\.delete\((\w+)\)/g)) {
      const table = byVariable.get(variable)
      if (table) deleted.add(table)
    }
    for (const [, table] of text.matchAll(/delete from "?(\w+)"?/gi)) deleted.add(table)
  }
  return deleted
}

test('every foreign key to a table the server deletes from leads an index', async (t) => {
  const deleted = deletedTables()
  assert.ok(deleted.has('device_groups') && deleted.has('messages'), 'the scan finds deletes')
  const database = await createTestDatabase()
  t.after(() => database.close())
  const query = async <R>(text: string) =>
    database.kind === 'postgres'
      ? ((await database.pool.query(text)).rows as R[])
      : (await database.pglite.query<R>(text)).rows
  const keys = await query<{ referring: string; referred: string; columns: string }>(`
    select c.conrelid::regclass::text as referring, c.confrelid::regclass::text as referred,
      (select string_agg(a.attname, ', ') from unnest(c.conkey) k
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k) as columns
    from pg_constraint c
    where c.contype = 'f' and not exists (
      select 1 from pg_index i
      where i.indrelid = c.conrelid
        and (i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] @> c.conkey
        and (i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] <@ c.conkey)
    order by 1, 3`)
  const unindexed = keys
    .filter((key) => deleted.has(key.referred))
    .map((key) => `${key.referring}(${key.columns}) → ${key.referred}`)
  assert.deepEqual(unindexed, [])
})
