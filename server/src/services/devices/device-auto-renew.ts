/** What a phone's views read of its owner's 自动续费 (device_auto_renew), for the list and for one phone. */
import { and, eq, sql, type SQLWrapper } from 'drizzle-orm'
import { isAutoRenewPayMethod } from '#domain/auto-renew'
import type { AutoRenewState } from '../../contract/auto-renew'
import { deviceAutoRenew } from '../../db/schema'

/** autoRenewColumns' values: all null when it is off. */
export interface AutoRenewColumns {
  autoRenewDays: number | null
  autoRenewPayMethod: number | null
  autoRenewFailure: string | null
}

/**
 * A phone's 自动续费 columns, its row joined on the phone's owner (autoRenewOf): a setting left by a
 * previous owner reads as off. The failure shows only while it is for the phone's current expiry (a
 * renewal by hand starts a new cycle).
 */
export const autoRenewColumns = (expireAt: SQLWrapper) => ({
  autoRenewDays: deviceAutoRenew.days,
  autoRenewPayMethod: deviceAutoRenew.payMethod,
  autoRenewFailure: sql<
    string | null
  >`case when ${deviceAutoRenew.failedForExpireAt} = ${expireAt} then ${deviceAutoRenew.failure} end`,
})

/** The join condition for autoRenewColumns: the phone's row, set by `ownerId`. */
export const autoRenewOf = (deviceId: SQLWrapper, ownerId: SQLWrapper) =>
  and(eq(deviceAutoRenew.deviceId, deviceId), eq(deviceAutoRenew.userId, ownerId))

/** The state a Device shows from autoRenewColumns' values. */
export function autoRenewState(row: AutoRenewColumns): AutoRenewState | null {
  const { autoRenewDays: days, autoRenewPayMethod: payMethod } = row
  if (days == null || payMethod == null || !isAutoRenewPayMethod(payMethod)) return null
  return { days, payMethod, failure: row.autoRenewFailure ?? null }
}
