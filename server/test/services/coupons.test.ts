import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq } from 'drizzle-orm'
import { orders, userCoupons } from '../../src/db/schema'
import {
  COUPON_EXPIRED,
  COUPON_LOCKED,
  COUPON_NOT_FOUND,
  COUPON_USED,
} from '../../src/services/coupons/coupon-rules'
import {
  GOODS,
  ZONES,
  cancelOrder,
  commerceApp,
  newBuyer,
  orderInfo,
  payWithSandbox,
  priceOf,
  quote,
  runJobs,
  stockOf,
} from '../helpers/commerce'
import {
  FIRST_RECHARGE,
  applicableCoupons,
  couponRow,
  heldCouponId,
  heldCoupons,
  orderWithCoupon,
} from '../helpers/coupons'
import { get, type Session, type TestApp } from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { CouponUsage, UserCoupon } from '../../src/contract/coupon'

const DAY = 86_400_000
/** Seeded welcome templates (server/src/db/seed/coupon.ts). */
const NO_THRESHOLD = '新人无门槛券'
const FULL_REDUCTION = '新人满减券'
const FLAGSHIP_DISCOUNT = '旗舰版新人折扣券'

async function orderCount(ta: TestApp, session: Session) {
  return (await ta.database.db.select().from(orders).where(eq(orders.userId, session.userId)))
    .length
}

const enjoyMonth = { kind: 'new', goodId: GOODS.enjoyB, priceId: priceOf(GOODS.enjoyB, 30) }

test('a new account holds the 新人券 set, marked new, and the short one is marked expiring near its end', async (t) => {
  const ta = await commerceApp(t)
  await ta.app.jobs.ensureRecurring()
  const buyer = await newBuyer(ta)
  const held = await heldCoupons(ta, buyer)
  assert.deepEqual(
    held.map((c) => c.name).sort(),
    [FLAGSHIP_DISCOUNT, NO_THRESHOLD, FULL_REDUCTION, FIRST_RECHARGE].sort(),
  )
  assert.ok(held.every((c) => c.newArrival && !c.expiringSoon && c.status === 1))

  ta.clock.advance(13 * DAY)
  const later = await heldCoupons(ta, buyer)
  assert.ok(later.every((c) => !c.newArrival))
  assert.deepEqual(
    later.filter((c) => c.expiringSoon).map((c) => c.name),
    [FLAGSHIP_DISCOUNT],
  )

  ta.clock.advance(3 * DAY)
  assert.deepEqual(
    (await heldCoupons(ta, buyer, 3)).map((c) => c.name),
    [FLAGSHIP_DISCOUNT],
  )
  assert.equal((await heldCoupons(ta, buyer)).length, 3)
  // the total comes with the page, and with a page past the end
  for (const page of ['1', '5']) {
    const reply = await get<PagedData<UserCoupon>>(ta.app, '/coupon/list', buyer, {
      status: '1',
      rows: '2',
      page,
    })
    assert.deepEqual([reply.data.records.length, reply.data.total], [page === '1' ? 2 : 0, 3])
  }
  await runJobs(ta)
  const [row] = await ta.database.db
    .select()
    .from(userCoupons)
    .where(and(eq(userCoupons.userId, buyer.userId), eq(userCoupons.status, 3)))
  assert.ok(row, 'the expiry job stored status 3')
})

test("applicable coupons: usable with the discount, or the shared rule's reason", async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const result = await applicableCoupons(ta, buyer, { ...enjoyMonth, quantity: 1 })
  assert.equal(result.total, 1500)
  const byName = Object.fromEntries(result.coupons.map((c) => [c.name, c]))
  assert.deepEqual(byName[NO_THRESHOLD], {
    ...byName[NO_THRESHOLD],
    usable: true,
    discount: 500,
    reason: null,
  })
  assert.equal(byName[FULL_REDUCTION].usable, false)
  assert.equal(byName[FULL_REDUCTION].reason, '距离可用门槛还差35.00元')
  assert.equal(byName[FLAGSHIP_DISCOUNT].reason, '所购买商品不在适用范围内')

  const flagship = await applicableCoupons(ta, buyer, {
    kind: 'new',
    goodId: GOODS.flagshipB,
    priceId: priceOf(GOODS.flagshipB, 30),
    quantity: 1,
  })
  const discount = flagship.coupons.find((c) => c.name === FLAGSHIP_DISCOUNT)!
  assert.equal(discount.usable, true)
  assert.equal(discount.discount, Math.round((flagship.total * 15) / 100))
})

