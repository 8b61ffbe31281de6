/** A held coupon as the rules see it: its status now, how it is shown, and whether it fits an order. */
import {
  COUPON_NOT_APPLICABLE,
  checkCoupon,
  couponDiscount,
  type Coupon,
  type CouponCheck,
} from '#domain/coupon'
import { CouponStatus } from '#domain/enums'
import { DAY_MS } from '#domain/pricing'
import type { CouponGoodsInfo, UserCoupon } from '../../contract/coupon'
import { couponTemplates, userCoupons } from '../../db/schema'
import type { OrderDraft } from '../orders/order-draft'

/** New-arrival and expiring-soon markers: issued, or ending, within this window. */
export const COUPON_MARKER_MS = 3 * DAY_MS

export const COUPON_NOT_FOUND = '优惠券不存在'
export const COUPON_USED = '优惠券已使用'
export const COUPON_EXPIRED = '优惠券已过期'
export const COUPON_INVALID = '优惠券已失效'
export const COUPON_NOT_STARTED = '优惠券尚未生效'
export const COUPON_LOCKED = '优惠券已被其他待支付订单占用，请取消该订单后再用'

type TemplateRow = typeof couponTemplates.$inferSelect
type CouponRow = typeof userCoupons.$inferSelect

/**
 * The columns a held coupon is shown with (view), for a list to read only these: a page of whole rows
 * of both tables cost the coupon list a fifth more of the server's time per call.
 */
export const shownCoupon = {
  coupon: {
    id: userCoupons.id,
    status: userCoupons.status,
    validFrom: userCoupons.validFrom,
    validUntil: userCoupons.validUntil,
    issuedAt: userCoupons.issuedAt,
    usedAt: userCoupons.usedAt,
    lockedOrderId: userCoupons.lockedOrderId,
  },
  template: {
    name: couponTemplates.name,
    couponType: couponTemplates.couponType,
    parValue: couponTemplates.parValue,
    conditionsUse: couponTemplates.conditionsUse,
    businessType: couponTemplates.businessType,
    scopeApplications: couponTemplates.scopeApplications,
    applicableObjects: couponTemplates.applicableObjects,
    rules: couponTemplates.rules,
    effectiveScope: couponTemplates.effectiveScope,
  },
}
type Shown = {
  coupon: Pick<CouponRow, keyof typeof shownCoupon.coupon>
  template: Pick<TemplateRow, keyof typeof shownCoupon.template>
}

/** The template's rule fields in the shape src/domain/coupon.ts checks (and the pages show). */
const ruleFields = (template: Shown['template']) => ({
  couponType: template.couponType,
  parValue: template.parValue,
  conditionsUse: template.conditionsUse,
  businessType: template.businessType,
  scopeApplications: template.scopeApplications,
  applicableObjects: template.applicableObjects,
  rules: template.rules,
  effectiveScope: template.effectiveScope,
})
const asDomainCoupon = (template: TemplateRow): Coupon => ruleFields(template)

/** A usable coupon whose end has passed reads as expired even before the expiry job flips it. */
export const statusAt = (coupon: Pick<CouponRow, 'status' | 'validUntil'>, now: number) =>
  coupon.status === CouponStatus.efficient && coupon.validUntil.getTime() <= now
    ? CouponStatus.expired
    : coupon.status

export function view({ coupon, template }: Shown, now: number): UserCoupon {
  const status = statusAt(coupon, now)
  return {
    id: coupon.id,
    name: template.name,
    ...ruleFields(template),
    status,
    validFrom: coupon.validFrom.getTime(),
    validUntil: coupon.validUntil.getTime(),
    issuedAt: coupon.issuedAt.getTime(),
    usedAt: coupon.usedAt?.getTime() ?? null,
    locked: coupon.lockedOrderId != null,
    newArrival: now - coupon.issuedAt.getTime() < COUPON_MARKER_MS,
    expiringSoon:
      status === CouponStatus.efficient && coupon.validUntil.getTime() - now < COUPON_MARKER_MS,
  }
}

/**
 * The coupon rules on a priced order: the shared checkCoupon, and the order's business type must be
 * the coupon's (a first-recharge coupon, business type 3, applies only to bean recharges). The discount leaves
 * at least 1 fen to pay, since a zero-amount order cannot be paid.
 */
export function checkOnOrder(
  template: TemplateRow,
  draft: Pick<OrderDraft, 'businessType'>,
  info: CouponGoodsInfo,
): CouponCheck & { discount: number } {
  if (template.businessType !== draft.businessType) {
    return { usable: false, reason: COUPON_NOT_APPLICABLE, discount: 0 }
  }
  const coupon = asDomainCoupon(template)
  const check = checkCoupon(coupon, info, 1)
  if (!check.usable) return { ...check, discount: 0 }
  const discount = Math.min(couponDiscount(coupon, info, 1), Math.max(0, info.goodPrice - 1))
  return { usable: true, discount }
}

/** Why a held coupon cannot be put on a new order now, or null. */
export function holdRefusal(coupon: CouponRow, now: number): string | null {
  if (coupon.status === CouponStatus.used) return COUPON_USED
  if (coupon.status === CouponStatus.invalid) return COUPON_INVALID
  if (statusAt(coupon, now) === CouponStatus.expired) return COUPON_EXPIRED
  if (coupon.validFrom.getTime() > now) return COUPON_NOT_STARTED
  if (coupon.lockedOrderId != null) return COUPON_LOCKED
  return null
}
