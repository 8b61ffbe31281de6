import { Type, type Static } from '@sinclair/typebox'
import { PageQuery } from './common'

/** Device/transfer: phones of mine to the account of `mobilePhone`, confirmed by a code sent to me. */
export const TransferDevicesBody = Type.Object({
  deviceIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 }),
  /** checked with a clear message (validateMobile), not by the schema */
  mobilePhone: Type.String({ maxLength: 20 }),
  /** SMS type `transfer`, sent to the caller's own number */
  smsCode: Type.String({ maxLength: 10 }),
})
export type TransferDevicesBody = Static<typeof TransferDevicesBody>

export const TransferResult = Type.Object({
  batchId: Type.String(),
  count: Type.Integer(),
  /** the receiver, masked (138****0000) */
  toMobile: Type.String(),
})
export type TransferResult = Static<typeof TransferResult>

/** CAN_NOT_DO_TRANSFER (1330) data: every phone that cannot move now, and why. */
export const TransferRefusal = Type.Object({
  devices: Type.Array(
    Type.Object({ deviceId: Type.Integer(), name: Type.String(), reason: Type.String() }),
  ),
})
export type TransferRefusal = Static<typeof TransferRefusal>

export const TransferDirection = Type.Union([Type.Literal('out'), Type.Literal('in')])
export type TransferDirection = Static<typeof TransferDirection>

export const TransferListQuery = Type.Object({
  ...PageQuery.properties,
  direction: TransferDirection,
})
export type TransferListQuery = Static<typeof TransferListQuery>

export const TransferRecord = Type.Object({
  id: Type.Integer(),
  batchId: Type.String(),
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  /** the phone's expiry when it moved (epoch ms) */
  expireAt: Type.Integer(),
  /** the other account, masked */
  otherMobile: Type.String(),
  createdAt: Type.Integer(),
})
export type TransferRecord = Static<typeof TransferRecord>
