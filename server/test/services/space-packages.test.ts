import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { jobs, orders, spaceGrants, userCoupons } from '../../src/db/schema'
import { CouponStatus } from '#domain/enums'
import { SPACE_PACKAGES } from '../../src/services/space/space-packages'
import { BASE_QUOTA_BYTES, grantSpace } from '../../src/services/space/space-quota'
import {
  commerceApp,
  newBuyer,
  newKey,
  orderInfo,
  orderRow,
  payWithSandbox,
  replayPaidNotification,
  runJobs,
} from '../helpers/commerce'
import { get, post, type Session, type TestApp } from '../helpers/test-app'
import type { ApplicableCoupons } from '../../src/contract/coupon'
import type { OrderInfo } from '../../src/contract/order'
import type { SpaceInfo, SpacePackages } from '../../src/contract/space'

const GB = 1024 ** 3
const DAY_MS = 86_400_000

async function spaceOrder(ta: TestApp, buyer: Session, packageId: number) {
  const pack = SPACE_PACKAGES.find((p) => p.id === packageId)!
  const reply = await post<OrderInfo>(
    ta.app,
    '/order/createOrder',
    { packageId, expectedAmount: pack.price, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(reply.code, 200, reply.msg)
  return reply.data as { orderNo: string; amount: number; businessType: number; kind: string }
}

async function spaceInfo(ta: TestApp, buyer: Session) {
  const reply = await get<SpaceInfo>(ta.app, '/space/info', buyer)
  assert.equal(reply.code, 200, reply.msg)
  return reply.data as { quotaBytes: number; grants: { bytes: number; expiresAt: number }[] }
}

test('the space packages on sale: 10 GB/30天 ¥9.90, 50 GB/30天 ¥29.90, 100 GB/90天 ¥99', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const reply = await get<SpacePackages>(ta.app, '/space/packages', buyer)
  assert.equal(reply.code, 200, reply.msg)
  assert.deepEqual(reply.data.packages, [
    { id: 1, bytes: 10 * GB, days: 30, price: 990 },
    { id: 2, bytes: 50 * GB, days: 30, price: 2990 },
    { id: 3, bytes: 100 * GB, days: 90, price: 9900 },
  ])
})

test('a paid space order raises the quota until it expires, then the quota falls back to 2 GB', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  assert.equal((await spaceInfo(ta, buyer)).quotaBytes, BASE_QUOTA_BYTES)
  const order = await spaceOrder(ta, buyer, 1)
  assert.equal(order.businessType, 4)
  assert.equal(order.kind, 'cloudSpace')
  assert.equal(order.amount, 990)
  // Unpaid: nothing yet.
  assert.equal((await spaceInfo(ta, buyer)).quotaBytes, BASE_QUOTA_BYTES)
  const paidAt = ta.clock.now().getTime()
  await payWithSandbox(ta, buyer, order.orderNo)
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 2)
  const info = await spaceInfo(ta, buyer)
  assert.equal(info.quotaBytes, BASE_QUOTA_BYTES + 10 * GB)
  assert.equal(info.grants.length, 1)
  assert.equal(info.grants[0].bytes, 10 * GB)
  const expiresAt = info.grants[0].expiresAt
  assert.ok(expiresAt >= paidAt + 30 * DAY_MS && expiresAt < paidAt + 30 * DAY_MS + 60_000)
  assert.equal(
    await ta.app.services.space.quota(buyer.userId, ta.app.services.ctx.db),
    BASE_QUOTA_BYTES + 10 * GB,
  )

  // (The session would have expired after 30 days: ask the service directly.)
  const space = ta.app.services.space
  ta.clock.advance(expiresAt - ta.clock.now().getTime() - 1_000)
  assert.equal((await space.info(buyer.userId)).quotaBytes, BASE_QUOTA_BYTES + 10 * GB)
  ta.clock.advance(1_000)
  const after = await space.info(buyer.userId)
  assert.equal(after.quotaBytes, BASE_QUOTA_BYTES)
  assert.deepEqual(after.grants, [])
  assert.equal(await space.quota(buyer.userId, ta.app.services.ctx.db), BASE_QUOTA_BYTES)
})

