import assert from 'node:assert/strict'
import { test } from 'node:test'
import { count, eq } from 'drizzle-orm'
import { activities, devices, orders, seckillItems, seckillPurchases } from '../../src/db/schema'
import { SEED_SECKILL_ACTIVITY_ID, SEED_SECKILL_ITEM_ID } from '../../src/db/seed/activity'
import { SECKILL_MESSAGES } from '../../src/services/engagement/activity-service'
import {
  GOODS,
  ZONES,
  cancelOrder,
  commerceApp,
  newBuyer,
  newKey,
  orderInfo,
  payWithSandbox,
  runJobs,
  stockOf,
} from '../helpers/commerce'
import { get, post, type Session, type TestApp } from '../helpers/test-app'
import type { ActivityDetail, ActivitySummary } from '../../src/contract/activity'
import type { OrderInfo } from '../../src/contract/order'

const SECKILL_PRICE = 100

const buy = (t: TestApp, session: Session, body: Record<string, unknown> = {}) =>
  post<OrderInfo>(
    t.app,
    '/order/createSeckillActivityOrder',
    {
      itemId: SEED_SECKILL_ITEM_ID,
      zoneId: ZONES.shanghai,
      expectedAmount: SECKILL_PRICE,
      idempotencyKey: newKey(),
      ...body,
    },
    session,
  )

async function item(t: TestApp) {
  const [row] = await t.database.db
    .select()
    .from(seckillItems)
    .where(eq(seckillItems.id, SEED_SECKILL_ITEM_ID))
  return row
}

async function setLeft(t: TestApp, left: number) {
  const row = await item(t)
  await t.database.db
    .update(seckillItems)
    .set({ sold: row.stock - left })
    .where(eq(seckillItems.id, SEED_SECKILL_ITEM_ID))
}

async function counts(t: TestApp) {
  const [o] = await t.database.db.select({ n: count() }).from(orders)
  const [p] = await t.database.db.select({ n: count() }).from(seckillPurchases)
  return { orders: o.n, purchases: p.n, sold: (await item(t)).sold }
}

test('list and detail are public; detail shows the price, units left and my purchase', async (t) => {
  const app = await commerceApp(t)
  const list = await get<ActivitySummary[]>(app.app, '/activity/list')
  assert.equal(list.code, 200, list.msg)
  assert.ok(list.data.some((a) => a.id === SEED_SECKILL_ACTIVITY_ID && a.running))
  const visitor = await get<ActivityDetail>(app.app, '/activity/detail', undefined, {
    id: String(SEED_SECKILL_ACTIVITY_ID),
  })
  assert.equal(visitor.code, 200, visitor.msg)
  const [seen] = visitor.data.items
  assert.equal(seen.price, SECKILL_PRICE)
  assert.equal(seen.left, 5)
  assert.equal(seen.bought, false)
  assert.ok(seen.originalPrice > seen.price)

  const buyer = await newBuyer(app)
  const created = await buy(app, buyer)
  assert.equal(created.code, 200, created.msg)
  assert.equal(created.data.amount, SECKILL_PRICE)
  assert.equal(created.data.kind, 'new')
  const mine = await get<ActivityDetail>(app.app, '/activity/detail', buyer, {
    id: String(SEED_SECKILL_ACTIVITY_ID),
  })
  assert.equal(mine.data.items[0].left, 4)
  assert.equal(mine.data.items[0].bought, true)
  assert.equal(mine.data.items[0].orderNo, created.data.orderNo)
  const other = await get<ActivityDetail>(app.app, '/activity/detail', undefined, {
    id: String(SEED_SECKILL_ACTIVITY_ID),
  })
  assert.equal(other.data.items[0].bought, false)

  const missing = await get<ActivityDetail>(app.app, '/activity/detail', undefined, { id: '9999' })
  assert.equal(missing.code, 1080)
  assert.equal(missing.msg, '活动不存在或已下线')
  const bad = await get<ActivityDetail>(app.app, '/activity/detail', undefined, { id: 'x' })
  assert.notEqual(bad.code, 200)
})

test('two users racing for the last unit: exactly one wins, stock never negative', async (t) => {
  const app = await commerceApp(t)
  const [a, b] = [await newBuyer(app), await newBuyer(app)]
  await setLeft(app, 1)
  const replies = await Promise.all([buy(app, a), buy(app, b)])
  const won = replies.filter((r) => r.code === 200)
  const lost = replies.filter((r) => r.code !== 200)
  assert.equal(won.length, 1)
  assert.equal(lost[0].msg, SECKILL_MESSAGES.soldOut)
  const after = await counts(app)
  assert.deepEqual(after, { orders: 1, purchases: 1, sold: 5 })
})

test('50 concurrent buyers for 5 units make exactly 5 orders', async (t) => {
  const app = await commerceApp(t)
  const buyers: Session[] = []
  for (let i = 0; i < 50; i++) buyers.push(await newBuyer(app))
  const shanghai = await stockOf(app, GOODS.enjoyB, ZONES.shanghai)
  const replies = await Promise.all(buyers.map((s) => buy(app, s)))
  assert.equal(replies.filter((r) => r.code === 200).length, 5)
  assert.ok(replies.filter((r) => r.code !== 200).every((r) => r.msg === SECKILL_MESSAGES.soldOut))
  assert.deepEqual(await counts(app), { orders: 5, purchases: 5, sold: 5 })
  assert.equal(await stockOf(app, GOODS.enjoyB, ZONES.shanghai), shanghai - 5)
})

