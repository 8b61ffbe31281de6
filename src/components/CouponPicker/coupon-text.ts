/** How a coupon reads on the coupon pages and at checkout (SPEC 3: values via couponValueText). */
import {
  businessTypeLabels,
  couponScopeLabels,
  couponTypeLabels,
  CouponType,
  type BusinessType,
  type CouponScope,
} from '@/domain/enums'
import { couponScopes } from '@/domain/coupon'
import { fenToYuan, formatDate } from '@/domain/formatters'

interface CouponLike {
  couponType: number
  parValue: number
  conditionsUse: number | null
  businessType: number
  scopeApplications: string
  applicableObjects?: string | null
}

/** 满50元可用 / 无门槛 / 8.5折 … the condition in words. */
export function couponCondition(coupon: CouponLike): string {
  switch (coupon.couponType) {
    case CouponType.fullVolumeReduction:
      return `满${fenToYuan(coupon.conditionsUse ?? 0)}元可用`
    case CouponType.noThresholdRoll:
      return '无门槛'
    case CouponType.discountCoupon:
      return '按订单金额打折'
    case CouponType.firstRechargeCoupon:
      return '首次充值云豆可用'
    default:
      return ''
  }
}

/** 适用于云机 · 全业务 — what the coupon can buy. */
export function couponScopeText(coupon: CouponLike): string {
  const business = businessTypeLabels[coupon.businessType as BusinessType] ?? ''
  const scopes = couponScopes({ ...coupon, scopeApplication: null })
    .map((scope) => couponScopeLabels[scope as CouponScope])
    .filter(Boolean)
  return `适用于${business}${scopes.length ? ` · ${scopes.join('、')}` : ''}`
}

/** The type's name (满减券 …), empty for types without one. */
export const couponTypeName = (couponType: number) =>
  couponTypeLabels[couponType as CouponType] ?? ''

export const couponValidity = (validUntil: number) => `有效期至 ${formatDate(validUntil)}`
