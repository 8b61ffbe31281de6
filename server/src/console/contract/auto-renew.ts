/**
 * The console's view of 自动续费 (console/routes/auto-renew.ts, under ADMIN_API_PREFIX): each phone's
 * setting on its page, and the phones whose last try failed. Times are ms since epoch.
 */
import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Paged } from '../../contract/common'

/** A phone's 自动续费 as the console shows it: its owner by name and number, never only an id. */
export const AdminAutoRenewRow = Type.Object({
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  deviceStatus: Type.Integer(),
  expireAt: Type.Integer(),
  userId: Type.Integer(),
  userName: Type.String(),
  /** The owner's number; null once the account is deleted. */
  mobile: Nullable(Type.String()),
  /** Each renewal adds this many days. */
  days: Type.Integer(),
  /** 3 cloud beans, 4 the company account balance. */
  payMethod: Type.Integer(),
  /** Why the last try failed, for the phone's current expiry; null when none failed. */
  failure: Nullable(Type.String()),
  failedAt: Nullable(Type.Integer()),
  /** The last renewal the job made, and its order. */
  renewedAt: Nullable(Type.Integer()),
  lastOrderId: Nullable(Type.Integer()),
  lastOrderNo: Nullable(Type.String()),
  /** Set by someone who no longer owns the phone (it was transferred): it renews nothing. */
  stale: Type.Boolean(),
})
export type AdminAutoRenewRow = Static<typeof AdminAutoRenewRow>

/** GET /auto-renew/failures: the phones whose last try failed, the latest failure first. */
export const AutoRenewFailureQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
})
export type AutoRenewFailureQuery = Static<typeof AutoRenewFailureQuery>

export const AdminAutoRenewPage = Paged(AdminAutoRenewRow)
export type AdminAutoRenewPage = Static<typeof AdminAutoRenewPage>

/** GET /devices/:id/auto-renew: the phone's setting; null when it is off. */
export const AdminDeviceAutoRenew = Nullable(AdminAutoRenewRow)
export type AdminDeviceAutoRenew = Static<typeof AdminDeviceAutoRenew>
