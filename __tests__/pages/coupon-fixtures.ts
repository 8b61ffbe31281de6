/** /coupon/applicable answers for page tests. */
import type { ApplicableCoupons } from '@/types/api'

type ApplicableCoupon = ApplicableCoupons['coupons'][number]

/** A coupon the buyer holds as /coupon/applicable returns it (usable, 5 元 off, unless overridden). */
export const heldCoupon = (over: Partial<ApplicableCoupon>): ApplicableCoupon => ({
  id: 1,
  name: '新人无门槛券',
  couponType: 2,
  parValue: 500,
  conditionsUse: null,
  businessType: 1,
  scopeApplications: '1',
  applicableObjects: null,
  rules: null,
  effectiveScope: null,
  status: 1,
  validFrom: 0,
  validUntil: Date.UTC(2026, 2, 31, 4),
  issuedAt: 0,
  usedAt: null,
  locked: false,
  newArrival: true,
  expiringSoon: false,
  usable: true,
  reason: null,
  discount: 500,
  ...over,
})

/** The answer for one unit of `total` fen (a cloud phone unless `businessType`/`goods` say otherwise). */
export const applicableCoupons = (input: {
  total: number
  businessType?: number
  goods?: Partial<ApplicableCoupons['goods']>
  coupons?: ApplicableCoupon[]
}): ApplicableCoupons => ({
  total: input.total,
  businessType: input.businessType ?? 1,
  goods: {
    goodId: 1,
    configId: 1,
    id: 11,
    goodTime: 30,
    goodPrice: input.total,
    oldPrice: null,
    firstCount: 0,
    activityId: null,
    firstPurchase: false,
    firstRecharge: false,
    ...input.goods,
  },
  number: 1,
  coupons: input.coupons ?? [],
})

/** The goods info of a purchase that is not a cloud phone (bean recharge, cloud space). */
export const packageGoods = (total: number, firstRecharge: boolean) => ({
  goodId: null,
  configId: null,
  id: null,
  goodTime: null,
  oldPrice: total,
  firstCount: null,
  firstRecharge,
})
