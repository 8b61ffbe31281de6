/**
 * The operator audit log is append-only in the database itself (migration 0023's trigger): UPDATE,
 * DELETE and TRUNCATE are refused on PGlite and on PostgreSQL, whatever the caller, and the rows stay.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { operatorAudit } from '../../src/db/schema'
import { createTestDatabase } from '../helpers/test-database'

test('operator_audit refuses UPDATE, DELETE and TRUNCATE; inserts still work', async (t) => {
  const database = await createTestDatabase()
  t.after(() => database.close())
  const db = database.db
  const [row] = await db
    .insert(operatorAudit)
    .values({
      actor: 'cli',
      at: new Date('2026-03-02T02:00:00Z'),
      action: 'operator.create',
      targetType: 'operator',
      targetId: '1',
      after: { name: 'root', role: 'admin' },
    })
    .returning()

  const refused = async (what: string, run: () => Promise<unknown>) => {
    await assert.rejects(run, (error: Error & { cause?: { message?: string } }) => {
      const message = `${error.message} ${error.cause?.message ?? ''}`
      assert.match(message, /operator_audit is append-only/, what)
      return true
    })
  }
  await refused('update', () =>
    db.update(operatorAudit).set({ action: 'forged' }).where(eq(operatorAudit.id, row.id)),
  )
  await refused('delete', () => db.delete(operatorAudit).where(eq(operatorAudit.id, row.id)))
  await refused('delete all', () => db.execute(sql`delete from operator_audit`))
  await refused('truncate', () => db.execute(sql`truncate operator_audit`))

  const rows = await db.select().from(operatorAudit)
  assert.equal(rows.length, 1)
  assert.equal(rows[0].action, 'operator.create')
  assert.deepEqual(rows[0].after, { name: 'root', role: 'admin' })
})
