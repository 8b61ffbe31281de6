import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common'
import { ExpectedAmount, IdempotencyKey } from './order'

/** A cloud-bean recharge package: pay `price` fen, get `beans` + `bonus` beans (1 豆 = 1 分). */
export const RechargePackage = Type.Object({
  id: Type.Integer(),
  price: Type.Integer(),
  beans: Type.Integer(),
  bonus: Type.Integer(),
})
export type RechargePackage = Static<typeof RechargePackage>

export const RechargePackages = Type.Object({
  balance: Type.Integer(),
  /** Fen one bean is worth (1, as when paying with beans). */
  fenPerBean: Type.Integer(),
  packages: Type.Array(RechargePackage),
})
export type RechargePackages = Static<typeof RechargePackages>

export const CreateRechargeOrderBody = Type.Object({
  packageId: Type.Integer({ minimum: 1 }),
  expectedAmount: ExpectedAmount,
  idempotencyKey: IdempotencyKey,
  /** A 首充券 (first-recharge coupon) from /coupon/applicable (kind 'recharge'); expectedAmount is after it. */
  couponId: Type.Optional(Type.Integer({ minimum: 1 })),
})
export type CreateRechargeOrderBody = Static<typeof CreateRechargeOrderBody>

/** Ledger reasons: order 订单支付, recharge 云豆充值, refund 订单退款, grant 系统赠送, timeToMonth 云豆转包月. */
export const BeanLedgerEntry = Type.Object({
  id: Type.Integer(),
  /** Positive for a credit, negative for a debit. */
  change: Type.Integer(),
  balanceAfter: Type.Integer(),
  reason: Type.String(),
  reasonText: Type.String(),
  orderNo: Nullable(Type.String()),
  remark: Type.String(),
  createdAt: Type.Integer(),
})
export type BeanLedgerEntry = Static<typeof BeanLedgerEntry>

export const BeanLedgerQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  /** Epoch ms, inclusive. */
  startTime: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Epoch ms, exclusive. */
  endTime: Type.Optional(Type.Integer({ minimum: 0 })),
})
export type BeanLedgerQuery = Static<typeof BeanLedgerQuery>

export const TimeToMonthQuoteQuery = Type.Object({ deviceId: Type.Integer({ minimum: 1 }) })
export type TimeToMonthQuoteQuery = Static<typeof TimeToMonthQuoteQuery>

export const TimeToMonthQuote = Type.Object({
  deviceId: Type.Integer(),
  /** Days added (30). */
  days: Type.Integer(),
  /** Beans charged: the goods' 30-day price, one bean per fen. */
  beans: Type.Integer(),
  balance: Type.Integer(),
  expireAt: Type.Integer(),
  newExpireAt: Type.Integer(),
})
export type TimeToMonthQuote = Static<typeof TimeToMonthQuote>

export const CreateTimeToMonthOrderBody = Type.Object({
  deviceId: Type.Integer({ minimum: 1 }),
  /** The beans the user was shown; a different price now is 1023. */
  expectedBeans: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
  idempotencyKey: IdempotencyKey,
})
export type CreateTimeToMonthOrderBody = Static<typeof CreateTimeToMonthOrderBody>

export const TimeToMonthResult = Type.Object({
  orderNo: Type.String(),
  deviceId: Type.Integer(),
  beans: Type.Integer(),
  balance: Type.Integer(),
  newExpireAt: Type.Integer(),
})
export type TimeToMonthResult = Static<typeof TimeToMonthResult>

/** A company's account balance top-up, in fen (1 元 … 10 万元). */
export const AgentBalanceRechargeBody = Type.Object({
  amount: Type.Integer({ minimum: 100, maximum: 10_000_000 }),
  idempotencyKey: IdempotencyKey,
})
export type AgentBalanceRechargeBody = Static<typeof AgentBalanceRechargeBody>

export const AccountBalance = Type.Object({
  /** Fen. */
  balance: Type.Integer(),
  /** Only company users (userType 2) top up and pay with it. */
  enabled: Type.Boolean(),
})
export type AccountBalance = Static<typeof AccountBalance>
