import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery } from './common'

export const ActivateBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64 }),
  /** Renew this phone of mine by the code's duration instead of creating a new one. */
  renewDeviceId: Type.Optional(Type.Integer({ minimum: 1 })),
})
export type ActivateBody = Static<typeof ActivateBody>

export const ActivateResult = Type.Object({
  kind: Type.Union([Type.Literal('new'), Type.Literal('renew')]),
  deviceId: Type.Integer(),
  goodId: Type.Integer(),
  goodTime: Type.Integer(),
  expireAt: Type.Integer(),
})
export type ActivateResult = Static<typeof ActivateResult>

export const MyCode = Type.Object({
  code: Type.String(),
  goodId: Type.Integer(),
  goodsName: Type.String(),
  goodTime: Type.Integer(),
  durationLabel: Type.String(),
  /** 0 未使用, 1 已使用 */
  status: Type.Integer({ minimum: 0, maximum: 1 }),
  statusText: Type.String(),
  usedAt: Nullable(Type.Integer()),
  deviceId: Nullable(Type.Integer()),
  orderNo: Type.String(),
  createdAt: Type.Integer(),
})
export type MyCode = Static<typeof MyCode>

export const MyCodesQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
})
export type MyCodesQuery = Static<typeof MyCodesQuery>
