import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common'
import { ExpectedAmount, IdempotencyKey } from './order'

/** 'seckill': a flash sale with items; 'info': an announcement page. */
export const ActivityKind = Type.Union([Type.Literal('seckill'), Type.Literal('info')])
export type ActivityKind = Static<typeof ActivityKind>

export const ActivitySummary = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  summary: Type.String(),
  /** Static file path of the banner image, or null. */
  banner: Nullable(Type.String()),
  kind: ActivityKind,
  /** Epoch ms. */
  startsAt: Type.Integer(),
  endsAt: Type.Integer(),
  /** Whether it runs now (false: not started yet). */
  running: Type.Boolean(),
})
export type ActivitySummary = Static<typeof ActivitySummary>

export const SeckillItem = Type.Object({
  itemId: Type.Integer(),
  goodId: Type.Integer(),
  priceId: Type.Integer(),
  goodsName: Type.String(),
  configName: Type.String(),
  goodTime: Type.Integer(),
  durationLabel: Type.String(),
  /** Seckill price in fen. */
  price: Type.Integer(),
  /** The usual price of the same goods and duration, in fen (shown struck through). */
  originalPrice: Type.Integer(),
  stock: Type.Integer(),
  left: Type.Integer(),
  perUserLimit: Type.Integer(),
  /** The caller holds a unit (unpaid or paid); always false for a visitor. */
  bought: Type.Boolean(),
  /** Order number of the caller's unit, to continue paying an unpaid one. */
  orderNo: Nullable(Type.String()),
  orderStatus: Nullable(Type.Integer()),
})
export type SeckillItem = Static<typeof SeckillItem>

export const ActivityDetail = Type.Object({
  ...ActivitySummary.properties,
  rules: Type.String(),
  /** Server time of the answer (epoch ms), so the countdown does not trust the phone's clock. */
  serverTime: Type.Integer(),
  items: Type.Array(SeckillItem),
})
export type ActivityDetail = Static<typeof ActivityDetail>

export const ActivityIdQuery = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
})
export type ActivityIdQuery = Static<typeof ActivityIdQuery>

/** Coupons do not apply to seckill orders, so there is no couponId. */
export const CreateSeckillOrderBody = Type.Object({
  itemId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  /** The zone of the phone; omitted: the first zone with a unit of the goods left. */
  zoneId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  expectedAmount: ExpectedAmount,
  idempotencyKey: IdempotencyKey,
})
export type CreateSeckillOrderBody = Static<typeof CreateSeckillOrderBody>
