/**
 * 自动续费: a phone renewed by itself before it expires, paid from the owner's cloud beans or company
 * balance (docs/orders.md "Auto-renewal"). One row per phone that has it on; switching it off deletes
 * the row. A group or all phones are set by writing the row of each of their phones.
 */
import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, pgTable, smallint, text } from 'drizzle-orm/pg-core'
import { devices } from './devices'
import { users } from './users'
import { at } from '../columns'

export const deviceAutoRenew = pgTable(
  'device_auto_renew',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** Who switched it on and pays: a phone that changed owner since is never renewed on their money. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The duration each renewal adds: the goodTime (days) of a price row of the phone's goods. */
    days: integer('days').notNull(),
    /** PayMethod.beans (3) or PayMethod.accountBalance (4). */
    payMethod: smallint('pay_method').notNull(),
    /** Why the last attempt failed, for the phone's current expiry (null: none failed). */
    failure: text('failure'),
    failedAt: at('failed_at'),
    /** The expiry the failure was for: a renewal, by hand or by the job, starts a new cycle. */
    failedForExpireAt: at('failed_for_expire_at'),
    /** The expiry for which the owner was told the balance is short (once per due cycle). */
    notifiedForExpireAt: at('notified_for_expire_at'),
    /** A failed phone is not tried again before this, so a short balance is not retried every run. */
    retryAt: at('retry_at'),
    /** The renewal order the job made last (orders.id). */
    lastOrderId: bigint('last_order_id', { mode: 'number' }),
    renewedAt: at('renewed_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('device_auto_renew_user_idx').on(t.userId),
    /** The console's list of failures, newest first: only failed rows are indexed. */
    index('device_auto_renew_failed_idx')
      .on(t.failedAt)
      .where(sql`${t.failure} is not null`),
    check('device_auto_renew_pay_method_check', sql`${t.payMethod} in (3, 4)`),
    check('device_auto_renew_days_check', sql`${t.days} > 0`),
  ],
)