test('the same user twice at once gets one unit; again later → 每人限购1件', async (t) => {
  const app = await commerceApp(t)
  const buyer = await newBuyer(app)
  const replies = await Promise.all([buy(app, buyer), buy(app, buyer)])
  assert.equal(replies.filter((r) => r.code === 200).length, 1)
  assert.equal(replies.find((r) => r.code !== 200)?.msg, SECKILL_MESSAGES.limit)
  const again = await buy(app, buyer)
  assert.equal(again.msg, SECKILL_MESSAGES.limit)
  assert.deepEqual(await counts(app), { orders: 1, purchases: 1, sold: 1 })
  // The same idempotency key returns the same order rather than a refusal.
  const key = newKey()
  const other = await newBuyer(app)
  const first = await buy(app, other, { idempotencyKey: key })
  const repeat = await buy(app, other, { idempotencyKey: key })
  assert.equal(repeat.code, 200, repeat.msg)
  assert.equal(repeat.data.orderNo, first.data.orderNo)
})

test('refusals say why and write nothing: sold out, not started, ended, disabled, price', async (t) => {
  const app = await commerceApp(t)
  const buyer = await newBuyer(app)
  const before = await counts(app)
  const shanghai = await stockOf(app, GOODS.enjoyB, ZONES.shanghai)
  const setActivity = (values: Partial<typeof activities.$inferInsert>) =>
    app.database.db
      .update(activities)
      .set(values)
      .where(eq(activities.id, SEED_SECKILL_ACTIVITY_ID))
  const now = app.clock.now().getTime()

  await setLeft(app, 0)
  assert.equal((await buy(app, buyer)).msg, SECKILL_MESSAGES.soldOut)
  await setLeft(app, 5)

  await setActivity({ startsAt: new Date(now + 3_600_000) })
  assert.equal((await buy(app, buyer)).msg, SECKILL_MESSAGES.notStarted)
  await setActivity({ startsAt: new Date(now - 7_200_000), endsAt: new Date(now - 3_600_000) })
  assert.equal((await buy(app, buyer)).msg, SECKILL_MESSAGES.ended)
  await setActivity({ endsAt: new Date(now + 3_600_000), enabled: 0 })
  assert.equal((await buy(app, buyer)).msg, '活动不存在或已下线')
  await setActivity({ enabled: 1 })

  const wrongPrice = await buy(app, buyer, { expectedAmount: 1 })
  assert.equal(wrongPrice.code, 1023)
  assert.equal((await buy(app, buyer, { itemId: 999 })).msg, SECKILL_MESSAGES.itemNotFound)
  const invalid = await buy(app, buyer, { itemId: 0 })
  assert.notEqual(invalid.code, 200)
  const noLogin = await post<OrderInfo>(app.app, '/order/createSeckillActivityOrder', {
    itemId: SEED_SECKILL_ITEM_ID,
    expectedAmount: SECKILL_PRICE,
    idempotencyKey: newKey(),
  })
  assert.notEqual(noLogin.code, 200)

  assert.deepEqual(await counts(app), { ...before, sold: 0 })
  assert.equal(await stockOf(app, GOODS.enjoyB, ZONES.shanghai), shanghai)
})

test('an unpaid order that times out or is cancelled gives its unit back; the user may buy again', async (t) => {
  const app = await commerceApp(t)
  const buyer = await newBuyer(app)
  const first = await buy(app, buyer)
  assert.equal(first.code, 200, first.msg)
  assert.equal((await item(app)).sold, 1)
  app.clock.advance(16 * 60_000)
  await app.app.services.orders.close(
    (await app.database.db.select().from(orders).where(eq(orders.orderNo, first.data.orderNo)))[0]
      .id,
    4,
  )
  assert.equal((await orderInfo(app, buyer, first.data.orderNo)).status, 4)
  assert.deepEqual(await counts(app), { orders: 1, purchases: 0, sold: 0 })

  const second = await buy(app, buyer)
  assert.equal(second.code, 200, second.msg)
  await cancelOrder(app, buyer, second.data.orderNo)
  assert.deepEqual(await counts(app), { orders: 2, purchases: 0, sold: 0 })
  assert.equal((await buy(app, buyer)).code, 200)
})

test('the timeout job closes an overdue seckill order and frees the unit', async (t) => {
  const app = await commerceApp(t)
  const buyer = await newBuyer(app)
  await app.app.jobs.ensureRecurring()
  const created = await buy(app, buyer)
  assert.equal(created.code, 200, created.msg)
  app.clock.advance(16 * 60_000)
  await runJobs(app)
  assert.equal((await orderInfo(app, buyer, created.data.orderNo)).status, 4)
  assert.equal((await item(app)).sold, 0)
})

test('a paid seckill order fulfils one phone once and keeps the unit', async (t) => {
  const app = await commerceApp(t)
  const buyer = await newBuyer(app)
  const created = await buy(app, buyer)
  assert.equal(created.code, 200, created.msg)
  await payWithSandbox(app, buyer, created.data.orderNo)
  await runJobs(app, 3)
  const order = await orderInfo(app, buyer, created.data.orderNo)
  assert.equal(order.status, 2)
  assert.equal(order.deviceIds.length, 1)
  const phones = await app.database.db
    .select()
    .from(devices)
    .where(eq(devices.userId, buyer.userId))
  assert.equal(phones.length, 1)
  assert.equal(phones[0].goodId, GOODS.enjoyB)
  const [purchase] = await app.database.db.select().from(seckillPurchases)
  assert.equal(purchase.status, 'paid')
  // Paid: a later timeout sweep changes nothing and the user still may not buy again.
  await app.app.jobs.ensureRecurring()
  app.clock.advance(60 * 60_000)
  await runJobs(app, 2)
  assert.equal((await item(app)).sold, 1)
  assert.equal((await buy(app, buyer)).msg, SECKILL_MESSAGES.limit)
})
