import { BusinessType } from '#domain/enums'
import { ResultCode } from '#domain/result-codes'
import type { RechargePackage } from '../../contract/wallet'
import { BizError } from '../../domain/biz-error'
import { emptyDraft, type OrderDraft } from '../orders/order-draft'

/** The recharge packages on sale (price in fen; one bean per fen, plus a bonus on the larger ones). */
export const RECHARGE_PACKAGES: readonly RechargePackage[] = [
  { id: 1, price: 600, beans: 600, bonus: 0 },
  { id: 2, price: 3000, beans: 3000, bonus: 300 },
  { id: 3, price: 9800, beans: 9800, bonus: 1500 },
  { id: 4, price: 19800, beans: 19800, bonus: 4000 },
  { id: 5, price: 49800, beans: 49800, bonus: 12000 },
]

/** What a recharge order keeps in its detail for fulfilment. */
export interface RechargeDetail {
  recharge: { packageId: number; beans: number; bonus: number }
}

/**
 * A bean recharge (business type 3) priced before any coupon: the order call and the quote
 * (/CommodityGroup/getGoodPrice and /coupon/applicable, kind 'recharge') price it the same way.
 */
export function rechargeDraft(packageId: number): OrderDraft & { detail: RechargeDetail } {
  const pack = RECHARGE_PACKAGES.find((p) => p.id === packageId)
  if (!pack) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '充值套餐不存在')
  const label = pack.bonus > 0 ? `${pack.beans}云豆（赠送${pack.bonus}云豆）` : `${pack.beans}云豆`
  return {
    ...emptyDraft('beanRecharge', BusinessType.cloudBeans),
    amount: pack.price,
    originalAmount: pack.price,
    lines: [{ label, unitPrice: pack.price, quantity: 1, amount: pack.price }],
    detail: { recharge: { packageId: pack.id, beans: pack.beans, bonus: pack.bonus } },
  }
}
