import { BusinessType } from '#domain/enums'
import { ResultCode } from '#domain/result-codes'
import type { SpacePackage } from '../../contract/space'
import { BizError } from '../../domain/biz-error'
import { emptyDraft, type OrderDraft } from '../orders/order-draft'

const GB = 1024 ** 3

/** The space packages on sale (price in fen): bytes more quota for `days` days from payment. */
export const SPACE_PACKAGES: readonly SpacePackage[] = [
  { id: 1, bytes: 10 * GB, days: 30, price: 990 },
  { id: 2, bytes: 50 * GB, days: 30, price: 2990 },
  { id: 3, bytes: 100 * GB, days: 90, price: 9900 },
]

/** What a space order keeps in its detail for fulfilment. */
export interface SpaceOrderDetail {
  space: { packageId: number; bytes: number; days: number }
}

/**
 * A cloud-space order (business type 4) priced before any coupon: the order call and the quote
 * (/CommodityGroup/getGoodPrice and /coupon/applicable, kind 'cloudSpace') price it the same way.
 */
export function spaceDraft(packageId: number): OrderDraft & { detail: SpaceOrderDetail } {
  const pack = SPACE_PACKAGES.find((p) => p.id === packageId)
  if (!pack) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '云空间套餐不存在')
  const label = `云空间 ${pack.bytes / GB}GB（${pack.days}天）`
  return {
    ...emptyDraft('cloudSpace', BusinessType.cloudSpace),
    amount: pack.price,
    originalAmount: pack.price,
    lines: [{ label, unitPrice: pack.price, quantity: 1, amount: pack.price }],
    detail: { space: { packageId: pack.id, bytes: pack.bytes, days: pack.days } },
  }
}