test('a space notification replayed 30 times, its job and the grant run again grant the space once', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const order = await spaceOrder(ta, buyer, 2)
  assert.equal(await replayPaidNotification(ta, buyer, order.orderNo, 2990, 30), 1)
  await runJobs(ta)
  const [job] = await ta.database.db.select().from(jobs).where(eq(jobs.kind, 'fulfil-order'))
  await ta.app.services.fulfilment.fulfil(Number((job.payload as { orderId: number }).orderId))
  const row = await orderRow(ta, order.orderNo)
  await grantSpace(ta.database.db, ta.clock.now(), row)
  await runJobs(ta)
  const grants = await ta.database.db
    .select()
    .from(spaceGrants)
    .where(eq(spaceGrants.userId, buyer.userId))
  assert.equal(grants.length, 1)
  assert.equal(grants[0].orderId, row.id)
  assert.equal((await spaceInfo(ta, buyer)).quotaBytes, BASE_QUOTA_BYTES + 50 * GB)
})

test('an unknown package or a wrong amount is refused with a clear message and creates nothing', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const order = (packageId: number, expectedAmount: number) =>
    post<OrderInfo>(
      ta.app,
      '/order/createOrder',
      { packageId, expectedAmount, idempotencyKey: newKey() },
      buyer,
    )
  const unknown = await order(99, 990)
  assert.notEqual(unknown.code, 200)
  assert.equal(unknown.msg, '云空间套餐不存在')
  const wrongAmount = await order(1, 100)
  assert.equal(wrongAmount.code, 1023)
  const zero = await order(0, 990)
  assert.notEqual(zero.code, 200)
  const made = await ta.database.db.select().from(orders).where(eq(orders.userId, buyer.userId))
  assert.deepEqual(made, [])
  assert.equal((await spaceInfo(ta, buyer)).quotaBytes, BASE_QUOTA_BYTES)
})

test('a space coupon: quoted on the package it applies to, charged 5 元 less, used once paid', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const now = ta.clock.now()
  // 云空间满减券 (seed template 6): 5 元 off a space order of 29.90 元 or more.
  const [held] = await ta.database.db
    .insert(userCoupons)
    .values({
      userId: buyer.userId,
      templateId: 6,
      validFrom: now,
      validUntil: new Date(now.getTime() + DAY_MS),
      issuedAt: now,
    })
    .returning()
  const applicable = async (packageId: number) => {
    const reply = await post<ApplicableCoupons>(
      ta.app,
      '/coupon/applicable',
      { kind: 'cloudSpace', packageId },
      buyer,
    )
    assert.equal(reply.code, 200, reply.msg)
    assert.equal(reply.data.businessType, 4)
    return (
      reply.data.coupons as {
        id: number
        usable: boolean
        reason: string | null
        discount: number
      }[]
    ).find((c) => c.id === held.id)!
  }
  assert.deepEqual(await applicable(1), {
    ...(await applicable(1)),
    usable: false,
    reason: '距离可用门槛还差20.00元',
    discount: 0,
  })
  const onFifty = await applicable(2)
  assert.equal(onFifty.usable, true)
  assert.equal(onFifty.discount, 500)

  const tooSmall = await post<OrderInfo>(
    ta.app,
    '/order/createOrder',
    { packageId: 1, expectedAmount: 490, couponId: held.id, idempotencyKey: newKey() },
    buyer,
  )
  assert.notEqual(tooSmall.code, 200)
  const created = await post<OrderInfo>(
    ta.app,
    '/order/createOrder',
    { packageId: 2, expectedAmount: 2490, couponId: held.id, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(created.code, 200, created.msg)
  assert.equal(created.data.amount, 2490)
  await payWithSandbox(ta, buyer, created.data.orderNo)
  await runJobs(ta)
  const [used] = await ta.database.db.select().from(userCoupons).where(eq(userCoupons.id, held.id))
  assert.equal(used.status, CouponStatus.used)
  assert.equal((await spaceInfo(ta, buyer)).quotaBytes, BASE_QUOTA_BYTES + 50 * GB)
  assert.equal(await applicable(2), undefined, 'a used coupon is no longer offered')
})
