import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import {
  BEANS,
  COMPANY_ACCOUNT,
  balanceOf,
  credit,
  debit,
  type Book,
} from '../../src/services/wallet/ledger'
import { newBuyer, commerceApp } from '../helpers/commerce'
import type { TestApp } from '../helpers/test-app'

/** Each book with the answer a debit gets when the balance is too small. */
const BOOKS: [Book, number][] = [
  [BEANS, ResultCode.CLOUD_BEANS_INSUFFICIENT],
  [COMPANY_ACCOUNT, ResultCode.INSUFFICIENT_ACCOUNT_BALANCE],
]

async function ledgerRows(ta: TestApp, book: Book, userId: number) {
  const ledger = book.ledger as typeof BEANS.ledger
  return ta.database.db.select().from(ledger).where(eq(ledger.userId, userId))
}

for (const [book, shortfall] of BOOKS) {
  test(`the ${book.name} book refuses a zero, negative or fractional amount and writes nothing`, async (t) => {
    const ta = await commerceApp(t)
    const { userId } = await newBuyer(ta)
    const db = ta.database.db
    const now = new Date()
    await db.transaction((tx) => credit(tx, book, userId, 500, { reason: 'recharge' }, now))
    for (const amount of [0, -1, -500, 0.5, Number.NaN]) {
      for (const move of [credit, debit]) {
        await assert.rejects(
          db.transaction((tx) => move(tx, book, userId, amount, { reason: 'refund' }, now)),
          RangeError,
          `${move.name}(${amount})`,
        )
      }
    }
    assert.equal(await balanceOf(db, book, userId), 500)
    assert.deepEqual(
      (await ledgerRows(ta, book, userId)).map((r) => [r.change, r.balanceAfter]),
      [[500, 500]],
    )
  })

  test(`the ${book.name} book keeps balance and ledger together and never goes below zero`, async (t) => {
    const ta = await commerceApp(t)
    const { userId } = await newBuyer(ta)
    const db = ta.database.db
    const now = new Date()
    assert.equal(await balanceOf(db, book, userId), 0)
    await db.transaction((tx) => credit(tx, book, userId, 300, { reason: 'recharge' }, now))
    assert.equal(
      await db.transaction((tx) => debit(tx, book, userId, 120, { reason: 'order' }, now)),
      180,
    )
    await assert.rejects(
      db.transaction((tx) => debit(tx, book, userId, 181, { reason: 'order' }, now)),
      (error: { code?: number }) => error.code === shortfall,
    )
    const rows = await ledgerRows(ta, book, userId)
    assert.deepEqual(
      rows.map((r) => [r.change, r.balanceAfter]),
      [
        [300, 300],
        [-120, 180],
      ],
    )
    assert.equal(
      rows.reduce((sum, r) => sum + r.change, 0),
      await balanceOf(db, book, userId),
    )
  })
}
