import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { beanLedger, orders } from '../../src/db/schema'
import { RECHARGE_PACKAGES } from '../../src/services/wallet/wallet-service'
import {
  GOODS,
  cancelOrder,
  commerceApp,
  newBuyer,
  newKey,
  orderInfo,
  payWithSandbox,
  priceOf,
  quote,
  runJobs,
} from '../helpers/commerce'
import {
  FIRST_RECHARGE,
  applicableCoupons,
  couponRow,
  heldCouponId,
  orderWithCoupon,
} from '../helpers/coupons'
import { post, type Session, type TestApp } from '../helpers/test-app'
import type { OrderInfo } from '../../src/contract/order'

const price = (packageId: number) => RECHARGE_PACKAGES.find((p) => p.id === packageId)!.price

const firstRechargeCoupon = (ta: TestApp, buyer: Session) => heldCouponId(ta, buyer, FIRST_RECHARGE)

function recharge(
  ta: TestApp,
  buyer: Session,
  input: { packageId: number; expectedAmount: number; couponId?: number },
) {
  return post<OrderInfo>(
    ta.app,
    '/order/createRechargeOrder',
    { ...input, idempotencyKey: newKey() },
    buyer,
  )
}

async function applicableFor(ta: TestApp, buyer: Session, body: Record<string, unknown>) {
  const { coupons } = await applicableCoupons(ta, buyer, body)
  return (
    coupons as {
      name: string
      usable: boolean
      reason: string | null
      discount: number
    }[]
  ).find((c) => c.name === FIRST_RECHARGE)!
}

test('a 首充券 on the first bean recharge: quoted, charged 3 元 less, used on payment, full beans credited', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const id = await firstRechargeCoupon(ta, buyer)

  const quoted = await applicableFor(ta, buyer, { kind: 'recharge', packageId: 2 })
  assert.deepEqual([quoted.usable, quoted.discount, quoted.reason], [true, 300, null])
  const small = await applicableFor(ta, buyer, { kind: 'recharge', packageId: 1 })
  assert.deepEqual([small.usable, small.reason], [false, '距离可用门槛还差24.00元'])

  const created = await recharge(ta, buyer, {
    packageId: 2,
    couponId: id,
    expectedAmount: price(2) - 300,
  })
  assert.equal(created.code, 200, created.msg)
  assert.equal(created.data.amount, price(2) - 300)
  assert.deepEqual(created.data.lines.at(-1), {
    label: `优惠券：${FIRST_RECHARGE}`,
    unitPrice: -300,
    quantity: 1,
    amount: -300,
  })
  const [order] = await ta.database.db
    .select()
    .from(orders)
    .where(eq(orders.orderNo, created.data.orderNo))
  assert.equal((await couponRow(ta, id)).lockedOrderId, order.id)

  await payWithSandbox(ta, buyer, created.data.orderNo)
  assert.equal((await orderInfo(ta, buyer, created.data.orderNo)).status, 2)
  const used = await couponRow(ta, id)
  assert.deepEqual([used.status, used.usedOrderId, used.discount], [2, order.id, 300])
  const credited = await ta.database.db
    .select()
    .from(beanLedger)
    .where(eq(beanLedger.userId, buyer.userId))
  assert.deepEqual(
    credited.map((row) => row.change),
    [3300],
    'the package beans and bonus, whatever was paid',
  )
})

test('a 首充券 on a phone order is refused with the rule message and nothing is created', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const id = await firstRechargeCoupon(ta, buyer)
  const body = {
    kind: 'new',
    goodId: GOODS.enjoyB,
    priceId: priceOf(GOODS.enjoyB, 30),
    quantity: 1,
  }
  const shown = await applicableFor(ta, buyer, body)
  assert.deepEqual([shown.usable, shown.reason], [false, '所购买商品不在适用范围内'])
  const { total } = await quote(ta, buyer, body)
  const refused = await orderWithCoupon(ta, buyer, { couponId: id, expectedAmount: total - 300 })
  assert.notEqual(refused.code, 200)
  assert.equal(refused.msg, '所购买商品不在适用范围内')
  const mine = await ta.database.db.select().from(orders).where(eq(orders.userId, buyer.userId))
  assert.equal(mine.length, 0)
  assert.deepEqual(
    [(await couponRow(ta, id)).status, (await couponRow(ta, id)).lockedOrderId],
    [1, null],
  )
})

test('after a paid recharge the 首充券 is refused with 仅限首次充值使用', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const id = await firstRechargeCoupon(ta, buyer)
  const first = await recharge(ta, buyer, { packageId: 1, expectedAmount: price(1) })
  assert.equal(first.code, 200, first.msg)
  // An unpaid recharge does not count: the coupon still applies.
  assert.equal((await applicableFor(ta, buyer, { kind: 'recharge', packageId: 2 })).usable, true)
  await payWithSandbox(ta, buyer, first.data.orderNo)

  const shown = await applicableFor(ta, buyer, { kind: 'recharge', packageId: 2 })
  assert.deepEqual([shown.usable, shown.reason], [false, '仅限首次充值使用'])
  const second = await recharge(ta, buyer, {
    packageId: 2,
    couponId: id,
    expectedAmount: price(2) - 300,
  })
  assert.notEqual(second.code, 200)
  assert.equal(second.msg, '仅限首次充值使用')
  const mine = await ta.database.db.select().from(orders).where(eq(orders.userId, buyer.userId))
  assert.equal(mine.length, 1, 'no second order')
  assert.equal((await couponRow(ta, id)).lockedOrderId, null)
})

test('cancelling or timing out a recharge frees its 首充券', async (t) => {
  const ta = await commerceApp(t)
  await ta.app.jobs.ensureRecurring()
  const buyer = await newBuyer(ta)
  const id = await firstRechargeCoupon(ta, buyer)
  const withCoupon = { packageId: 2, couponId: id, expectedAmount: price(2) - 300 }

  const first = await recharge(ta, buyer, withCoupon)
  assert.equal(first.code, 200, first.msg)
  assert.equal((await recharge(ta, buyer, withCoupon)).code, 1080, 'held by the first')
  await cancelOrder(ta, buyer, first.data.orderNo)
  assert.deepEqual(
    [(await couponRow(ta, id)).status, (await couponRow(ta, id)).lockedOrderId],
    [1, null],
  )

  const second = await recharge(ta, buyer, withCoupon)
  assert.equal(second.code, 200, second.msg)
  ta.clock.advance(16 * 60_000)
  await runJobs(ta)
  assert.equal((await orderInfo(ta, buyer, second.data.orderNo)).status, 4)
  assert.deepEqual(
    [(await couponRow(ta, id)).status, (await couponRow(ta, id)).lockedOrderId],
    [1, null],
  )
})
