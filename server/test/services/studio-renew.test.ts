/**
 * A studio renews its whole fleet in one order: the quote, one order, payment, set-based
 * fulfilment and the progress the buyer follows. 10,000 phones on PostgreSQL; on PGlite a smaller
 * studio of the same path (the embedded database is the slow part, not the code under test).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq, sql } from 'drizzle-orm'
import { MAX_RENEW_BATCH } from '#domain/batch-results'
import { DeviceStatus } from '#domain/device-lifecycle'
import { devices, jobs } from '../../src/db/schema'
import { chunks } from '../../src/db/id-arrays'
import { PLAN_CHANGED_REFUND } from '../../src/services/orders/plan-orders'
import { SYNC_JOB } from '../../src/services/devices/device-lifecycle'
import {
  GOODS,
  ZONES,
  commerceApp,
  newBuyer,
  newKey,
  orderInfo as info,
  orderRow,
  priceOf,
} from '../helpers/commerce'
import { post, type Session, type TestApp } from '../helpers/test-app'
import type { Quote } from '../../src/contract/goods'
import type { OrderInfo } from '../../src/contract/order'
import type { CreatePaymentResult } from '../../src/contract/payment'

const DAY = 86_400_000
const STUDIO = process.env.TEST_DATABASE_URL ? MAX_RENEW_BATCH : 1_000

/** A studio's running phones, written directly (provisioning 10,000 through the supplier is not the point). */
async function studioPhones(ta: TestApp, userId: number, count: number): Promise<number[]> {
  const now = ta.clock.now()
  const ids: number[] = []
  for (const part of chunks(Array.from({ length: count }, (_, i) => i))) {
    const rows = await ta.database.db
      .insert(devices)
      .values(
        part.map((i) => ({
          userId,
          name: `云手机-${i + 1}`,
          goodId: GOODS.enjoyB,
          level: 1,
          zoneId: ZONES.shanghai,
          androidVersion: 'B',
          imageType: 1,
          status: DeviceStatus.running,
          // expiries spread over 30 days, a few already expired (renewal brings them back)
          expireAt: new Date(now.getTime() + ((i % 31) - 1) * DAY + 3_600_000),
          createdAt: now,
        })),
      )
      .returning({ id: devices.id })
    ids.push(...rows.map((row) => row.id))
  }
  return ids
}

async function giveBeans(ta: TestApp, userId: number, beans: number) {
  await ta.database.db.transaction((tx) =>
    ta.app.services.beans.credit(tx, userId, beans, { reason: 'grant' }),
  )
}

const beanBalance = (ta: TestApp, userId: number) =>
  ta.app.services.beans.balance(userId, ta.app.services.ctx.db)

async function renewAll(ta: TestApp, buyer: Session, deviceIds: number[]) {
  const priceId = priceOf(GOODS.enjoyB, 30)
  const quoted = await post<Quote>(
    ta.app,
    '/CommodityGroup/getGoodPrice',
    { kind: 'renew', deviceIds, priceId },
    buyer,
  )
  assert.equal(quoted.code, 200, quoted.msg)
  const order = await post<OrderInfo>(
    ta.app,
    '/order/createRenewOrder',
    { deviceIds, priceId, expectedAmount: quoted.data.total, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(order.code, 200, order.msg)
  return { quote: quoted.data, order: order.data }
}

async function payWithBeans(ta: TestApp, buyer: Session, orderNo: string) {
  const paid = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo, payMethod: 3 },
    buyer,
  )
  assert.equal(paid.code, 200, paid.msg)
}

const expiries = async (ta: TestApp, userId: number) =>
  new Map(
    (
      await ta.database.db
        .select({ id: devices.id, expireAt: devices.expireAt, status: devices.status })
        .from(devices)
        .where(eq(devices.userId, userId))
    ).map((row) => [row.id, row]),
  )

