/**
 * The console's 云手机 and 任务 pages (console/routes/devices.ts, under ADMIN_API_PREFIX): find phones,
 * one phone with its history, create a failed phone again, release a phone; failed and stuck jobs, put back
 * in the queue. Times are ms since epoch.
 */
import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Paged } from '../../contract/common'

const IdParam = Type.Integer({ minimum: 1, maximum: 2147483647 })

/**
 * GET /devices, newest first; every filter given must hold. `user`: a full 11-digit number or a user id.
 * `status`: DeviceStatus (src/domain/device-lifecycle.ts); without it released phones are listed too.
 */
export const DeviceSearchQuery = Type.Object({
  user: Type.Optional(Type.String({ pattern: '^\\s*\\d{1,11}\\s*$', maxLength: 16 })),
  deviceId: Type.Optional(IdParam),
  instanceId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
})
export type DeviceSearchQuery = Static<typeof DeviceSearchQuery>

export const AdminDeviceRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  userId: Type.Integer(),
  /** The owner's number; null once the account is deleted. */
  mobile: Nullable(Type.String()),
  /** The owner's nickname ('' when unset). */
  userName: Type.String(),
  status: Type.Integer(),
  /** An operation keeping the phone busy: changeZone, replace, systemUpdate. */
  busyOp: Nullable(Type.String()),
  goodId: Type.Integer(),
  goodsName: Type.String(),
  level: Type.Integer(),
  zoneId: Type.Integer(),
  zoneName: Type.String(),
  supplierInstanceId: Nullable(Type.String()),
  failReason: Nullable(Type.String()),
  expireAt: Type.Integer(),
  releasedAt: Nullable(Type.Integer()),
  createdAt: Type.Integer(),
})
export type AdminDeviceRow = Static<typeof AdminDeviceRow>
export const AdminDevicePage = Paged(AdminDeviceRow)
export type AdminDevicePage = Static<typeof AdminDevicePage>

export const DeviceIdParams = Type.Object({ id: IdParam })
export type DeviceIdParams = Static<typeof DeviceIdParams>

/** A job of the queue (jobs table): pending, running, done or failed. */
export const AdminJobRow = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  status: Type.String(),
  /** What the job works on, from its payload: 云手机 12, 订单 34, 退款 5, 备份任务 7; null for recurring jobs. */
  target: Nullable(Type.String()),
  /** The phone it works on, when it does (opens the phone's page). */
  deviceId: Nullable(Type.Integer()),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  runAt: Type.Integer(),
  /** The lease of a running job: another worker may take it after this. */
  lockedUntil: Nullable(Type.Integer()),
  createdAt: Type.Integer(),
  /** Failed, or running with a lease that ran out long ago: the 任务 page offers 重试. */
  retryable: Type.Boolean(),
})
export type AdminJobRow = Static<typeof AdminJobRow>

/** A backup or restore of the phone (space_tasks). */
export const AdminSpaceTask = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  status: Type.String(),
  failReason: Nullable(Type.String()),
  createdAt: Type.Integer(),
  finishedAt: Nullable(Type.Integer()),
})

/** The phone moved between accounts (device_transfers). */
export const AdminDeviceTransfer = Type.Object({
  id: Type.Integer(),
  fromUserId: Type.Integer(),
  /** Both users' number and nickname (null once gone). */
  fromMobile: Nullable(Type.String()),
  fromName: Nullable(Type.String()),
  toUserId: Type.Integer(),
  toMobile: Nullable(Type.String()),
  toName: Nullable(Type.String()),
  createdAt: Type.Integer(),
})

/** An operator's action on the phone (operator_audit). */
export const AdminDeviceAction = Type.Object({
  id: Type.Integer(),
  at: Type.Integer(),
  operatorName: Nullable(Type.String()),
  action: Type.String(),
  after: Type.Unknown(),
})

/** GET /devices/:id: the phone, its owner, and what has happened to it (newest first, the latest 50 of each). */
export const AdminDeviceDetail = Type.Object({
  device: Type.Composite([
    AdminDeviceRow,
    Type.Object({
      androidVersion: Type.String(),
      /** The order that bought it (0: given by a trial, an activation code or a test). */
      orderId: Nullable(Type.Integer()),
      /** That order's number (CP…), read with the phone; null without an order. */
      orderNo: Nullable(Type.String()),
      /** A new instance being created, before it takes over. */
      pendingInstanceId: Nullable(Type.String()),
      /** The supplier has released the instance of a released phone. */
      supplierReleased: Type.Boolean(),
      imageVersion: Nullable(Type.String()),
      model: Nullable(Type.String()),
    }),
  ]),
  owner: Type.Object({
    id: Type.Integer(),
    mobile: Nullable(Type.String()),
    name: Type.String(),
    frozen: Type.Boolean(),
  }),
  jobs: Type.Array(AdminJobRow),
  spaceTasks: Type.Array(AdminSpaceTask),
  transfers: Type.Array(AdminDeviceTransfer),
  actions: Type.Array(AdminDeviceAction),
})
export type AdminDeviceDetail = Static<typeof AdminDeviceDetail>

/** POST /devices/:id/release: why, for the audit log. */
export const ReleaseDeviceBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
})
export type ReleaseDeviceBody = Static<typeof ReleaseDeviceBody>

/** POST /devices/:id/reset (admin, operations): why the phone is reset, kept in the audit row. */
export const ResetDeviceBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
})
export type ResetDeviceBody = Static<typeof ResetDeviceBody>

/** GET /jobs: `failed` (attempts used up) or `stuck` (running, its lease ran out long ago). */
export const JobSearchQuery = Type.Object({
  state: Type.Optional(Type.Union([Type.Literal('failed'), Type.Literal('stuck')])),
  kind: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
})
export type JobSearchQuery = Static<typeof JobSearchQuery>
export const AdminJobPage = Paged(AdminJobRow)
export type AdminJobPage = Static<typeof AdminJobPage>

export const JobIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
})
export type JobIdParams = Static<typeof JobIdParams>
