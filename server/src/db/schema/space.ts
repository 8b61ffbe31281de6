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
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { orders } from './commerce'
import { devices } from './devices'
import { users } from './users'
import { at } from '../columns'

/**
 * Backup and restore tasks on the user's cloud space. A backup task that is done (and not deleted) is a
 * backup: its size counts against the user's quota. A restore task names the backup it restores.
 * status: running | done | failed | interrupted (cut off: the supplier never finished in time).
 */
export const spaceTasks = pgTable(
  'space_tasks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    /** The phone's name when the task started (the history keeps it after a rename or release). */
    deviceName: text('device_name').notNull(),
    /** backup | restore */
    kind: text('kind').notNull(),
    status: text('status').notNull().default('running'),
    /** For a restore: the backup task it restores. */
    backupId: bigint('backup_id', { mode: 'number' }),
    /** The supplier's id for its own backup or restore work (set once the supplier accepted it). */
    supplierTaskId: text('supplier_task_id'),
    /** Bytes of the backup (a restore shows the size of what it restored); 0 until known. */
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    failCode: integer('fail_code'),
    failReason: text('fail_reason'),
    createdAt: at('created_at').notNull(),
    finishedAt: at('finished_at'),
    /** A deleted backup no longer counts or shows as a backup; its history stays. */
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('space_tasks_user_idx').on(t.userId, t.createdAt),
    index('space_tasks_device_idx').on(t.deviceId, t.status),
    /** A user's running backups and restores (services/wallet/user-flux.ts). */
    index('space_tasks_running_user_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'running'`),
    /** One task at a time per phone, whatever races. */
    uniqueIndex('space_tasks_one_running_key')
      .on(t.deviceId)
      .where(sql`${t.status} = 'running'`),
    check('space_tasks_kind_check', sql`${t.kind} in ('backup', 'restore')`),
    check(
      'space_tasks_status_check',
      sql`${t.status} in ('running', 'done', 'failed', 'interrupted')`,
    ),
  ],
)

/**
 * The sandbox supplier's backups and restores (its own bookkeeping, like sandbox_supplier_instances):
 * work is accepted at once and is finished when read after `readyAt`.
 */
export const sandboxBackupTasks = pgTable('sandbox_supplier_backup_tasks', {
  id: text('id').primaryKey(),
  /** The caller's idempotency key. */
  requestId: text('request_id').notNull().unique(),
  instanceId: text('instance_id').notNull(),
  /** backup | restore */
  kind: text('kind').notNull(),
  /** For a restore: the sandbox backup restored. */
  sourceId: text('source_id'),
  /** running | done | failed | deleted */
  status: text('status').notNull(),
  /** The work ends in failure (decided when it starts). */
  fails: boolean('fails').notNull().default(false),
  apps: jsonb('apps').$type<string[]>().notNull(),
  sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
  readyAt: at('ready_at').notNull(),
  createdAt: at('created_at').notNull(),
})

/**
 * Cloud space bought with a paid space order (business type 4): `bytes` more quota until `expiresAt`.
 * One row per order (unique orderId), so fulfilment run twice grants once.
 */
export const spaceGrants = pgTable(
  'space_grants',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** The space package bought. */
    packageId: integer('package_id').notNull(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => orders.id),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('space_grants_user_idx').on(t.userId, t.expiresAt)],
)
