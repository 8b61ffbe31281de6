import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common'
import { ExpectedAmount, IdempotencyKey } from './order'

export const SpaceTaskKind = Type.Union([Type.Literal('backup'), Type.Literal('restore')])
export type SpaceTaskKind = Static<typeof SpaceTaskKind>

/** running → done | failed | interrupted (the supplier never finished; code 1072). */
export const SpaceTaskStatus = Type.Union([
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('failed'),
  Type.Literal('interrupted'),
])
export type SpaceTaskStatus = Static<typeof SpaceTaskStatus>

/** A backup or restore. A backup that is done (and not deleted) is stored and counts against the quota. */
export const SpaceTask = Type.Object({
  id: Type.Integer(),
  kind: SpaceTaskKind,
  status: SpaceTaskStatus,
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  /** For a restore: the backup restored. */
  backupId: Nullable(Type.Integer()),
  sizeBytes: Type.Integer(),
  /** Why it failed: 1027 backup failed, 1039 not enough space, 1072 interrupted. */
  failCode: Nullable(Type.Integer()),
  failReason: Nullable(Type.String()),
  deleted: Type.Boolean(),
  createdAt: Type.Integer(),
  finishedAt: Nullable(Type.Integer()),
})
export type SpaceTask = Static<typeof SpaceTask>

export const SpaceDeviceUsage = Type.Object({
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  usedBytes: Type.Integer(),
  backupCount: Type.Integer(),
})
export type SpaceDeviceUsage = Static<typeof SpaceDeviceUsage>

/** Space bought with a paid space order, counted in the quota until it expires. */
export const SpaceGrant = Type.Object({
  id: Type.Integer(),
  bytes: Type.Integer(),
  createdAt: Type.Integer(),
  expiresAt: Type.Integer(),
})
export type SpaceGrant = Static<typeof SpaceGrant>

export const SpaceInfo = Type.Object({
  /** The free 2 GB plus every unexpired grant. */
  quotaBytes: Type.Integer(),
  usedBytes: Type.Integer(),
  /** Unexpired bought space, soonest to expire first. */
  grants: Type.Array(SpaceGrant),
  /** Phones with stored backups, most used first. */
  devices: Type.Array(SpaceDeviceUsage),
})
export type SpaceInfo = Static<typeof SpaceInfo>

export const DeviceIdQuery = Type.Object({ deviceId: Type.Integer({ minimum: 1 }) })
export type DeviceIdQuery = Static<typeof DeviceIdQuery>

/** One phone's data centre: its backups (failed ones too, until deleted) and the task running now. */
export const DeviceSpace = Type.Object({
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  quotaBytes: Type.Integer(),
  usedBytes: Type.Integer(),
  backups: Type.Array(SpaceTask),
  running: Nullable(SpaceTask),
  /** The latest restore onto this phone (to show how it ended). */
  lastRestore: Nullable(SpaceTask),
})
export type DeviceSpace = Static<typeof DeviceSpace>

export const BackupBody = Type.Object({ deviceId: Type.Integer({ minimum: 1 }) })
export type BackupBody = Static<typeof BackupBody>

export const RestoreBody = Type.Object({
  backupId: Type.Integer({ minimum: 1 }),
  deviceId: Type.Integer({ minimum: 1 }),
})
export type RestoreBody = Static<typeof RestoreBody>

export const DeleteBackupBody = Type.Object({ backupId: Type.Integer({ minimum: 1 }) })
export type DeleteBackupBody = Static<typeof DeleteBackupBody>

export const SpaceTaskQuery = Type.Object({ id: Type.Integer({ minimum: 1 }) })
export type SpaceTaskQuery = Static<typeof SpaceTaskQuery>

export const SpaceHistoryQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  kind: Type.Optional(SpaceTaskKind),
})
export type SpaceHistoryQuery = Static<typeof SpaceHistoryQuery>

/** A space package on sale (price in fen): `bytes` more space for `days` days. */
export const SpacePackage = Type.Object({
  id: Type.Integer(),
  bytes: Type.Integer(),
  days: Type.Integer(),
  price: Type.Integer(),
})
export type SpacePackage = Static<typeof SpacePackage>

export const SpacePackages = Type.Object({ packages: Type.Array(SpacePackage) })
export type SpacePackages = Static<typeof SpacePackages>

export const CreateSpaceOrderBody = Type.Object({
  packageId: Type.Integer({ minimum: 1 }),
  expectedAmount: ExpectedAmount,
  idempotencyKey: IdempotencyKey,
  couponId: Type.Optional(Type.Integer({ minimum: 1 })),
})
export type CreateSpaceOrderBody = Static<typeof CreateSpaceOrderBody>