test(`a studio of ${STUDIO} phones renews in one order, delivered set-based, with progress`, async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const ids = await studioPhones(ta, buyer.userId, STUDIO)
  const before = await expiries(ta, buyer.userId)

  const { quote, order } = await renewAll(ta, buyer, ids)
  assert.equal(order.quantity, STUDIO)
  assert.equal(order.deviceIds.length, STUDIO)
  assert.equal(order.renewals.length, 100, 'the order info carries the first lines only')
  const names = new Map(
    (
      await ta.database.db
        .select({ id: devices.id, name: devices.name })
        .from(devices)
        .where(eq(devices.userId, buyer.userId))
    ).map((phone) => [phone.id, phone.name]),
  )
  assert.ok(
    order.renewals.every((line) => line.deviceName === names.get(line.deviceId)),
    'each line names its phone as the owner named it',
  )
  assert.equal(order.amount, quote.total)
  assert.equal(order.progress, undefined, 'no progress before payment')

  await giveBeans(ta, buyer.userId, order.amount)
  await payWithBeans(ta, buyer, order.orderNo)
  assert.equal(await beanBalance(ta, buyer.userId), 0, 'the whole price was taken once')
  const paid = await info(ta, buyer, order.orderNo)
  assert.equal(paid.status, 1)
  assert.deepEqual(
    paid.progress,
    { done: 0, total: STUDIO },
    '续费中 0/N while waiting for delivery',
  )

  // the fulfilment job (the first due) delivers the order; nothing else runs yet
  await ta.app.jobs.runDue(1)
  const delivered = await info(ta, buyer, order.orderNo)
  assert.equal(delivered.status, 2, 'completed')
  assert.deepEqual(delivered.progress, { done: 0, total: STUDIO }, 'no phone synced yet')

  // every phone: extended by 30 days from max(its expiry, now), an expired one running again
  const now = ta.clock.now().getTime()
  const after = await expiries(ta, buyer.userId)
  for (const id of ids) {
    const was = before.get(id)!.expireAt.getTime()
    assert.equal(after.get(id)!.expireAt.getTime(), Math.max(was, now) + 30 * DAY, `phone ${id}`)
    assert.equal(after.get(id)!.status, DeviceStatus.running)
  }
  const [syncs] = await ta.database.db
    .select({ count: sql<number>`count(*)::integer` })
    .from(jobs)
    .where(and(eq(jobs.kind, SYNC_JOB), sql`(${jobs.payload}->>'orderId') is not null`))
  assert.equal(Number(syncs.count), STUDIO, 'one sync job per phone, each carrying the order')

  // progress follows the sync jobs
  await ta.app.jobs.runDue(250)
  assert.deepEqual((await info(ta, buyer, order.orderNo)).progress, { done: 250, total: STUDIO })
  // the rest as the queue would finish them (draining 10,000 jobs one by one is the bench's part)
  await ta.database.db
    .update(jobs)
    .set({ status: 'done' })
    .where(and(eq(jobs.kind, SYNC_JOB), eq(jobs.status, 'pending')))
  assert.deepEqual((await info(ta, buyer, order.orderNo)).progress, {
    done: STUDIO,
    total: STUDIO,
  })
  // delivered once: running the fulfilment again changes nothing
  const row = await orderRow(ta, order.orderNo)
  assert.equal(await ta.app.services.fulfilment.fulfil(row.id), false)
  const again = await expiries(ta, buyer.userId)
  for (const id of ids)
    assert.equal(again.get(id)!.expireAt.getTime(), after.get(id)!.expireAt.getTime())

  // a phone the owner no longer holds is shown by its number: its name is now someone else's
  const other = await newBuyer(ta)
  const [gone] = order.renewals
  await ta.database.db
    .update(devices)
    .set({ userId: other.userId, name: '别人的云手机' })
    .where(eq(devices.id, gone.deviceId))
  const lines = (await info(ta, buyer, order.orderNo)).renewals
  assert.equal(lines.find((line) => line.deviceId === gone.deviceId)?.deviceName, null)
  assert.equal(lines.filter((line) => line.deviceName !== null).length, 99)
})

test('more than MAX_RENEW_BATCH phones is refused (quote and order) before any work', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const deviceIds = Array.from({ length: MAX_RENEW_BATCH + 1 }, (_, i) => i + 1)
  const priceId = priceOf(GOODS.enjoyB, 30)
  const quoted = await post(
    ta.app,
    '/CommodityGroup/getGoodPrice',
    { kind: 'renew', deviceIds, priceId },
    buyer,
  )
  assert.equal(quoted.code, 400)
  const order = await post(
    ta.app,
    '/order/createRenewOrder',
    { deviceIds, priceId, expectedAmount: 100, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(order.code, 400)
  assert.match(order.msg, /deviceIds/)
})

test('a large renewal raced by a change to one phone is refunded whole, nothing delivered', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const ids = await studioPhones(ta, buyer.userId, 500)
  const before = await expiries(ta, buyer.userId)
  const { order } = await renewAll(ta, buyer, ids)
  await giveBeans(ta, buyer.userId, order.amount)
  await payWithBeans(ta, buyer, order.orderNo)
  // paid, not yet delivered: one phone is released behind the order's back (its plan moves)
  await ta.database.db
    .update(devices)
    .set({ status: DeviceStatus.released, releasedAt: ta.clock.now() })
    .where(eq(devices.id, ids[377]))
  await ta.app.jobs.runDue(1)
  const refunded = await info(ta, buyer, order.orderNo)
  assert.equal(refunded.status, 5, '已退款')
  assert.equal(refunded.progress, undefined)
  assert.equal(await beanBalance(ta, buyer.userId), order.amount, 'money back, all of it')
  const after = await expiries(ta, buyer.userId)
  for (const id of ids) {
    assert.equal(after.get(id)!.expireAt.getTime(), before.get(id)!.expireAt.getTime())
  }
  const [syncs] = await ta.database.db
    .select({ count: sql<number>`count(*)::integer` })
    .from(jobs)
    .where(and(eq(jobs.kind, SYNC_JOB), sql`(${jobs.payload}->>'orderId') is not null`))
  assert.equal(Number(syncs.count), 0, 'no sync job of a refunded renewal')
  const row = await orderRow(ta, order.orderNo)
  assert.equal((row.detail as { refundReason?: string }).refundReason, PLAN_CHANGED_REFUND)
})
