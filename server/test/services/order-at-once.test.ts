/**
 * New-phone orders without a coupon are placed by one statement (services/orders/order-at-once.ts) that takes
 * no lock on the buyer: it must place the whole order or change nothing, and what the buyer's lock
 * decides in the transaction path (one order per idempotency key, one live first order) must still hold.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import { and, eq, sql } from 'drizzle-orm'
import { goodsStockSlots, orders, STOCK_SLOTS } from '../../src/db/schema'
import { placeNewPhonesAtOnce, type NewPhonesOrder } from '../../src/services/orders/order-at-once'
import { newOrderNo } from '../../src/services/orders/order-insert'
import { OrderPricing } from '../../src/services/orders/order-pricing'
import { cloudOrder } from '../../src/services/orders/order-request'
import { OrderTransactionWriter } from '../../src/services/orders/order-transaction'
import { newestLiveNewOrderOf } from '../../src/services/orders/buyer-standing'
import {
  GOODS,
  ZONES,
  cancelOrder,
  commerceApp,
  createCloudOrder,
  newBuyer,
  newKey,
  priceOf,
  quote,
  setStock,
  stockOf,
  stockSlotsOf,
} from '../helpers/commerce'
import { post, type Session, type TestApp } from '../helpers/test-app'
import type { OrderInfo } from '../../src/contract/order'

const MONTH_PRICE = priceOf(GOODS.enjoyB, 30)

function anOrder(
  ta: TestApp,
  buyer: Session,
  values: Partial<NewPhonesOrder> = {},
): NewPhonesOrder {
  const now = ta.clock.now()
  return {
    orderNo: newOrderNo(now),
    userId: buyer.userId,
    businessType: 1,
    amount: 3000,
    originalAmount: 3000,
    quantity: 2,
    goodId: GOODS.enjoyB,
    priceId: MONTH_PRICE,
    goodTime: 30,
    zoneId: ZONES.shanghai,
    payDeadline: new Date(now.getTime() + 15 * 60_000),
    idempotencyKey: newKey(),
    detail: { lines: [] },
    createdAt: now,
    firstOrder: false,
    ...values,
  }
}

const ordersOf = (ta: TestApp, buyer: Session) =>
  ta.database.db.select().from(orders).where(eq(orders.userId, buyer.userId))

/** Counts the transactions the database is asked for. */
function countTransactions(ta: TestApp) {
  const db = ta.database.db
  const transaction = db.transaction.bind(db)
  const counter = { transactions: 0 }
  db.transaction = ((...args: Parameters<typeof transaction>) => {
    counter.transactions++
    return transaction(...args)
  }) as typeof db.transaction
  return counter
}

test('one statement takes the stock and writes the order, holding the stock for the order', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const before = await stockOf(ta, GOODS.enjoyB, ZONES.shanghai)
  const order = anOrder(ta, buyer, { firstOrder: true, detail: { lines: [{ label: '畅享版' }] } })
  const row = await placeNewPhonesAtOnce(ta.database.db, order)
  assert.ok(row)
  assert.equal(row.orderNo, order.orderNo)
  assert.equal(row.status, 0)
  assert.equal(row.kind, 'new')
  assert.deepEqual(
    [row.reservedGoodId, row.reservedZoneId, row.reservedQuantity],
    [GOODS.enjoyB, ZONES.shanghai, 2],
  )
  assert.deepEqual(row.detail, { lines: [{ label: '畅享版' }] })
  assert.deepEqual(row.deviceIds, [])
  assert.equal(row.payDeadline.getTime(), order.payDeadline.getTime())
  assert.equal(row.firstOrder, true)
  // the row answered is built from what was sent (only the id is read back): it is the row written
  const [stored] = await ta.database.db.select().from(orders).where(eq(orders.id, row.id))
  assert.deepEqual(row, stored)
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), before - 2)
})

test('when the statement cannot place the order it changes nothing', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  await setStock(ta, GOODS.enjoyB, ZONES.shanghai, 24) // 3 in each of the 8 slots
  const db = ta.database.db

  assert.equal(
    await placeNewPhonesAtOnce(db, anOrder(ta, buyer, { quantity: 4 })),
    null,
    'no one slot holds 4 (the transaction path takes them from several)',
  )
  assert.equal(
    await placeNewPhonesAtOnce(db, anOrder(ta, buyer, { firstOrder: false })),
    null,
    'a buyer with no live new order is on a first order, not the price given',
  )
  const placed = await placeNewPhonesAtOnce(db, anOrder(ta, buyer, { firstOrder: true }))
  assert.ok(placed)
  assert.equal(
    await placeNewPhonesAtOnce(db, anOrder(ta, buyer, { firstOrder: true, quantity: 1 })),
    null,
    'no longer a first order',
  )
  const sameKey = anOrder(ta, buyer, { idempotencyKey: placed.idempotencyKey, quantity: 1 })
  assert.equal(await placeNewPhonesAtOnce(db, sameKey), null, 'the key made an order already')
  const sameNo = anOrder(ta, buyer, { orderNo: placed.orderNo, quantity: 1 })
  assert.equal(await placeNewPhonesAtOnce(db, sameNo), null, 'the order number is taken')

  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), 22, 'only the placed order’s 2')
  assert.equal((await ordersOf(ta, buyer)).length, 1)
})