test('an order with a coupon charges the discounted price, holds the coupon, and payment uses it', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const id = await heldCouponId(ta, buyer, NO_THRESHOLD)
  const { total } = await quote(ta, buyer, { ...enjoyMonth, quantity: 1 })
  const created = await orderWithCoupon(ta, buyer, { couponId: id, expectedAmount: total - 500 })
  assert.equal(created.code, 200, created.msg)
  assert.equal(created.data.amount, total - 500)
  assert.deepEqual(created.data.lines.at(-1), {
    label: `优惠券：${NO_THRESHOLD}`,
    unitPrice: -500,
    quantity: 1,
    amount: -500,
  })
  assert.equal((await heldCoupons(ta, buyer)).find((c) => c.id === id)?.locked, true)

  await payWithSandbox(ta, buyer, created.data.orderNo)
  assert.equal((await orderInfo(ta, buyer, created.data.orderNo)).status, 2)
  assert.deepEqual(
    (await heldCoupons(ta, buyer, 2)).map((c) => c.id),
    [id],
  )
  const usage = await get<PagedData<CouponUsage>>(ta.app, '/coupon/usage', buyer, {})
  assert.equal(usage.code, 200, usage.msg)
  assert.equal(usage.data.records.length, 1)
  assert.equal(usage.data.records[0].orderNo, created.data.orderNo)
  assert.equal(usage.data.records[0].discount, 500)

  const again = await orderWithCoupon(ta, buyer, { couponId: id, expectedAmount: 2990 - 500 })
  assert.equal(again.msg, COUPON_USED)
})

test('a coupon cannot be on two orders at once; cancelling frees it for the next order', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const id = await heldCouponId(ta, buyer, NO_THRESHOLD)
  const first = await orderWithCoupon(ta, buyer, { couponId: id, expectedAmount: 1500 - 500 })
  assert.equal(first.code, 200, first.msg)

  const stock = await stockOf(ta, GOODS.enjoyB, ZONES.shanghai)
  const orderCountBefore = await orderCount(ta, buyer)
  // The first order is unpaid, so the second is not a first purchase: 2990.
  const second = await orderWithCoupon(ta, buyer, { couponId: id, expectedAmount: 2990 - 500 })
  assert.equal(second.code, 1080)
  assert.equal(second.msg, COUPON_LOCKED)
  assert.equal(await orderCount(ta, buyer), orderCountBefore, 'no second order')
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), stock, 'stock untouched')

  await cancelOrder(ta, buyer, first.data.orderNo)
  const freed = await couponRow(ta, id)
  assert.equal(freed.status, 1)
  assert.equal(freed.lockedOrderId, null)

  const third = await orderWithCoupon(ta, buyer, { couponId: id, expectedAmount: 1500 - 500 })
  assert.equal(third.code, 200, third.msg)
  assert.equal(
    (await couponRow(ta, id)).lockedOrderId,
    (await ta.database.db.select().from(orders).where(eq(orders.orderNo, third.data.orderNo)))[0]
      .id,
  )
})

test('a timed-out order frees its coupon', async (t) => {
  const ta = await commerceApp(t)
  await ta.app.jobs.ensureRecurring()
  const buyer = await newBuyer(ta)
  const id = await heldCouponId(ta, buyer, NO_THRESHOLD)
  const order = await orderWithCoupon(ta, buyer, { couponId: id, expectedAmount: 1000 })
  assert.equal(order.code, 200, order.msg)
  ta.clock.advance(16 * 60_000)
  await runJobs(ta)
  assert.equal((await orderInfo(ta, buyer, order.data.orderNo)).status, 4)
  const freed = await couponRow(ta, id)
  assert.deepEqual([freed.status, freed.lockedOrderId], [1, null])
})

