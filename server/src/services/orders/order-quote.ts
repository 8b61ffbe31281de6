/** Pricing a quote body as an order would be, and the coupon's line on a priced order. */
import { ResultCode } from '#domain/result-codes'
import type { QuoteBody } from '../../contract/goods'
import type { Db } from '../../db/client'
import { BizError } from '../../domain/biz-error'
import { isCompany } from './buyer-standing'
import type { OrderDraft } from './order-draft'
import type { OrderPricing } from './order-pricing'
import { rechargeDraft } from '../wallet/recharge-packages'
import { spaceDraft } from '../space/space-packages'

/** The order a quote body describes, priced as creating it would (before any coupon). */
export async function draftOf(
  pricing: OrderPricing,
  db: Db,
  userId: number | null,
  body: QuoteBody,
): Promise<OrderDraft> {
  const need = <T>(value: T | undefined, field: string): T => {
    if (value === undefined) throw new BizError(ResultCode.SHOW_ERROR_TIPS, `缺少参数 ${field}`)
    return value
  }
  const loggedIn = () => {
    if (userId == null) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
    return userId
  }
  switch (body.kind) {
    case 'new':
      // A company user may be pricing a big-user link order: quote up to its limit.
      return pricing.newPhones(
        db,
        userId,
        {
          goodId: need(body.goodId, 'goodId'),
          priceId: need(body.priceId, 'priceId'),
          quantity: body.quantity ?? 1,
        },
        { bigUser: await isCompany(db, userId) },
      )
    case 'activationCode':
      return pricing.activationCodes(db, {
        goodId: need(body.goodId, 'goodId'),
        priceId: need(body.priceId, 'priceId'),
        quantity: body.quantity ?? 1,
      })
    case 'renew':
      return pricing.renewal(db, loggedIn(), {
        deviceIds: need(body.deviceIds, 'deviceIds'),
        priceId: need(body.priceId, 'priceId'),
        alignToLatest: body.alignToLatest ?? false,
      })
    case 'upgrade':
      return pricing.upgrade(db, loggedIn(), {
        deviceId: need(body.deviceIds, 'deviceIds')[0],
        toGoodId: need(body.toGoodId, 'toGoodId'),
      })
    case 'video':
      return pricing.video(db, loggedIn(), {
        deviceId: need(body.deviceIds, 'deviceIds')[0],
      })
    case 'recharge': {
      const { detail: _detail, ...draft } = rechargeDraft(need(body.packageId, 'packageId'))
      return draft
    }
    case 'cloudSpace': {
      const { detail: _detail, ...draft } = spaceDraft(need(body.packageId, 'packageId'))
      return draft
    }
  }
}

/** The order's price after its coupon, with the coupon as a line of its own. */
export function withCoupon(
  draft: OrderDraft,
  coupon: { discount: number; name: string },
): OrderDraft {
  const line = {
    label: `优惠券：${coupon.name}`,
    unitPrice: -coupon.discount,
    quantity: 1,
    amount: -coupon.discount,
  }
  return { ...draft, amount: draft.amount - coupon.discount, lines: [...draft.lines, line] }
}
