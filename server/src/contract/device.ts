import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common'
import { AndroidVersion, DevicePermission } from './goods'
import { AutoRenewState } from './auto-renew'

export const DeviceId = Type.Integer({ minimum: 1 })

/** SPEC device commands. */
export const DeviceCommandName = Type.Union([
  Type.Literal('DeepCleanVm'),
  Type.Literal('CleanVm'),
  Type.Literal('CleanMem'),
  Type.Literal('Reboot'),
  Type.Literal('OpenUrl'),
  Type.Literal('GetVmCover'),
  Type.Literal('Uninstall'),
])

/** One phone as lists and pages show it; times are epoch ms, coverUrl a server path or URL. */
export const Device = Type.Object({
  deviceId: Type.Integer(),
  name: Type.String(),
  level: Type.Integer(),
  levelName: Type.String(),
  goodId: Type.Integer(),
  goodsName: Type.String(),
  configName: Type.String(),
  zoneId: Type.Integer(),
  zoneName: Type.String(),
  /** 0 创建中, 1 运行中, 2 已到期, 3 已释放, 4 重启中, 5 创建失败 */
  status: Type.Integer({ minimum: 0, maximum: 5 }),
  statusName: Type.String(),
  androidVersion: AndroidVersion,
  imageType: Type.Integer({ minimum: 1, maximum: 3 }),
  expireAt: Type.Integer(),
  groupId: Nullable(Type.Integer()),
  groupName: Nullable(Type.String()),
  coverUrl: Nullable(Type.String()),
  coverUpdatedAt: Nullable(Type.Integer()),
  /** From the goods: which configuration operations the phone allows. */
  permissions: Type.Array(DevicePermission),
  videoEdition: Type.Boolean(),
  model: Nullable(Type.String()),
  modelName: Nullable(Type.String()),
  imageVersion: Nullable(Type.String()),
  /** An operation in progress (zone change, replacement, system update): commands wait. */
  busy: Type.Boolean(),
  busyOp: Nullable(
    Type.Union([Type.Literal('changeZone'), Type.Literal('replace'), Type.Literal('systemUpdate')]),
  ),
  busyText: Nullable(Type.String()),
  /** Why creating (or the last replacement) failed. */
  failReason: Nullable(Type.String()),
  createdAt: Type.Integer(),
  /** 自动续费, shown to the owner only (null for a phone authorised to me, and when off). */
  autoRenew: Nullable(AutoRenewState),
  /** Set when someone else authorised this phone to me (authorisation center); null for my own. */
  grant: Nullable(
    Type.Object({
      /** 1 view, 2 control */
      permission: Type.Integer(),
      expiresAt: Type.Integer(),
      /** the owner, masked */
      ownerMobile: Type.String(),
    }),
  ),
})
export type Device = Static<typeof Device>

export const DeviceListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  /** 0 = 未分组 (no group). */
  groupId: Type.Optional(Type.Integer({ minimum: 0 })),
  /** 0 all, 1 安卓10/B, 2 安卓10/H */
  version: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  /** Part of the name, or the phone's id. */
  keyword: Type.Optional(Type.String({ maxLength: 40 })),
  /** Released phones are listed only when asked for with status 3. */
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
})
export type DeviceListQuery = Static<typeof DeviceListQuery>

export const DeviceIdQuery = Type.Object({ deviceId: DeviceId })
export type DeviceIdQuery = Static<typeof DeviceIdQuery>
export const DeviceIdBody = DeviceIdQuery

export const StatusCount = Type.Object({
  status: Type.Integer(),
  name: Type.String(),
  count: Type.Integer(),
})

export const DeviceSummary = Type.Object({
  /** Phones not released. */
  total: Type.Integer(),
  byStatus: Type.Array(StatusCount),
  /** Running with less than 3 days left. */
  expiringSoon: Type.Integer(),
  ungrouped: Type.Integer(),
  groups: Type.Array(
    Type.Object({ groupId: Type.Integer(), name: Type.String(), count: Type.Integer() }),
  ),
})
export type DeviceSummary = Static<typeof DeviceSummary>

export const RenameDeviceBody = Type.Object({
  deviceId: DeviceId,
  name: Type.String({ maxLength: 200 }),
})
export type RenameDeviceBody = Static<typeof RenameDeviceBody>

export const DeviceCommandBody = Type.Object({
  deviceId: DeviceId,
  command: DeviceCommandName,
  /** OpenUrl: http(s) address. */
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  /** Uninstall: the app's package name. */
  packageName: Type.Optional(Type.String({ maxLength: 200 })),
})
export type DeviceCommandBody = Static<typeof DeviceCommandBody>

export const BatchCommandBody = Type.Object({
  /** At most 500 (checked with a clear message). */
  deviceIds: Type.Array(Type.Integer(), { maxItems: 1000 }),
  command: DeviceCommandName,
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  packageName: Type.Optional(Type.String({ maxLength: 200 })),
})
export type BatchCommandBody = Static<typeof BatchCommandBody>

export const CommandResult = Type.Object({
  deviceId: Type.Integer(),
  ok: Type.Boolean(),
  msg: Type.String(),
})
export type CommandResult = Static<typeof CommandResult>

export const DeviceCover = Type.Object({ url: Type.String(), updatedAt: Type.Integer() })
export type DeviceCover = Static<typeof DeviceCover>

export const ChangeZoneBody = Type.Object({ deviceId: DeviceId, zoneId: Type.Integer() })
export type ChangeZoneBody = Static<typeof ChangeZoneBody>

export const SystemUpdateProgress = Type.Object({
  deviceId: Type.Integer(),
  updating: Type.Boolean(),
  /** 0–100 */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  imageVersion: Nullable(Type.String()),
  latestVersion: Type.String(),
  /** False when the phone already has the latest version. */
  updateAvailable: Type.Boolean(),
})
export type SystemUpdateProgress = Static<typeof SystemUpdateProgress>

export const DeviceModel = Type.Object({
  modelId: Type.String(),
  name: Type.String(),
  brand: Type.String(),
})
export type DeviceModel = Static<typeof DeviceModel>

export const SetModelBody = Type.Object({
  deviceId: DeviceId,
  modelId: Type.String({ maxLength: 64 }),
})
export type SetModelBody = Static<typeof SetModelBody>

export const AuthTokenResult = Type.Object({
  authToken: Type.String(),
  /** Epoch ms; the token works once, until then. */
  expiresAt: Type.Integer(),
  /** The supplier's control page with token, userId, userType 2, isWeb 1 and deviceId. */
  controlUrl: Type.String(),
})
export type AuthTokenResult = Static<typeof AuthTokenResult>
