/** The coupons a buyer holds and spends, read through the routes the pages call. */
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import { userCoupons } from '../../src/db/schema'
import type { PagedData } from '../../src/contract/common'
import type { ApplicableCoupons, UserCoupon } from '../../src/contract/coupon'
import type { OrderInfo } from '../../src/contract/order'
import { GOODS, ZONES, newKey, priceOf } from './commerce'
import { get, post, type Session, type TestApp } from './test-app'

/** The 首充券 every new account gets (server/src/db/seed/coupon.ts): 3 元 off a recharge of 30 元 or more. */
export const FIRST_RECHARGE = '首充立减3元'

/** 我的优惠券 in one status (1 usable, 2 used, 3 expired), up to 50. */
export async function heldCoupons(ta: TestApp, session: Session, status = 1) {
  const reply = await get<PagedData<UserCoupon>>(ta.app, '/coupon/list', session, {
    status: String(status),
    rows: '50',
  })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data.records as {
    id: number
    name: string
    status: number
    locked: boolean
    newArrival: boolean
    expiringSoon: boolean
  }[]
}

/** The id of the usable coupon named `name` the user holds; fails the test if there is none. */
export async function heldCouponId(ta: TestApp, session: Session, name: string) {
  const found = (await heldCoupons(ta, session)).find((c) => c.name === name)
  assert.ok(found, `holds ${name}`)
  return found.id
}

/** A held coupon's row as stored (status, the order it is locked to). */
export async function couponRow(ta: TestApp, id: number) {
  const [row] = await ta.database.db.select().from(userCoupons).where(eq(userCoupons.id, id))
  return row
}

/** What the order page's coupon picker is told for a quote body. */
export async function applicableCoupons(
  ta: TestApp,
  session: Session,
  body: Record<string, unknown>,
) {
  const reply = await post<ApplicableCoupons>(ta.app, '/coupon/applicable', body, session)
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

/** A new-phone order (enjoyB for 30 days in Shanghai unless given) paying `expectedAmount` with a coupon. */
export function orderWithCoupon(
  ta: TestApp,
  session: Session,
  input: {
    couponId?: number
    goodId?: number
    quantity?: number
    expectedAmount: number
    key?: string
  },
) {
  const goodId = input.goodId ?? GOODS.enjoyB
  return post<OrderInfo>(
    ta.app,
    '/order/createCloudOrder',
    {
      goodId,
      priceId: priceOf(goodId, 30),
      zoneId: ZONES.shanghai,
      quantity: input.quantity ?? 1,
      expectedAmount: input.expectedAmount,
      idempotencyKey: input.key ?? newKey(),
      couponId: input.couponId,
    },
    session,
  )
}