test('a plain new-phone order takes no transaction; one with a coupon does', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const counter = countTransactions(ta)
  const plain = await createCloudOrder(ta, buyer)
  assert.equal(plain.code, 200, plain.msg)
  assert.equal(counter.transactions, 0)
  const withCoupon = await post<OrderInfo>(
    ta.app,
    '/order/createCloudOrder',
    {
      goodId: GOODS.enjoyB,
      priceId: MONTH_PRICE,
      zoneId: ZONES.shanghai,
      quantity: 1,
      expectedAmount: 1,
      idempotencyKey: newKey(),
      couponId: 1,
    },
    buyer,
  )
  assert.notEqual(withCoupon.code, 200)
  assert.equal(counter.transactions, 1)
})

test('a new buyer’s orders made at the same moment get the first-purchase price once', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const before = await stockOf(ta, GOODS.enjoyB, ZONES.shanghai)
  const { total } = await quote(ta, buyer, {
    kind: 'new',
    goodId: GOODS.enjoyB,
    priceId: MONTH_PRICE,
    quantity: 1,
  })
  const body = { goodId: GOODS.enjoyB, priceId: MONTH_PRICE, zoneId: ZONES.shanghai, quantity: 1 }
  const replies = await Promise.all(
    Array.from({ length: 10 }, () =>
      post<OrderInfo>(
        ta.app,
        '/order/createCloudOrder',
        { ...body, expectedAmount: total, idempotencyKey: newKey() },
        buyer,
      ),
    ),
  )
  assert.deepEqual(
    replies.map((r) => r.code).sort((a, b) => a - b),
    [200, ...Array(9).fill(1023)],
  )
  const rows = await ordersOf(ta, buyer)
  assert.deepEqual(
    rows.map((r) => [r.amount, r.firstOrder]),
    [[total, true]],
  )
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), before - 1)
})

test('after the first order is cancelled the next order is a first order again', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const first = await createCloudOrder(ta, buyer)
  assert.equal(first.code, 200, first.msg)
  assert.equal(first.data.amount, 1500, 'the first-purchase price')
  await cancelOrder(ta, buyer, first.data.orderNo)
  const again = await createCloudOrder(ta, buyer)
  assert.equal(again.code, 200, again.msg)
  assert.equal(again.data.amount, 1500)
  const rows = await ordersOf(ta, buyer)
  assert.deepEqual(rows.map((r) => r.firstOrder).sort(), [true, true])
})

test(
  'an order placed at once waits for a transaction holding the buyer, then finds its key taken',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' },
  async (t) => {
    const ta = await commerceApp(t)
    const buyer = await newBuyer(ta)
    const body = {
      goodId: GOODS.enjoyB,
      priceId: MONTH_PRICE,
      zoneId: ZONES.shanghai,
      quantity: 1,
      expectedAmount: 1500,
      idempotencyKey: `raced-${randomBytes(6).toString('hex')}`,
    }
    let atOnce: Promise<unknown> | null = null
    let settledInside = false
    // After the transaction's reads, before its insert: the same key sent at once. The statement
    // takes the buyer's row first (it counts their unpaid units), so it waits for this transaction.
    const race = async () => {
      if (atOnce) return
      atOnce = placeNewPhonesAtOnce(
        ta.database.db,
        anOrder(ta, buyer, {
          idempotencyKey: body.idempotencyKey,
          quantity: 1,
          firstOrder: true,
        }),
      )
      atOnce.then(() => (settledInside = true))
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    const { ctx, goods, lifecycle, coupons } = ta.app.services
    const pricing = new OrderPricing(ctx, goods, lifecycle)
    // The transaction's pricing, with the race run first.
    const racing: OrderPricing = Object.assign(Object.create(pricing), {
      forBuyer: (userId: number, firstOrder: boolean) => {
        const priced = pricing.forBuyer(userId, firstOrder)
        return Object.assign(Object.create(priced), {
          priceOrder: async (...args: Parameters<OrderPricing['priceOrder']>) => {
            await race()
            return priced.priceOrder(...args)
          },
        })
      },
    })
    const writer = new OrderTransactionWriter(ctx, racing, coupons, goods, lifecycle)
    const answer = await writer.write(cloudOrder(buyer.userId, body))
    assert.equal(settledInside, false, 'the statement waited for the transaction')
    assert.equal(await atOnce, null, 'then found the key taken and placed nothing')
    const placed = await ordersOf(ta, buyer)
    assert.deepEqual(
      placed.map((order) => order.orderNo),
      [answer.orderNo],
    )
  },
)

test('orders of one goods in one zone take their units from different stock slots', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  await setStock(ta, GOODS.enjoyB, ZONES.shanghai, 10 * STOCK_SLOTS)
  for (let i = 0; i < 16; i++) {
    assert.ok(
      await placeNewPhonesAtOnce(
        ta.database.db,
        anOrder(ta, buyer, { firstOrder: i === 0, quantity: 1 }),
      ),
    )
  }
  const slots = await stockSlotsOf(ta, GOODS.enjoyB, ZONES.shanghai)
  assert.equal(
    slots.reduce((sum, stock) => sum + stock, 0),
    10 * STOCK_SLOTS - 16,
  )
  // 16 orders all from one slot would be a 1 in 16^15 chance if the slot were picked at random
  assert.ok(slots.filter((stock) => stock < 10).length > 1, `slots: ${slots.join(', ')}`)
})

