/**
 * An order as asked for, before it is priced: the body's facts and, as data, what each kind of order
 * does beyond the common row (the phones whose plan it is priced against, a downgrade applied when it
 * costs nothing, the unpaid-units check). OrderService turns each body into one of these; pricing,
 * the coupon and the writer (order-writer.ts) read it and nothing calls back.
 */
import { randomBytes } from 'node:crypto'
import type {
  CreateBigUserLinkOrderBody,
  CreateCloudOrderBody,
  CreateRenewOrderBody,
  CreateUpOrDownOrderBody,
  CreateVideoOrderBody,
  PurchaseActivationCodeBody,
} from '../../contract/order'
import type { OrderDraft } from './order-draft'
import type { PlanVersions } from './plan-orders'

/** What pricing prices (OrderPricing.price), one shape per kind of order. */
export type OrderItem =
  | {
      kind: 'new'
      goodId: number
      priceId: number
      quantity: number
      zoneId: number
      /** A big-user link order: company buyers only, up to BIG_USER_MAX_PER_ORDER phones. */
      bigUser: boolean
    }
  | { kind: 'renew'; deviceIds: number[]; priceId: number; alignToLatest: boolean }
  | { kind: 'upgrade'; deviceId: number; toGoodId: number }
  | { kind: 'video'; deviceId: number }
  | { kind: 'activationCode'; goodId: number; priceId: number; quantity: number }
  /** A one-phone new order at a seckill item's price: pricing takes the item's unit (seckill-units.ts). */
  | { kind: 'seckill'; itemId: number; zoneId?: number }
  /** Priced by its package (bean recharge, cloud space, a company's top-up). */
  | { kind: 'package'; draft: OrderDraft; companyOnly: string | null }

export interface OrderRequest {
  userId: number
  item: OrderItem
  expectedAmount: number
  idempotencyKey: string
  couponId?: number
  /** New phones: refused at once when the buyer's unpaid units would pass their cap (buyer-standing.ts). */
  capUnits: number | null
  /** Tried first as one statement (order-at-once.ts): a plain new-phone order without a coupon. */
  atOnce: boolean
  /**
   * The buyer's phones whose plan the order is priced against: locked before pricing, their plan
   * versions kept in the order for delivery (plan-orders.ts).
   */
  planOf: number[] | null
  /**
   * The plans the caller priced against (自动续费 reads its phones before ordering): refused, nothing
   * written, when a phone's plan version moved since (plan-orders.ts). Null: whatever they are now.
   */
  planSeen: PlanVersions | null
  /** A change that costs nothing (a downgrade) is applied at once instead of refused with 1021. */
  appliedWhenFree: boolean
  linkToken: string | null
  remark: string | null
  /** Kept in the order's detail for fulfilment (e.g. the beans a recharge package credits). */
  detail: Record<string, unknown>
}

/** The fields a request body carries for every kind of order. */
interface PriceCheck {
  expectedAmount: number
  idempotencyKey: string
  couponId?: number
}

const request = (userId: number, body: PriceCheck, item: OrderItem): OrderRequest => ({
  userId,
  item,
  expectedAmount: body.expectedAmount,
  idempotencyKey: body.idempotencyKey,
  couponId: body.couponId,
  capUnits: null,
  atOnce: false,
  planOf: null,
  planSeen: null,
  appliedWhenFree: false,
  linkToken: null,
  remark: null,
  detail: {},
})

const newPhones = (
  body: CreateCloudOrderBody | CreateBigUserLinkOrderBody,
  bigUser: boolean,
): OrderItem => ({
  kind: 'new',
  goodId: body.goodId,
  priceId: body.priceId,
  quantity: body.quantity,
  zoneId: body.zoneId,
  bigUser,
})

export const cloudOrder = (userId: number, body: CreateCloudOrderBody): OrderRequest => ({
  ...request(userId, body, newPhones(body, false)),
  capUnits: body.quantity,
  atOnce: body.couponId === undefined,
})

export const bigUserLinkOrder = (
  userId: number,
  body: CreateBigUserLinkOrderBody,
): OrderRequest => ({
  ...request(userId, body, newPhones(body, true)),
  capUnits: body.quantity,
  linkToken: randomBytes(18).toString('base64url'),
  remark: body.remark ?? null,
})

export const renewOrder = (userId: number, body: CreateRenewOrderBody): OrderRequest => ({
  ...request(userId, body, {
    kind: 'renew',
    deviceIds: body.deviceIds,
    priceId: body.priceId,
    alignToLatest: body.alignToLatest ?? false,
  }),
  planOf: body.deviceIds,
})

export const upOrDownOrder = (userId: number, body: CreateUpOrDownOrderBody): OrderRequest => ({
  ...request(userId, body, { kind: 'upgrade', deviceId: body.deviceId, toGoodId: body.toGoodId }),
  planOf: [body.deviceId],
  appliedWhenFree: true,
})

export const videoOrder = (userId: number, body: CreateVideoOrderBody): OrderRequest => ({
  ...request(userId, body, { kind: 'video', deviceId: body.deviceId }),
  planOf: [body.deviceId],
})

export const activationCodeOrder = (
  userId: number,
  body: PurchaseActivationCodeBody,
): OrderRequest =>
  request(userId, body, {
    kind: 'activationCode',
    goodId: body.goodId,
    priceId: body.priceId,
    quantity: body.quantity,
  })

export const seckillOrder = (
  userId: number,
  body: PriceCheck & { itemId: number; zoneId?: number },
): OrderRequest =>
  request(userId, body, { kind: 'seckill', itemId: body.itemId, zoneId: body.zoneId })

/**
 * An order of a package priced by its own table; `companyOnly` is the refusal for a buyer who is not a
 * verified company (none: anyone may buy it).
 */
export const packageOrder = (
  userId: number,
  body: PriceCheck,
  draft: OrderDraft,
  options: { detail?: Record<string, unknown>; companyOnly?: string } = {},
): OrderRequest => ({
  ...request(userId, body, { kind: 'package', draft, companyOnly: options.companyOnly ?? null }),
  detail: { ...options.detail },
})
