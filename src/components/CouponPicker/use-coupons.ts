import { useEffect, useState } from 'react'
import type { ApplicableCoupons, Quote, QuoteBody } from '@/types/api'
import { pickBestCoupon } from '@/domain/coupon'
import { getApplicableCoupons } from '@/api/coupon'

/** The quote with the chosen coupon taken off, as a line of its own (what the order will charge). */
export function applyCoupon(
  quote: Quote | null,
  coupon: { name: string; discount: number } | null,
): Quote | null {
  if (!quote || !coupon || coupon.discount <= 0) return quote
  return {
    ...quote,
    total: quote.total - coupon.discount,
    lines: [
      ...quote.lines,
      {
        label: `优惠券：${coupon.name}`,
        unitPrice: -coupon.discount,
        quantity: 1,
        amount: -coupon.discount,
      },
    ],
  }
}

/** The best usable coupon by the shared rule (pickBestCoupon on the goods the server checked). */
export function bestCouponId(result: ApplicableCoupons): number | null {
  const usable = result.coupons.filter((coupon) => coupon.usable)
  return pickBestCoupon(usable, result.goods, result.number)?.id ?? null
}

/**
 * The buyer's coupons against the purchase being quoted (null body or logged out: none). The best one
 * is preselected whenever the purchase changes; `select(null)` means 不使用优惠券.
 */
export function useCoupons(body: QuoteBody | null) {
  const [result, setResult] = useState<ApplicableCoupons | null>(null)
  const [selectedId, setSelectedId] = useState<number | null>(null)
  const key = body ? JSON.stringify(body) : ''

  useEffect(() => {
    setResult(null)
    setSelectedId(null)
    if (!key) return undefined
    let current = true
    getApplicableCoupons(JSON.parse(key) as QuoteBody, { loading: false })
      .then((found) => {
        if (!current) return
        setResult(found)
        setSelectedId(bestCouponId(found))
      })
      // without the list the purchase goes on without a coupon
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [key])

  const selected = result?.coupons.find((coupon) => coupon.id === selectedId && coupon.usable)
  /** the coupon's discount applies only to the quote it was computed for */
  const applyTo = (quote: Quote | null) =>
    quote && result && quote.total === result.total ? applyCoupon(quote, selected ?? null) : quote
  return {
    result,
    selected: selected ?? null,
    select: setSelectedId,
    applyTo,
    /** what the order call carries: the amount shown (after the coupon) and the coupon */
    orderFields: (quote: Quote) => {
      const charged = applyTo(quote) as Quote
      return {
        expectedAmount: charged.total,
        couponId: charged !== quote ? selected?.id : undefined,
      }
    },
  }
}
