import { Type, type Static } from '@sinclair/typebox'
import { MAX_RENEW_BATCH } from '#domain/batch-results'
import { Nullable } from './common'

export const AndroidVersion = Type.Union([Type.Literal('B'), Type.Literal('H')])
export type AndroidVersion = Static<typeof AndroidVersion>
export const GoodsLevelValue = Type.Integer({ minimum: 1, maximum: 5 })
export const DevicePermission = Type.Union([
  Type.Literal('changeConfig'),
  Type.Literal('upOrDownConfig'),
  Type.Literal('zoneChangeOpType'),
  Type.Literal('videoChangeOpType'),
])
export type DevicePermission = Static<typeof DevicePermission>

/** One duration of a goods, money in fen, activityEndsAt in epoch ms. */
export const GoodsPrice = Type.Object({
  priceId: Type.Integer(),
  goodId: Type.Integer(),
  goodTime: Type.Integer({ description: 'days' }),
  durationLabel: Type.String(),
  goodPrice: Type.Integer(),
  oldGoodPrice: Nullable(Type.Integer()),
  firstPurchasePrice: Nullable(Type.Integer()),
  firstCount: Type.Integer(),
  activityId: Nullable(Type.Integer()),
  activityPrice: Nullable(Type.Integer()),
  activityEndsAt: Nullable(Type.Integer()),
  activityRunning: Type.Boolean(),
})
export type GoodsPrice = Static<typeof GoodsPrice>

/** A zone with the derived inventory status (1 充足, 2 正常, 3 紧张, 4 售罄) for a goods, or for all goods. */
export const ZoneStock = Type.Object({
  zoneId: Type.Integer(),
  name: Type.String(),
  inventoryStatus: Type.Integer({ minimum: 1, maximum: 4 }),
  statusText: Type.String(),
})
export type ZoneStock = Static<typeof ZoneStock>

export const Goods = Type.Object({
  goodId: Type.Integer(),
  level: GoodsLevelValue,
  levelName: Type.String(),
  themeColor: Type.String(),
  name: Type.String(),
  configName: Type.String(),
  androidVersion: AndroidVersion,
  androidVersionLabel: Type.String(),
  imageType: Type.Integer({ minimum: 1, maximum: 3 }),
  imageTypeLabel: Type.String(),
  maxPerOrder: Type.Integer(),
  description: Type.String(),
  permissions: Type.Array(DevicePermission),
  /** Fen per day for the video-custom edition; null when not offered. */
  videoDailyFee: Nullable(Type.Integer()),
  prices: Type.Array(GoodsPrice),
  zones: Type.Array(ZoneStock),
})
export type Goods = Static<typeof Goods>

export const GoodsLevelGroup = Type.Object({
  level: GoodsLevelValue,
  name: Type.String(),
  themeColor: Type.String(),
  description: Type.String(),
  goods: Type.Array(Goods),
})
export type GoodsLevelGroup = Static<typeof GoodsLevelGroup>

export const GoodsListQuery = Type.Object({
  level: Type.Optional(GoodsLevelValue),
  androidVersion: Type.Optional(AndroidVersion),
})
export type GoodsListQuery = Static<typeof GoodsListQuery>

export const GoodsDetailQuery = Type.Object({ goodId: Type.Integer({ minimum: 1 }) })
export type GoodsDetailQuery = Static<typeof GoodsDetailQuery>
export const ZonesQuery = Type.Object({ goodId: Type.Optional(Type.Integer({ minimum: 1 })) })
export type ZonesQuery = Static<typeof ZonesQuery>

/** Range-checked by the service (1014 with a clear message) rather than by the schema. */
export const Quantity = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })

export const QuoteKind = Type.Union([
  Type.Literal('new'),
  Type.Literal('renew'),
  Type.Literal('upgrade'),
  Type.Literal('video'),
  Type.Literal('activationCode'),
  Type.Literal('recharge'),
  Type.Literal('cloudSpace'),
])
export type QuoteKind = Static<typeof QuoteKind>

/** new/activationCode: goodId, priceId, quantity; renew: deviceIds, priceId, alignToLatest; upgrade: deviceIds[0], toGoodId; video: deviceIds[0]; recharge (beans) and cloudSpace: packageId. */
export const QuoteBody = Type.Object({
  kind: QuoteKind,
  goodId: Type.Optional(Type.Integer({ minimum: 1 })),
  priceId: Type.Optional(Type.Integer({ minimum: 1 })),
  quantity: Type.Optional(Quantity),
  deviceIds: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: MAX_RENEW_BATCH }),
  ),
  alignToLatest: Type.Optional(Type.Boolean()),
  toGoodId: Type.Optional(Type.Integer({ minimum: 1 })),
  packageId: Type.Optional(Type.Integer({ minimum: 1 })),
})
export type QuoteBody = Static<typeof QuoteBody>

export const QuoteLine = Type.Object({
  label: Type.String(),
  unitPrice: Type.Integer(),
  quantity: Type.Integer(),
  amount: Type.Integer(),
})
export type QuoteLine = Static<typeof QuoteLine>

export const RenewalLine = Type.Object({
  deviceId: Type.Integer(),
  newExpireAt: Type.Integer(),
  amount: Type.Integer(),
  extraMs: Type.Integer(),
})
export type RenewalLine = Static<typeof RenewalLine>

export const UpgradeOutcome = Type.Object({
  direction: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('same')]),
  newExpireAt: Type.Integer(),
})

export const Quote = Type.Object({
  total: Type.Integer(),
  originalAmount: Type.Integer(),
  lines: Type.Array(QuoteLine),
  renewals: Type.Optional(Type.Array(RenewalLine)),
  upgrade: Type.Optional(UpgradeOutcome),
})
export type Quote = Static<typeof Quote>
