import { eq } from 'drizzle-orm'
import { levelInfo } from '#domain/catalogue'
import {
  DeviceStatus,
  deviceStatusLabels,
  statusCommandRefusal,
  type DeviceStatus as DeviceStatusValue,
} from '#domain/device-lifecycle'
import { isDevicePermission } from '#domain/device-permissions'
import { maskPhone } from '#domain/formatters'
import type { SupplierAdapter } from '../../adapters/supplier/supplier-adapter'
import type { Device } from '../../contract/device'
import type { Db } from '../../db/client'
import {
  deviceAutoRenew,
  deviceGroups,
  devices,
  deviceStatuses,
  goods,
  zones,
  type DeviceBusyOp,
} from '../../db/schema'
import {
  autoRenewColumns,
  autoRenewOf,
  autoRenewState,
  type AutoRenewColumns,
} from './device-auto-renew'
import type { ShownDevice } from './device-list-query'
import type { ScreenPasses } from './screen-access'

/** A phone as the pages see it (a Device), and what a phone's state says about work on it. */

export type DeviceRow = typeof devices.$inferSelect

export const BUSY_TEXT: Record<DeviceBusyOp, string> = {
  changeZone: '正在更换地区，请稍后',
  replace: '正在更换云机，请稍后',
  systemUpdate: '正在更新系统，请稍后',
}

/** Why this phone refuses work now (status first, then an operation in progress); null when it can. */
export function refusal(device: Pick<DeviceRow, 'status' | 'busyOp'>): string | null {
  return statusCommandRefusal(device.status) ?? (device.busyOp ? BUSY_TEXT[device.busyOp] : null)
}

/** A phone with the names a Device shows: its goods, zone, group and status, and its 自动续费. */
export interface DeviceViewRow extends AutoRenewColumns {
  device: ShownDevice
  goodsName: string
  configName: string
  permissions: string[]
  zoneName: string
  groupName: string | null
  statusName: string | null
}

/** Phones with their goods, zone, group and status rows joined (one phone: add a where). */
export function selectDevices(db: Db) {
  return db
    .select({
      device: devices,
      goodsName: goods.name,
      configName: goods.configName,
      permissions: goods.permissions,
      zoneName: zones.name,
      groupName: deviceGroups.name,
      statusName: deviceStatuses.name,
      ...autoRenewColumns(devices.expireAt),
    })
    .from(devices)
    .innerJoin(goods, eq(goods.id, devices.goodId))
    .innerJoin(zones, eq(zones.id, devices.zoneId))
    .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
    .leftJoin(deviceStatuses, eq(deviceStatuses.status, devices.status))
    .leftJoin(deviceAutoRenew, autoRenewOf(devices.id, devices.userId))
}

/** A grant as a Device shows it to its grantee: the owner's mobile masked. */
export function shownGrant(grant: {
  permission: number
  expiresAt: Date
  ownerMobile: string | null
}): NonNullable<Device['grant']> {
  return {
    permission: grant.permission,
    expiresAt: grant.expiresAt.getTime(),
    ownerMobile: maskPhone(grant.ownerMobile ?? ''),
  }
}

export function toDevice(
  supplier: SupplierAdapter,
  row: DeviceViewRow,
  /** The grant the viewer sees the phone under; null for its owner. */
  grant: Device['grant'],
  /** The viewer's screen passes: the cover URL works for them only, and only for minutes. */
  passes: ScreenPasses,
): Device {
  const d = row.device
  const showsScreen =
    d.supplierInstanceId != null &&
    (d.status === DeviceStatus.running || d.status === DeviceStatus.rebooting)
  const model = d.model ? supplier.models().find((m) => m.modelId === d.model) : undefined
  return {
    deviceId: d.id,
    name: d.name,
    level: d.level,
    levelName: levelInfo(d.level)?.name ?? '',
    goodId: d.goodId,
    goodsName: row.goodsName,
    configName: row.configName,
    zoneId: d.zoneId,
    zoneName: row.zoneName,
    status: d.status,
    statusName: row.statusName ?? deviceStatusLabels[d.status as DeviceStatusValue] ?? '',
    androidVersion: d.androidVersion === 'H' ? 'H' : 'B',
    imageType: d.imageType,
    expireAt: d.expireAt.getTime(),
    // the owner's groups mean nothing to someone the phone is authorised to
    groupId: grant ? null : d.groupId,
    groupName: grant ? null : row.groupName,
    coverUrl: showsScreen
      ? supplier.coverUrl(
          d.supplierInstanceId!,
          d.coverUpdatedAt ?? d.createdAt,
          passes.query(d.supplierInstanceId!, d.id),
        )
      : null,
    coverUpdatedAt: d.coverUpdatedAt?.getTime() ?? null,
    permissions: row.permissions.filter(isDevicePermission),
    videoEdition: d.videoEdition,
    model: d.model,
    modelName: model?.name ?? d.model,
    imageVersion: d.imageVersion,
    busy: d.busyOp != null,
    busyOp: d.busyOp,
    busyText: d.busyOp ? BUSY_TEXT[d.busyOp] : null,
    failReason: d.failReason,
    createdAt: d.createdAt.getTime(),
    // the owner's business: what pays, and whether it failed
    autoRenew: grant ? null : autoRenewState(row),
    grant,
  }
}
