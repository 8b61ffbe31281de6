/** Devices, groups, supplier instances and auth hand-off tokens (docs/cloud-phones.md). */
import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { users } from './users'
import { goods, zones } from './commerce'
import { at } from '../columns'

export const deviceGroups = pgTable(
  'device_groups',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('device_groups_user_name_key').on(t.userId, t.name)],
)

/** An operation that keeps a phone busy until the supplier reports it done. */
export type DeviceBusyOp = 'changeZone' | 'replace' | 'systemUpdate'

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    goodId: integer('good_id')
      .notNull()
      .references(() => goods.id),
    level: smallint('level').notNull(),
    zoneId: integer('zone_id')
      .notNull()
      .references(() => zones.id),
    androidVersion: text('android_version').notNull(),
    imageType: smallint('image_type').notNull(),
    /** 0 creating, 1 running, 2 expired, 3 released, 4 rebooting, 5 failed (src/domain/device-lifecycle). */
    status: smallint('status').notNull().default(0),
    groupId: integer('group_id').references(() => deviceGroups.id, { onDelete: 'set null' }),
    /** The order that bought it (orders.id), for the create message and support. */
    orderId: bigint('order_id', { mode: 'number' }),
    supplierInstanceId: text('supplier_instance_id'),
    /** A new instance being created (first provisioning or a replacement) before it takes over. */
    pendingInstanceId: text('pending_instance_id'),
    /** Counts operations on the phone; names the supplier request and job of each one (idempotency). */
    opSeq: integer('op_seq').notNull().default(0),
    busyOp: text('busy_op').$type<DeviceBusyOp>(),
    /** Why the last create or operation failed, shown to the user. */
    failReason: text('fail_reason'),
    expireAt: at('expire_at').notNull(),
    releasedAt: at('released_at'),
    /** The supplier has released the instance of a released phone (done after the status change). */
    supplierReleased: boolean('supplier_released').notNull().default(false),
    videoEdition: boolean('video_edition').notNull().default(false),
    /**
     * Raised by a trigger (migration 0016) whenever what a plan order is priced against changes: the
     * goods, expiry, video edition, zone, owner or release. A renewal, up/downgrade or video order
     * records it when made and is refunded, never applied, if it moved before delivery.
     */
    planVersion: integer('plan_version').notNull().default(0),
    model: text('model'),
    imageVersion: text('image_version'),
    coverUpdatedAt: at('cover_updated_at'),
    /** The expireAt for which the "expires in 24 h" reminder went out (once per expiry value). */
    remindedForExpireAt: at('reminded_for_expire_at'),
    /** The expireAt for which the supplier stopped (suspended) the expired phone's instance. */
    stoppedForExpireAt: at('stopped_for_expire_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('devices_user_status_idx').on(t.userId, t.status, t.id),
    index('devices_user_group_idx').on(t.userId, t.groupId),
    // Deleting a group sets its phones' group to null through the foreign key, which finds them by
    // group_id alone: without this it read every phone (server/test/db/foreign-key-indexes.test.ts).
    index('devices_group_idx')
      .on(t.groupId)
      .where(sql`${t.groupId} is not null`),
    index('devices_status_expire_idx').on(t.status, t.expireAt),
    /** A user's phones whose state changes by itself: creating, rebooting or busy (services/wallet/user-flux.ts). */
    index('devices_in_flux_idx')
      .on(t.userId)
      .where(sql`status in (0, 4) or busy_op is not null`),
    /** The console looks a phone up by its supplier instance. */
    index('devices_supplier_instance_idx').on(t.supplierInstanceId),
    /**
     * What expire-devices still has to do, each a partial index of the phones it concerns (migration
     * 0035): without them each run scanned every reminded, stopped or released phone to find the few
     * due (a million phones: seconds a run).
     */
    index('devices_remind_due_idx')
      .on(t.expireAt)
      .where(sql`status in (1, 4) and reminded_for_expire_at is distinct from expire_at`),
    index('devices_stop_due_idx')
      .on(t.expireAt)
      .where(
        sql`status = 2 and supplier_instance_id is not null and stopped_for_expire_at is distinct from expire_at`,
      ),
    index('devices_release_instance_due_idx')
      .on(t.id)
      .where(
        sql`status = 3 and not supplier_released and (supplier_instance_id is not null or pending_instance_id is not null)`,
      ),
    check('devices_status_check', sql`${t.status} between 0 and 5`),
  ],
)

/**
 * A counter per user, raised in the same transaction as any change to what that user's device list
 * shows: their phones, the phones authorised to them, their groups' names, an authorising owner's number.
 * Triggers raise it (migration 0012), so every writer, SQL by hand included, does. The device list keeps
 * what it served under the version it read (services/devices/device-list-cache.ts).
 */
export const fleetVersions = pgTable('fleet_versions', {
  userId: integer('user_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
})

/**
 * The sandbox supplier's own records, as a remote supplier would keep them: one row per instance.
 * An operation in progress has `op` and `opReadyAt`; it completes when a read finds the time passed.
 */
export const sandboxInstances = pgTable(
  'sandbox_supplier_instances',
  {
    id: text('id').primaryKey(),
    /** The caller's idempotency key: a retried create returns the same instance. */
    requestId: text('request_id').notNull(),
    name: text('name').notNull(),
    goodId: integer('good_id').notNull(),
    zoneId: integer('zone_id').notNull(),
    /** creating | running | rebooting | failed | released */
    status: text('status').notNull(),
    op: text('op'),
    opStartedAt: at('op_started_at'),
    opReadyAt: at('op_ready_at'),
    /** The operation ends in failure (decided when it starts). */
    opFails: boolean('op_fails').notNull().default(false),
    opTarget: jsonb('op_target').$type<Record<string, unknown>>(),
    failReason: text('fail_reason'),
    expireAt: at('expire_at').notNull(),
    model: text('model').notNull(),
    imageVersion: text('image_version').notNull(),
    apps: jsonb('apps').$type<string[]>().notNull(),
    /** Hue of the screen, fixed per instance. */
    hue: smallint('hue').notNull(),
    lastCommand: text('last_command'),
    lastCommandAt: at('last_command_at'),
    createdAt: at('created_at').notNull(),
    releasedAt: at('released_at'),
  },
  (t) => [uniqueIndex('sandbox_supplier_instances_request_key').on(t.requestId)],
)

/**
 * One-time tokens for entering a phone's control page (/user/getAuthToken), stored hashed. Using one
 * opens a control session (its own secret) that the page's buttons are authorised by.
 */
export const deviceAuthTokens = pgTable(
  'device_auth_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    sessionHash: text('session_hash'),
    sessionExpiresAt: at('session_expires_at'),
  },
  (t) => [
    uniqueIndex('device_auth_tokens_token_key').on(t.tokenHash),
    uniqueIndex('device_auth_tokens_session_key').on(t.sessionHash),
    index('device_auth_tokens_expires_idx').on(t.expiresAt),
  ],
)
