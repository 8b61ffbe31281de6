/** Coupon calls (docs/coupons.md). */
import type { ApplicableCoupons, CouponUsage, QuoteBody, UserCoupon } from '@/types/api'
import { client } from '@/runtime/request'
import type { RequestOptions } from '@/runtime/request-types'

/** One status (1 可使用, 2 已使用, 3 已过期, 4 已失效); usable ones ending soonest first. */
export const listCoupons = (page: number, status: number, rows?: number) =>
  client.fetchPage<UserCoupon>({ url: '/coupon/list', page, rows, params: { status } })

/** Used coupons with their order and discount, newest first. */
export const listCouponUsage = (page: number, rows?: number) =>
  client.fetchPage<CouponUsage>({ url: '/coupon/usage', page, rows })

/** The caller's coupons against a purchase (the quote body): usable or why not, and the discount. */
export const getApplicableCoupons = async (
  body: QuoteBody,
  options?: Pick<RequestOptions, 'loading'>,
) => (await client.post<ApplicableCoupons>('/coupon/applicable', body, options)).data

export const couponApi = { listCoupons, listCouponUsage, getApplicableCoupons }
export type CouponApi = typeof couponApi
