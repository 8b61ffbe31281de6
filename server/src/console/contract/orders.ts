/**
 * The console's 订单与支付 pages (console/routes/orders.ts, under ADMIN_API_PREFIX): search orders,
 * one order with its phones, payment attempts and refunds, a finance refund, the CSV export. Times are ms
 * since epoch; money is integer fen.
 */
import { Type, type Static } from '@sinclair/typebox'
import { ORDER_KINDS } from '#domain/order-status'
import { Nullable, Paged } from '../../contract/common'

const Kind = Type.Union(ORDER_KINDS.map((kind) => Type.Literal(kind)))

/**
 * The filters GET /orders and GET /orders.csv share. `q`: an order number, an order id, a user id or a
 * user's full number. `from`/`to`: creation time, ms since epoch, `to` exclusive.
 */
export const OrderFilter = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 64 })),
  /** OrderStatus (src/domain/order-states.ts). */
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
  /** PayMethod (src/domain/order-status.ts): 1 Alipay, 2 WeChat Pay, 3 beans, 4 account balance. */
  payMethod: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  kind: Type.Optional(Kind),
  from: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
  to: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
})
export type OrderFilter = Static<typeof OrderFilter>

/** GET /orders: newest first. */
export const OrderSearchQuery = Type.Composite([
  OrderFilter,
  Type.Object({
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  }),
])
export type OrderSearchQuery = Static<typeof OrderSearchQuery>

export const AdminOrderRow = Type.Object({
  id: Type.Integer(),
  orderNo: Type.String(),
  userId: Type.Integer(),
  /** null once the account is deleted. */
  userMobile: Nullable(Type.String()),
  /** The user's nickname ('' when unset; null when the user row is gone). */
  userName: Nullable(Type.String()),
  /** Who paid it, when someone else did (a link order). */
  buyerId: Nullable(Type.Integer()),
  kind: Kind,
  status: Type.Integer(),
  payMethod: Nullable(Type.Integer()),
  amount: Type.Integer(),
  originalAmount: Type.Integer(),
  quantity: Type.Integer(),
  createdAt: Type.Integer(),
  paidAt: Nullable(Type.Integer()),
  closedAt: Nullable(Type.Integer()),
})
export type AdminOrderRow = Static<typeof AdminOrderRow>
/** The most orders the console's list counts (its total reads no further). */
export const ORDER_COUNT_CAP = 10_000

/**
 * `capped`: more than ORDER_COUNT_CAP orders match, and `total` says only that many (counting millions
 * of orders on every page view is what made the list slow; narrow the filters to count them).
 */
export const AdminOrderPage = Type.Composite([
  Paged(AdminOrderRow),
  Type.Object({ capped: Type.Boolean() }),
])
export type AdminOrderPage = Static<typeof AdminOrderPage>

export const AdminOrderIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
})
export type AdminOrderIdParams = Static<typeof AdminOrderIdParams>

export const AdminRefund = Type.Object({
  id: Type.Integer(),
  refundNo: Type.String(),
  paymentId: Type.Integer(),
  provider: Type.String(),
  amount: Type.Integer(),
  reason: Type.String(),
  /** requested → succeeded | failed */
  status: Type.String(),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  createdAt: Type.Integer(),
  sentAt: Nullable(Type.Integer()),
  settledAt: Nullable(Type.Integer()),
})
export type AdminRefund = Static<typeof AdminRefund>

/** One payment attempt: a provider trade, or beans / the account balance settled at once. */
export const AdminPayment = Type.Object({
  id: Type.Integer(),
  tradeNo: Type.String(),
  provider: Type.String(),
  payMethod: Type.Integer(),
  payerId: Type.Integer(),
  /** The payer's number and nickname (null once gone). */
  payerMobile: Nullable(Type.String()),
  payerName: Nullable(Type.String()),
  amount: Type.Integer(),
  /** pending | paid | cancelled | failed | closed | refunding | refunded */
  status: Type.String(),
  createdAt: Type.Integer(),
  settledAt: Nullable(Type.Integer()),
})
export type AdminPayment = Static<typeof AdminPayment>

export const AdminOrderPhone = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  userId: Type.Integer(),
  /** The phone's owner now: number and nickname (null once gone). */
  userMobile: Nullable(Type.String()),
  userName: Nullable(Type.String()),
  /** DeviceStatus (src/domain/device-lifecycle.ts). */
  status: Type.Integer(),
  expireAt: Type.Integer(),
})

/** GET /orders/:id. `refundable`: null when a refund may be made, else why not (the 40xx message). */
export const AdminOrderDetail = Type.Object({
  order: Type.Composite([
    AdminOrderRow,
    Type.Object({
      goodId: Nullable(Type.Integer()),
      /** The goods' name (null: the order is for no goods, or they are gone). */
      goodsName: Nullable(Type.String()),
      zoneId: Nullable(Type.Integer()),
      /** The payer of a link order: number and nickname (null without a buyer). */
      buyerMobile: Nullable(Type.String()),
      buyerName: Nullable(Type.String()),
      goodTime: Nullable(Type.Integer()),
      remark: Nullable(Type.String()),
      completedAt: Nullable(Type.Integer()),
      refundReason: Nullable(Type.String()),
    }),
  ]),
  phones: Type.Array(AdminOrderPhone),
  payments: Type.Array(AdminPayment),
  refunds: Type.Array(AdminRefund),
  refundRefusal: Nullable(Type.String()),
})
export type AdminOrderDetail = Static<typeof AdminOrderDetail>

/** POST /orders/:id/refund (finance): why, recorded on the refund, the order and the audit log. */
export const RefundOrderBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
})
export type RefundOrderBody = Static<typeof RefundOrderBody>
