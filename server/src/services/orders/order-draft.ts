import type { QuoteLine } from '#domain/pricing'
import type { Quote, RenewalLine } from '../../contract/goods'
import type { OrderKind } from '../../db/schema'

/** Everything an order row needs, computed by the server from the catalogue and the user's phones. */
export interface OrderDraft {
  kind: OrderKind
  businessType: number
  amount: number
  originalAmount: number
  quantity: number
  goodId: number | null
  priceId: number | null
  goodTime: number | null
  zoneId: number | null
  deviceIds: number[]
  lines: QuoteLine[]
  renewals: (RenewalLine & { addMs: number })[]
  /** Stock this order holds while unpaid. */
  reserve: { goodId: number; zoneId: number; quantity: number } | null
  upgrade: { fromGoodId: number; direction: 'up' | 'down' | 'same'; newExpireAt: number } | null
}

export function emptyDraft(kind: OrderKind, businessType: number): OrderDraft {
  return {
    kind,
    businessType,
    amount: 0,
    originalAmount: 0,
    quantity: 1,
    goodId: null,
    priceId: null,
    goodTime: null,
    zoneId: null,
    deviceIds: [],
    lines: [],
    renewals: [],
    reserve: null,
    upgrade: null,
  }
}

export function draftQuote(draft: OrderDraft): Quote {
  const quote: Quote = {
    total: draft.amount,
    originalAmount: draft.originalAmount,
    lines: draft.lines,
  }
  if (draft.kind === 'renew') {
    quote.renewals = draft.renewals.map(({ deviceId, newExpireAt, amount, extraMs }) => ({
      deviceId,
      newExpireAt,
      amount,
      extraMs,
    }))
  }
  if (draft.upgrade) {
    quote.upgrade = { direction: draft.upgrade.direction, newExpireAt: draft.upgrade.newExpireAt }
  }
  return quote
}
