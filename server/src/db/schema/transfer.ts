import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core'
import { at } from '../columns'
import { users } from './users'

/**
 * Phones moved from one account to another (Device/transfer): one row per phone, the phones of one
 * confirmation share a batchId. Name and expiry are as they were when the phone moved.
 */
export const deviceTransfers = pgTable(
  'device_transfers',
  {
    id: serial('id').primaryKey(),
    batchId: text('batch_id').notNull(),
    fromUserId: integer('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toUserId: integer('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Not a foreign key: the history outlives a released phone. */
    deviceId: integer('device_id').notNull(),
    deviceName: text('device_name').notNull(),
    expireAt: at('expire_at').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('device_transfers_from_idx').on(t.fromUserId, t.createdAt),
    index('device_transfers_to_idx').on(t.toUserId, t.createdAt),
    // A phone's transfers, for the console's phone history.
    index('device_transfers_device_idx').on(t.deviceId, t.createdAt),
  ],
)
