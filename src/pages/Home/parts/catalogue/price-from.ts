/** What a goods card shows as its price: the 30-day price, else the cheapest per day. */
import type { GoodsPrice } from '@/types/api'
import { dailyPrice, unitPrice } from '@/domain/pricing'

export const HEADLINE_DAYS = 30

export interface PriceFrom {
  price: GoodsPrice
  /** what one unit costs now (activity price while it runs) */
  current: number
  /** struck-through price, when higher than `current` */
  old: number | null
}

export function priceFrom(prices: GoodsPrice[], now: number): PriceFrom | null {
  if (prices.length === 0) return null
  const price =
    prices.find((p) => p.goodTime === HEADLINE_DAYS) ??
    [...prices].sort((a, b) => dailyPrice(a) - dailyPrice(b))[0]
  const current = unitPrice(price, { firstPurchaseEligible: false, now })
  const old = Math.max(price.oldGoodPrice ?? 0, price.goodPrice)
  return { price, current, old: old > current ? old : null }
}

/** Badges of a goods: a first-purchase price on any duration, an activity running on any. */
export function goodsBadges(prices: GoodsPrice[]): string[] {
  const badges: string[] = []
  if (prices.some((p) => p.firstPurchasePrice != null && p.firstCount > 0)) badges.push('首购优惠')
  if (prices.some((p) => p.activityRunning)) badges.push('限时活动')
  return badges
}
