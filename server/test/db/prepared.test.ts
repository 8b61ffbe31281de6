/**
 * Statements prepared per connection (server/src/db/prepared.ts): inside a transaction one runs on the
 * transaction's own connection, so it sees what the transaction wrote and is rolled back with it; on
 * PostgreSQL a pooled connection builds it once and reuses it in later transactions.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../src/db/client'
import { preparedOn } from '../../src/db/prepared'
import { goodsInventory, goodsStockSlots } from '../../src/db/schema'
import { createTestDatabase } from '../helpers/test-database'

test('a statement prepared per connection runs in the transaction it is given', async (t) => {
  const database = await createTestDatabase()
  t.after(() => database.close())
  const { db } = database
  const [row] = await db.select().from(goodsInventory).limit(1)
  assert.ok(row, 'the seed has stock rows')
  let builds = 0
  const stockOf = (tx: Db) =>
    preparedOn(tx, 'test_stock_of', (conn) => {
      builds++
      return conn
        .select({ stock: goodsInventory.stock })
        .from(goodsInventory)
        .where(
          and(
            eq(goodsInventory.goodId, sql.placeholder('goodId')),
            eq(goodsInventory.zoneId, sql.placeholder('zoneId')),
          ),
        )
    }).execute({ goodId: row.goodId, zoneId: row.zoneId })

  const rolledBack = new Error('roll back')
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx
        .update(goodsStockSlots)
        .set({ stock: sql`${goodsStockSlots.stock} + 1000` })
        .where(
          and(
            eq(goodsStockSlots.goodId, row.goodId),
            eq(goodsStockSlots.zoneId, row.zoneId),
            eq(goodsStockSlots.slot, 0),
          ),
        )
      assert.deepEqual(await stockOf(tx), [{ stock: row.stock + 1000 }], 'sees its own write')
      throw rolledBack
    }),
    rolledBack,
  )
  assert.deepEqual(await stockOf(db), [{ stock: row.stock }], 'rolled back with the transaction')

  if (database.kind === 'postgres') {
    // one at a time, the pool hands the same idle connection back each time
    const before = builds
    for (let i = 0; i < 5; i++) await db.transaction(async (tx) => void (await stockOf(tx)))
    assert.equal(builds, before, 'the connection reuses the statement it built')
  }
})
