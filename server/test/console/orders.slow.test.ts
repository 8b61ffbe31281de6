/**
 * The console's order refunds and export at scale, in `npm run test:slow` (about a minute): the money
 * invariant (random refunds and interleavings never give back more than was paid, and all of it only
 * with the value taken back) and the CSV export of 100k orders with flat memory.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { and, eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { OrderStatus } from '#domain/order-status'
import { accountLedger, beanLedger, devices, orders, payments, refunds } from '../../src/db/schema'
import { CSV_BATCH } from '../../src/console/services/orders'
import { commerceApp, newBuyer, sandboxProvider } from '../helpers/commerce'

import { operatorAs, refund, paidPhoneOrder, ledgerPaidOrder } from './order-helpers'

test('money invariant: whatever the refunds and their interleaving, money back ≤ money paid, and all of it only with the value taken back', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom<'sandbox' | 3 | 4>('sandbox', 3, 4),
      fc.integer({ min: 1, max: 3 }),
      fc.boolean(),
      async (pay, attempts, expireFirst) => {
        const ta = await commerceApp(t)
        const finance = await operatorAs(ta, 'finance')
        const buyer = await newBuyer(ta)
        const order =
          pay === 'sandbox'
            ? await paidPhoneOrder(ta, buyer)
            : await ledgerPaidOrder(ta, buyer, pay)
        const [row] = await ta.database.db.select().from(orders).where(eq(orders.id, order.id))
        if (expireFirst) {
          await ta.database.db
            .update(devices)
            .set({ status: 2 })
            .where(eq(devices.id, row.deviceIds[0]))
        }
        await Promise.all(Array.from({ length: attempts }, () => refund(ta, finance, order.id)))
        await ta.app.jobs.runDue()
        await sandboxProvider(ta).outbox.flush()
        const db = ta.database.db
        const [paid] = await db
          .select({ sum: sql<number>`coalesce(sum(${payments.amount}), 0)::int` })
          .from(payments)
          .where(
            and(
              eq(payments.orderId, order.id),
              sql`${payments.status} in ('paid', 'refunding', 'refunded')`,
            ),
          )
        const back = async () => {
          const [provider] = await db
            .select({ sum: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
            .from(refunds)
            .where(eq(refunds.orderId, order.id))
          const ledgers = await Promise.all(
            [beanLedger, accountLedger].map((ledger) =>
              db
                .select({ sum: sql<number>`coalesce(sum(${ledger.change}), 0)::int` })
                .from(ledger)
                .where(and(eq(ledger.orderId, order.id), eq(ledger.reason, 'refund'))),
            ),
          )
          return provider.sum + ledgers[0][0].sum + ledgers[1][0].sum
        }
        const returned = await back()
        assert.ok(returned <= paid.sum, `${returned} back of ${paid.sum} paid`)
        const [after] = await db.select().from(orders).where(eq(orders.id, order.id))
        const phones = await db
          .select({ status: devices.status })
          .from(devices)
          .where(sql`${devices.id} in ${row.deviceIds}`)
        if (after.status === OrderStatus.refunded) {
          assert.equal(returned, order.amount, 'a refund is the whole order')
          assert.ok(
            phones.every((phone) => phone.status === 3),
            'money back: the phones are taken back',
          )
        } else {
          assert.equal(returned, 0)
          assert.ok(expireFirst, 'only an order whose value is gone stays unrefunded')
        }
      },
    ),
    { numRuns: 8 },
  )
})

test('exporting 100k orders streams: every row, read in batches, memory flat', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const total = 100_000
  await ta.database.db.execute(sql`
    insert into orders (order_no, user_id, business_type, kind, status, amount, original_amount,
      quantity, pay_method, pay_deadline, idempotency_key, created_at, paid_at)
    select 'CPBULK' || lpad(n::text, 8, '0'), ${buyer.userId}, 1, 'new', 2, n % 100000,
      n % 100000, 1, 1, now(), 'bulk-' || n, now() - n * interval '1 second', now()
    from generate_series(1, ${total}) as n`)
  const finance = await operatorAs(ta, 'finance')
  const lines = await ta.app.console.orders.exportCsv(
    { operatorId: finance.session.operator.id, ip: null },
    {},
  )
  // a collector to call: what stays on the heap between batches is what the export holds
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  const base = process.memoryUsage().heapUsed
  let peak = 0
  let rows = -1 // the header
  let bytes = 0
  let chunks = 0
  let previous = ''
  for await (const chunk of lines) {
    chunks++
    bytes += Buffer.byteLength(chunk)
    const chunkLines = chunk.split('\r\n').filter(Boolean)
    rows += chunkLines.length
    if (chunks === 2) previous = chunkLines[0]
    if (chunks % 10 === 0) {
      gc()
      peak = Math.max(peak, process.memoryUsage().heapUsed - base)
    }
  }
  assert.equal(rows, total)
  assert.equal(chunks, 1 + Math.ceil(total / CSV_BATCH))
  assert.match(previous, /^\d+,CPBULK00000001,/, 'newest first')
  assert.ok(bytes > 8_000_000, `${bytes} bytes exported`)
  // every row at once would hold the whole text (and the rows it came from): several times `bytes`
  assert.ok(peak < bytes * 2, `peak heap growth ${peak} for ${bytes} bytes`)
})
