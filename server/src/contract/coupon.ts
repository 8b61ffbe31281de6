import { Type, type Static } from '@sinclair/typebox'
import { QuoteBody } from './goods'
import { Nullable, PageQuery } from './common'

/** A coupon as the domain rules (src/domain/coupon.ts) and the coupon pages read it. */
export const UserCoupon = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** 1 满减, 2 无门槛, 3 折扣, 4 首充, 5 no value shown */
  couponType: Type.Integer(),
  /** Fen, or tenths for a discount coupon (85 = 8.5折). */
  parValue: Type.Integer(),
  conditionsUse: Nullable(Type.Integer()),
  businessType: Type.Integer(),
  scopeApplications: Type.String(),
  applicableObjects: Nullable(Type.String()),
  rules: Nullable(Type.Array(Type.Object({ type: Type.Integer(), objectData: Type.String() }))),
  effectiveScope: Nullable(Type.String()),
  /** 1 可使用, 2 已使用, 3 已过期, 4 已失效 (a coupon past its end counts as 3 at once). */
  status: Type.Integer({ minimum: 1, maximum: 4 }),
  validFrom: Type.Integer(),
  validUntil: Type.Integer(),
  issuedAt: Type.Integer(),
  usedAt: Nullable(Type.Integer()),
  /** Held by an unpaid order: usable again when that order is cancelled or times out. */
  locked: Type.Boolean(),
  /** Issued less than 3 days ago. */
  newArrival: Type.Boolean(),
  /** Usable and less than 3 days left. */
  expiringSoon: Type.Boolean(),
})
export type UserCoupon = Static<typeof UserCoupon>

export const CouponListQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 4, default: 1 })),
})
export type CouponListQuery = Static<typeof CouponListQuery>

export const CouponUsage = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  couponType: Type.Integer(),
  parValue: Type.Integer(),
  orderNo: Nullable(Type.String()),
  /** Fen taken off the order. */
  discount: Type.Integer(),
  usedAt: Type.Integer(),
})
export type CouponUsage = Static<typeof CouponUsage>

/** The purchase being priced: the same body as /CommodityGroup/getGoodPrice. */
export const ApplicableCouponsBody = QuoteBody
export type ApplicableCouponsBody = Static<typeof ApplicableCouponsBody>

export const ApplicableCoupon = Type.Intersect([
  UserCoupon,
  Type.Object({
    usable: Type.Boolean(),
    /** Why it cannot be used on this purchase (所购买商品不在适用范围内, 距离可用门槛还差…元, 已被其他订单占用). */
    reason: Nullable(Type.String()),
    /** Fen it would take off this purchase (0 when not usable). */
    discount: Type.Integer(),
  }),
])
export type ApplicableCoupon = Static<typeof ApplicableCoupon>

/** The purchase as the coupon rules see it (src/domain/coupon.ts CouponGoods), bought `number` times. */
export const CouponGoodsInfo = Type.Object({
  goodId: Nullable(Type.Integer()),
  configId: Nullable(Type.Integer()),
  id: Nullable(Type.Integer()),
  goodTime: Nullable(Type.Integer()),
  goodPrice: Type.Integer(),
  oldPrice: Nullable(Type.Integer()),
  firstCount: Nullable(Type.Integer()),
  activityId: Nullable(Type.Integer()),
  firstPurchase: Type.Boolean(),
  /** A bean recharge with no earlier paid recharge of the buyer (a 首充券 needs it). */
  firstRecharge: Type.Boolean(),
})
export type CouponGoodsInfo = Static<typeof CouponGoodsInfo>

export const ApplicableCoupons = Type.Object({
  /** The price before any coupon, in fen. */
  total: Type.Integer(),
  businessType: Type.Integer(),
  goods: CouponGoodsInfo,
  number: Type.Integer(),
  coupons: Type.Array(ApplicableCoupon),
})
export type ApplicableCoupons = Static<typeof ApplicableCoupons>
