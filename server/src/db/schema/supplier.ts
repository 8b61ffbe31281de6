/**
 * What a real supplier adapter keeps on our side: the catalogue mapping (our goods and zones → the
 * supplier's configuration and data-centre ids, editable by operators), and the books the ACEP adapter
 * needs because ACEP has no idempotency key on CreatePod and no notion of our expiry, goods or model.
 */
import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { at } from '../columns'

/**
 * One row per (supplier, our goods or zone): the supplier's id for it. A goods or zone on sale without a
 * row for the running supplier stops the server at start-up (adapters/supplier/acep/catalogue.ts).
 */
export const supplierCatalogue = pgTable(
  'supplier_catalogue',
  {
    /** The adapter's name ('acep'). */
    supplier: text('supplier').notNull(),
    /** 'goods' (→ configuration code) or 'zone' (→ data centre id). */
    kind: text('kind').notNull(),
    localId: integer('local_id').notNull(),
    remoteId: text('remote_id').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.supplier, t.kind, t.localId] })],
)

/** ACEP pods we asked for, keyed by our requestId (written before CreatePod, so a retry finds it). */
export const acepPods = pgTable(
  'acep_pods',
  {
    requestId: text('request_id').primaryKey(),
    /** ACEP's PodName: derived from requestId, so a pod created before a crash is found again by name. */
    podName: text('pod_name').notNull(),
    /** Null until CreatePod answered. */
    podId: text('pod_id'),
    goodId: integer('good_id').notNull(),
    zoneId: integer('zone_id').notNull(),
    /** Our expiry (ACEP bills the product's resources; the phone's rental time is ours). */
    expireAt: at('expire_at').notNull(),
    model: text('model').notNull(),
    /** The pod reported running once (a later "booting" is a reboot, not the first start). */
    seenRunning: integer('seen_running').notNull().default(0),
    /** No longer written: ACEP's MigratePod answers no task id (a migration is followed by DetailPod). */
    migrateTaskId: text('migrate_task_id'),
    /** A MigratePod in progress: the zone it moves the pod to, and when we asked. */
    migrateZoneId: integer('migrate_zone_id'),
    migrateStartedAt: at('migrate_started_at'),
    /**
     * A replacement that keeps the data: the old pod's data is backed up (copyStage 'backup'), then
     * restored onto this pod ('restore'); the pod counts as creating until the copy is done.
     */
    copyStage: text('copy_stage'),
    copyTaskId: text('copy_task_id'),
    /** The last screenshot ACEP reported (its TOS address: never shown to a browser, we relay it). */
    screenUrl: text('screen_url'),
    screenAt: at('screen_at'),
    createdAt: at('created_at').notNull(),
    releasedAt: at('released_at'),
  },
  (t) => [uniqueIndex('acep_pods_pod_key').on(t.podId)],
)

/**
 * ACEP tasks (backup, restore, reset) as GetTaskInfo or ListBackupData last reported them.
 * requestId makes a retried backup/restore return the same task.
 */
export const acepTasks = pgTable(
  'acep_tasks',
  {
    taskId: text('task_id').primaryKey(),
    requestId: text('request_id').unique(),
    /** backup | restore | reset */
    kind: text('kind').notNull(),
    podId: text('pod_id').notNull(),
    /** For a backup: the BackupDataId to restore from and to delete. */
    backupDataId: text('backup_data_id'),
    /** running | done | failed | deleted */
    status: text('status').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    failReason: text('fail_reason'),
    /** The callback message ids already applied (a replayed callback changes nothing). */
    lastMessageId: text('last_message_id'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  // Whether a pod has a reset running (acep-tasks.ts): one pod's tasks, not every task ever sent.
  (t) => [index('acep_tasks_pod_idx').on(t.podId)],
)