test(
  'concurrent orders waiting on the same stock slots are all placed by the one statement',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' },
  async (t) => {
    const ta = await commerceApp(t)
    const db = ta.database.db
    const buyers: Session[] = []
    for (let i = 0; i < 10; i++) {
      const buyer = await newBuyer(ta)
      assert.ok(
        await placeNewPhonesAtOnce(db, anOrder(ta, buyer, { firstOrder: true, quantity: 1 })),
      )
      buyers.push(buyer)
    }
    // Three slots hold the stock, fewer than the pool's connections: orders wait on each other's slot.
    await db
      .update(goodsStockSlots)
      .set({ stock: sql`case when ${goodsStockSlots.slot} < 3 then 1000 else 0 end` })
      .where(
        and(eq(goodsStockSlots.goodId, GOODS.enjoyB), eq(goodsStockSlots.zoneId, ZONES.shanghai)),
      )
    const placed = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        placeNewPhonesAtOnce(db, anOrder(ta, buyers[i % buyers.length], { quantity: 1 })),
      ),
    )
    assert.equal(
      placed.filter((row) => row === null).length,
      0,
      'none left to the transaction path',
    )
    assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), 3000 - 150)
  },
)

test('a buyer’s first-order standing is read from the live-order index, in a cached plan too', async (t) => {
  const ta = await commerceApp(t)
  const db = ta.database.db
  // One studio holds nearly every order, the skew that once made the plan PostgreSQL caches for the
  // statement read the whole table for every other buyer.
  const studio = await newBuyer(ta)
  const buyer = await newBuyer(ta)
  await db.execute(sql`insert into orders (order_no, user_id, business_type, kind, status, amount,
      original_amount, quantity, pay_deadline, idempotency_key, created_at)
    select 'skew' || n, ${studio.userId}, 1, 'new', 0, 100, 100, 1, now(), 'skew' || n, now()
    from generate_series(1, 3000) n`)
  await db.execute(sql`analyze orders`)
  // the statement as the server prepares it, its parameters untyped as drizzle sends them
  const check = newestLiveNewOrderOf(db, sql.placeholder('userId')).toSQL().sql
  const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows
  const { chosen, plan } = await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`prepare live_new_check as ${check}`))
    // PostgreSQL plans a prepared statement for its values five times, then keeps one plan for any
    // values if that plan does not look dearer (as it did with the limit sent as a parameter: the
    // server then planned the order statement afresh for every order)
    for (let i = 0; i < 6; i++) await tx.execute(sql.raw(`execute live_new_check(${buyer.userId})`))
    const [chosen] = rowsOf(
      await tx.execute(
        sql`select generic_plans, custom_plans from pg_prepared_statements where name = 'live_new_check'`,
      ),
    )
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`)
    const explained = rowsOf(
      await tx.execute(sql.raw(`explain execute live_new_check(${buyer.userId})`)),
    )
    await tx.execute(sql`deallocate live_new_check`)
    return { chosen, plan: explained.map((row) => Object.values(row)[0]).join('\n') }
  })
  assert.ok(
    Number(chosen.generic_plans) > 0,
    `PostgreSQL kept planning it afresh: ${JSON.stringify(chosen)}`,
  )
  assert.match(plan, /orders_live_new_idx/, plan)
  assert.doesNotMatch(plan, /Seq Scan/, plan)
})
