/** The app library (应用管理): uploaded and catalogue APKs, and their installs over a fleet (docs/apps.md). */
import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { at } from '../columns'
import { devices } from './devices'
import { users } from './users'

/**
 * One APK: a user's own upload (ownerId set) or an entry of the operators' catalogue (ownerId null).
 * What it is (package, name, version, icon) was read from the APK itself when it was taken in. The APK
 * is a private upload (`apkPath`, `/private/apks/<uuid>.apk`, never served); the icon a public one.
 * Removing the row leaves both to the file service's orphan purge.
 */
export const apps = pgTable(
  'apps',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    packageName: text('package_name').notNull(),
    name: text('name').notNull(),
    versionName: text('version_name').notNull(),
    versionCode: bigint('version_code', { mode: 'number' }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    apkPath: text('apk_path').notNull(),
    iconPath: text('icon_path'),
    /** A catalogue entry operators took off the users' list (kept for the installs that name it). */
    hidden: boolean('hidden').notNull().default(false),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('apps_owner_idx').on(t.ownerId, t.createdAt),
    /** The same bytes twice are one app of a user (a second upload answers the first). */
    uniqueIndex('apps_owner_sha_key')
      .on(t.ownerId, t.sha256)
      .where(sql`${t.ownerId} is not null`),
    uniqueIndex('apps_catalogue_sha_key')
      .on(t.sha256)
      .where(sql`${t.ownerId} is null`),
    /** The upload purge asks whether an app still holds a file (services/file-service.ts). */
    index('apps_apk_path_idx').on(t.apkPath),
    index('apps_icon_path_idx')
      .on(t.iconPath)
      .where(sql`${t.iconPath} is not null`),
  ],
)

/** One batch install: one app onto the phones a user picked, followed until every phone has a result. */
export const appInstalls = pgTable(
  'app_installs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: integer('app_id').references(() => apps.id, { onDelete: 'set null' }),
    /** What was installed, kept when the app is removed from the library. */
    appName: text('app_name').notNull(),
    packageName: text('package_name').notNull(),
    total: integer('total').notNull(),
    createdAt: at('created_at').notNull(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('app_installs_user_idx').on(t.userId, t.id),
    // an app's removal sets its installs' app_id null: found by this index, not a scan
    index('app_installs_app_idx').on(t.appId),
  ],
)

/** A phone's result in a batch install ('pending' until the supplier answered for it). */
export type AppInstallStatus = 'pending' | 'installing' | 'installed' | 'failed' | 'skipped'

export const appInstallResults = pgTable(
  'app_install_results',
  {
    installId: bigint('install_id', { mode: 'number' })
      .notNull()
      .references(() => appInstalls.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    status: text('status').$type<AppInstallStatus>().notNull(),
    /** Why it failed or was skipped, in the words the page shows. */
    reason: text('reason'),
    /** The supplier's task for this phone while it installs (ACEP's TaskId), polled until it ends. */
    supplierTask: text('supplier_task'),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.installId, t.deviceId] }),
    index('app_install_results_open_idx')
      .on(t.installId, t.status)
      .where(sql`${t.status} in ('pending', 'installing')`),
  ],
)

/**
 * An app as a supplier holds it, for a supplier that installs only what it was given first (ACEP:
 * UploadApp from a URL of ours, then its AppId and VersionId name it in InstallApp). One per app and
 * supplier; 'uploading' until the supplier's task ends.
 */
export const appSupplierCopies = pgTable(
  'app_supplier_copies',
  {
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    supplier: text('supplier').notNull(),
    status: text('status').$type<'uploading' | 'ready' | 'failed'>().notNull(),
    supplierAppId: text('supplier_app_id'),
    supplierVersionId: text('supplier_version_id'),
    /** The supplier's upload task, polled until it ends. */
    taskId: text('task_id'),
    failReason: text('fail_reason'),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.supplier] })],
)
