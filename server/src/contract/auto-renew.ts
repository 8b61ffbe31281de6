import { Type, type Static } from '@sinclair/typebox'
import { MAX_RENEW_BATCH } from '#domain/batch-results'
import { PayMethod } from '#domain/order-status'
import { Nullable } from './common'

/** Cloud beans (3) or the company account balance (4): 自动续费 never goes through a payment provider. */
export const AutoRenewPayMethod = Type.Union([
  Type.Literal(PayMethod.beans),
  Type.Literal(PayMethod.accountBalance),
])

/** A phone's 自动续费 as its owner sees it (Device.autoRenew); null when it is off. */
export const AutoRenewState = Type.Object({
  /** Each renewal adds this many days (the goodTime of a price row of the phone's goods). */
  days: Type.Integer({ minimum: 1 }),
  payMethod: AutoRenewPayMethod,
  /** Why the last attempt failed, for the phone's current expiry; null when none failed. */
  failure: Nullable(Type.String()),
})
export type AutoRenewState = Static<typeof AutoRenewState>

/**
 * Switches 自动续费 on (with the duration and what pays) or off for the caller's phones: one, a
 * group or all of them (the fleet's selection), up to a studio's MAX_RENEW_BATCH.
 */
export const SetAutoRenewBody = Type.Object({
  deviceIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: MAX_RENEW_BATCH }),
  enabled: Type.Boolean(),
  /** Required when enabled. */
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3660 })),
  /** Required when enabled. */
  payMethod: Type.Optional(AutoRenewPayMethod),
})
export type SetAutoRenewBody = Static<typeof SetAutoRenewBody>

export const SetAutoRenewResult = Type.Object({
  /** How many phones now have it as asked (every one sent: a refusal changes none). */
  updated: Type.Integer(),
  /** The state each of them now has: null when switched off, the failure cleared when switched on. */
  autoRenew: Nullable(AutoRenewState),
  /** A phone is renewed this many days before it expires (the operator's AUTO_RENEW_DAYS_BEFORE). */
  daysBefore: Type.Integer({ minimum: 1 }),
})
export type SetAutoRenewResult = Static<typeof SetAutoRenewResult>
