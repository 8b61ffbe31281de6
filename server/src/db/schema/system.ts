/** The server's own tables: settings, dictionaries, the device status list and the job queue. */
import { sql } from 'drizzle-orm'
import { bigserial, index, integer, jsonb, pgTable, smallint, text } from 'drizzle-orm/pg-core'
import { at } from '../columns'

export const commonConfig = pgTable('common_config', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

export const dictionaries = pgTable(
  'dictionaries',
  {
    id: integer('id').primaryKey(),
    dictType: text('dict_type').notNull(),
    name: text('name').notNull(),
    value: text('value').notNull(),
    parentId: integer('parent_id'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('dictionaries_type_idx').on(t.dictType, t.sort)],
)

export const deviceStatuses = pgTable('device_statuses', {
  status: smallint('status').primaryKey(),
  name: text('name').notNull(),
  color: text('color').notNull(),
})

export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** Set for recurring jobs (one row each, rescheduled after every run) and for de-duplicated one-offs. */
    uniqueKey: text('unique_key').unique(),
    payload: jsonb('payload').notNull().default({}),
    status: text('status').notNull().default('pending'),
    runAt: at('run_at').notNull(),
    lockedUntil: at('locked_until'),
    /**
     * Who holds a running job's lease: random for each claim. Its holder's heartbeats extend the lease,
     * and what it writes when the job ends, only while the token is still its own (jobs/scheduler.ts).
     */
    leaseToken: text('lease_token'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('jobs_due_idx').on(t.status, t.runAt),
    /** A phone's jobs (provision-device, sync-device), for the console's phone history. */
    index('jobs_device_idx').on(sql`(${t.payload}->>'deviceId')`),
    /**
     * A renewal's sync jobs carry their order (payload.orderId, fulfilment-service.ts): the order's
     * progress (续费中 n/N, order-reads.ts) counts those still to run. Only such jobs are indexed.
     */
    index('jobs_order_idx')
      .on(sql`(${t.payload}->>'orderId')`)
      .where(sql`${t.kind} = 'sync-device' and (${t.payload}->>'orderId') is not null`),
  ],
)
