import { Type, type Static } from '@sinclair/typebox'
import { PageQuery } from './common'

/** 1 view only (the phone and its screen), 2 control (also the control page and commands). */
export const GrantPermission = Type.Union([Type.Literal(1), Type.Literal(2)])
export type GrantPermission = Static<typeof GrantPermission>

/** How long a grant or share lasts, in days (checked against GRANT_DAYS with a clear message). */
export const GrantDays = Type.Integer({ minimum: 1, maximum: 365 })

const DeviceIds = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 })

export const CreateGrantBody = Type.Object({
  deviceIds: DeviceIds,
  /** checked with validateMobile's clear message, not by the schema */
  mobilePhone: Type.String({ maxLength: 20 }),
  permission: GrantPermission,
  days: GrantDays,
})
export type CreateGrantBody = Static<typeof CreateGrantBody>

export const CreateGrantResult = Type.Object({
  count: Type.Integer(),
  expiresAt: Type.Integer(),
  granteeMobile: Type.String(),
})
export type CreateGrantResult = Static<typeof CreateGrantResult>

export const GrantDirection = Type.Union([Type.Literal('out'), Type.Literal('in')])
export type GrantDirection = Static<typeof GrantDirection>

export const GrantListQuery = Type.Object({ ...PageQuery.properties, direction: GrantDirection })
export type GrantListQuery = Static<typeof GrantListQuery>

/** A live grant: by me (`out`: otherMobile is the grantee) or to me (`in`: the owner). */
export const GrantView = Type.Object({
  grantId: Type.Integer(),
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  permission: Type.Integer(),
  expiresAt: Type.Integer(),
  createdAt: Type.Integer(),
  otherMobile: Type.String(),
})
export type GrantView = Static<typeof GrantView>

export const RevokeGrantsBody = Type.Object({
  grantIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }),
})
export type RevokeGrantsBody = Static<typeof RevokeGrantsBody>

export const CreateShareBody = Type.Object({
  deviceIds: DeviceIds,
  permission: GrantPermission,
  days: GrantDays,
})
export type CreateShareBody = Static<typeof CreateShareBody>

export const ShareCode = Type.Object({
  code: Type.String(),
  /** what the QR code says: cloudphone:share:<code> */
  text: Type.String(),
  /** the QR code as a PNG data URL */
  qrImage: Type.String(),
  expiresAt: Type.Integer(),
})
export type ShareCode = Static<typeof ShareCode>

export const ShareCodeQuery = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) })
export type ShareCodeQuery = Static<typeof ShareCodeQuery>

/** What a scanned share offers, before accepting it. */
export const SharePreview = Type.Object({
  ownerMobile: Type.String(),
  deviceCount: Type.Integer(),
  permission: Type.Integer(),
  days: Type.Integer(),
  expiresAt: Type.Integer(),
})
export type SharePreview = Static<typeof SharePreview>

export const AcceptShareResult = Type.Object({ count: Type.Integer(), expiresAt: Type.Integer() })
export type AcceptShareResult = Static<typeof AcceptShareResult>