test('concurrent orders with one coupon: exactly one gets it', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const id = await heldCouponId(ta, buyer, NO_THRESHOLD)
  const replies = await Promise.all(
    Array.from({ length: 6 }, () =>
      orderWithCoupon(ta, buyer, { couponId: id, quantity: 2, expectedAmount: 1500 + 2990 - 500 }),
    ),
  )
  const won = replies.filter((r) => r.code === 200)
  assert.equal(won.length, 1, replies.map((r) => r.msg).join(','))
  for (const lost of replies.filter((r) => r.code !== 200)) assert.equal(lost.msg, COUPON_LOCKED)
  assert.equal(await orderCount(ta, buyer), 1)
})

test('every refusal is a clear message and changes nothing', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const other = await newBuyer(ta)
  const stock = await stockOf(ta, GOODS.enjoyB, ZONES.shanghai)
  const mine = await heldCouponId(ta, buyer, NO_THRESHOLD)
  const theirs = await heldCouponId(ta, other, NO_THRESHOLD)
  const cases: [string, Parameters<typeof orderWithCoupon>[2], string][] = [
    ["someone else's coupon", { couponId: theirs, expectedAmount: 1000 }, COUPON_NOT_FOUND],
    ['a coupon that does not exist', { couponId: 999_999, expectedAmount: 1000 }, COUPON_NOT_FOUND],
    [
      'below the threshold',
      { couponId: await heldCouponId(ta, buyer, FULL_REDUCTION), expectedAmount: 500 },
      '距离可用门槛还差35.00元',
    ],
    [
      'out of scope',
      { couponId: await heldCouponId(ta, buyer, FLAGSHIP_DISCOUNT), expectedAmount: 1275 },
      '所购买商品不在适用范围内',
    ],
    [
      'the undiscounted price shown',
      { couponId: mine, expectedAmount: 1500 },
      '订单价格已变化，请刷新后重新下单',
    ],
  ]
  for (const [what, input, msg] of cases) {
    const reply = await orderWithCoupon(ta, buyer, input)
    assert.equal(reply.msg, msg, what)
  }
  // A coupon of another business (upgrades) on a new phone.
  const [upgradeCoupon] = await ta.database.db
    .insert(userCoupons)
    .values({
      userId: buyer.userId,
      templateId: 4,
      validFrom: ta.clock.now(),
      validUntil: new Date(ta.clock.now().getTime() + DAY),
      issuedAt: ta.clock.now(),
    })
    .returning()
  const wrongBusiness = await orderWithCoupon(ta, buyer, {
    couponId: upgradeCoupon.id,
    expectedAmount: 1200,
  })
  assert.equal(wrongBusiness.msg, '所购买商品不在适用范围内')

  await ta.database.db
    .update(userCoupons)
    .set({ validUntil: ta.clock.now() })
    .where(eq(userCoupons.id, mine))
  const expired = await orderWithCoupon(ta, buyer, { couponId: mine, expectedAmount: 1000 })
  assert.equal(expired.msg, COUPON_EXPIRED)

  assert.equal(await orderCount(ta, buyer), 0)
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), stock)
  assert.equal((await couponRow(ta, mine)).lockedOrderId, null)
})

test('coupon calls need a login', async (t) => {
  const ta = await commerceApp(t)
  const reply = await get<PagedData<UserCoupon>>(ta.app, '/coupon/list', undefined, {})
  assert.notEqual(reply.code, 200)
})

test('a negative or fractional couponId is refused before anything is created', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  for (const couponId of [-1, 0, 1.5]) {
    const reply = await orderWithCoupon(ta, buyer, { couponId, expectedAmount: 1000 })
    assert.notEqual(reply.code, 200, `couponId ${couponId}`)
  }
  assert.equal(await orderCount(ta, buyer), 0)
  assert.ok((await heldCoupons(ta, buyer)).every((c) => !c.locked))
})
