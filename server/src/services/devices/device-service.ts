import { and, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import type { CommandResult } from '#domain/batch-results'
import { DeviceStatus, deviceStatusLabels, isExpiringSoon } from '#domain/device-lifecycle'
import type {
  Device,
  DeviceCommandBody,
  DeviceCover,
  DeviceListQuery,
  DeviceSummary,
  SystemUpdateProgress,
} from '../../contract/device'
import { deviceGroups, devices } from '../../db/schema'
import { normalisePage, toPaged } from '../../domain/paging'
import type { ServiceContext } from '../context'
import type { DeviceAccessService } from './device-access'
import type { DeviceCommandService } from './device-commands'
import { DeviceListCache, listPageKey } from './device-list-cache'
import { DeviceListQueries, type ListedPhone } from './device-list-query'
import type { DeviceOperationService } from './device-operations'
import { shownGrant, toDevice } from './device-view'
import type { ReferenceDataService } from '../catalogue/reference-data'
import type { ScreenAccessService } from './screen-access'

/**
 * A user's phones, as the device routes call them: the list, one phone, the summary and the control
 * page's state here; who may touch which phone in DeviceAccessService (device-access.ts); commands sent to
 * the supplier in DeviceCommandService (device-commands.ts); the owner's changes (name, zone, replacement,
 * system, model) in DeviceOperationService (device-operations.ts); a phone as the pages see it in
 * device-view.ts. Every call checks ownership or a grant.
 */
export class DeviceService {
  private readonly listQueries: DeviceListQueries
  private readonly listPages = new DeviceListCache()

  constructor(
    private readonly ctx: ServiceContext,
    private readonly access: DeviceAccessService,
    private readonly commands: DeviceCommandService,
    private readonly operations: DeviceOperationService,
    private readonly reference: ReferenceDataService,
    private readonly screens: ScreenAccessService,
  ) {
    this.listQueries = new DeviceListQueries(ctx.db)
  }

  /**
   * /device/list as JSON: the page kept from an earlier call while nothing it shows has changed
   * (DeviceListCache), else read now and kept.
   */
  async listJson(userId: number, query: DeviceListQuery): Promise<Buffer> {
    const key = listPageKey(userId, query)
    const [version, known] = await Promise.all([
      this.listQueries.version(userId),
      this.reference.get(this.ctx.db),
    ])
    const kept = this.listPages.find(key, version, known, this.ctx.clock.now().getTime())
    if (kept) return kept
    const { paged, ...read } = await this.readList(userId, query)
    const json = Buffer.from(JSON.stringify(paged))
    this.listPages.keep(key, { ...read, json })
    return json
  }

  /** One query per page: the phones, the grant each is listed under, and the total. */
  async list(userId: number, query: DeviceListQuery) {
    return (await this.readList(userId, query)).paged
  }

  private async readList(userId: number, query: DeviceListQuery) {
    const { page, rows, offset } = normalisePage({ page: query.page, rows: query.rows ?? 20 })
    const [listed, known, passes] = await Promise.all([
      this.listQueries.page(userId, query, this.ctx.clock.now(), rows, offset),
      this.reference.get(this.ctx.db),
      this.screens.passes(userId),
    ])
    const { phones, total, version, nextGrantExpiry } = listed
    // a goods or zone added since the reference data was read
    const isNew = (phone: ListedPhone) =>
      !known.goods.has(phone.goodId) || !known.zoneNames.has(phone.zoneId)
    const reference = phones.some(isNew) ? await this.reference.refresh(this.ctx.db) : known
    const paged = toPaged(
      phones.map((phone) => {
        const bought = reference.goods.get(phone.goodId)
        if (!bought) throw new Error(`device ${phone.id}: goods ${phone.goodId} does not exist`)
        return toDevice(
          this.ctx.supplier,
          {
            device: phone,
            goodsName: bought.name,
            configName: bought.configName,
            permissions: bought.permissions,
            zoneName: reference.zoneNames.get(phone.zoneId) ?? '',
            groupName: phone.groupName,
            statusName: reference.statusNames.get(phone.status) ?? null,
            autoRenewDays: phone.autoRenewDays,
            autoRenewPayMethod: phone.autoRenewPayMethod,
            autoRenewFailure: phone.autoRenewFailure,
          },
          phone.grantPermission == null
            ? null
            : shownGrant({
                permission: phone.grantPermission,
                expiresAt: phone.grantExpiresAt!,
                ownerMobile: phone.ownerMobile,
              }),
          passes,
        )
      }),
      page,
      rows,
      total,
    )
    // a kept page never hands out a screen URL that is about to end
    const coversUntil = paged.records.some((d) => d.coverUrl)
      ? passes.freshUntil
      : Number.POSITIVE_INFINITY
    return {
      paged,
      version,
      reference,
      until: Math.min(nextGrantExpiry?.getTime() ?? Number.POSITIVE_INFINITY, coversUntil),
    }
  }

  async detail(userId: number, deviceId: number): Promise<Device> {
    const { row, grant } = await this.access.accessible(userId, deviceId, 'view')
    return toDevice(this.ctx.supplier, row, grant, await this.screens.passes(userId))
  }

  async summary(userId: number): Promise<DeviceSummary> {
    const mine = and(eq(devices.userId, userId), ne(devices.status, DeviceStatus.released))
    const byStatus = await this.ctx.db
      .select({ status: devices.status, count: count() })
      .from(devices)
      .where(mine)
      .groupBy(devices.status)
    const live = await this.ctx.db
      .select({ status: devices.status, expireAt: devices.expireAt, createdAt: devices.createdAt })
      .from(devices)
      .where(
        and(
          mine,
          inArray(devices.status, [DeviceStatus.running, DeviceStatus.rebooting]),
          sql`${devices.expireAt} < ${new Date(this.ctx.clock.now().getTime() + 3 * 86_400_000)}`,
        ),
      )
    const now = this.ctx.clock.now().getTime()
    const byGroup = await this.ctx.db
      .select({ groupId: deviceGroups.id, name: deviceGroups.name, count: count(devices.id) })
      .from(deviceGroups)
      .leftJoin(devices, and(eq(devices.groupId, deviceGroups.id), mine))
      .where(eq(deviceGroups.userId, userId))
      .groupBy(deviceGroups.id)
      .orderBy(deviceGroups.sort, deviceGroups.id)
    const [{ ungrouped }] = await this.ctx.db
      .select({ ungrouped: count() })
      .from(devices)
      .where(and(mine, isNull(devices.groupId)))
    const statuses = Object.entries(deviceStatusLabels).filter(
      ([status]) => Number(status) !== DeviceStatus.released,
    )
    return {
      total: byStatus.reduce((sum, row) => sum + row.count, 0),
      byStatus: statuses.map(([status, name]) => ({
        status: Number(status),
        name,
        count: byStatus.find((row) => row.status === Number(status))?.count ?? 0,
      })),
      expiringSoon: live.filter((d) =>
        isExpiringSoon(
          { status: d.status, expireAt: d.expireAt.getTime(), createdAt: d.createdAt.getTime() },
          now,
        ),
      ).length,
      ungrouped,
      groups: byGroup,
    }
  }

  /** For the control page: the phone as the page shows it, and its current supplier instance. */
  async controlState(userId: number, deviceId: number) {
    // 'view': a 仅查看 grantee's control page watches; its keys and commands are refused by the session
    // (routes/supplier-control-routes.ts) and by `command` below
    const { row, grant } = await this.access.accessible(userId, deviceId, 'view')
    const passes = await this.screens.passes(userId)
    const device = toDevice(this.ctx.supplier, row, grant, passes)
    const instanceId = row.device.supplierInstanceId
    return {
      device,
      instanceId,
      screenPass: instanceId ? passes.query(instanceId, deviceId) : null,
    }
  }

  /** Whether the user may open the phone's control page: its owner, or authorised to control it. */
  async mayControl(userId: number, deviceId: number): Promise<boolean> {
    return this.access.accessible(userId, deviceId, 'control').then(
      () => true,
      () => false,
    )
  }

  models() {
    return this.ctx.supplier.models()
  }

  // ---- commands (device-commands.ts) ----

  command(userId: number, body: DeviceCommandBody): Promise<CommandResult> {
    return this.commands.command(userId, body)
  }

  batchCommand(
    userId: number,
    body: Parameters<DeviceCommandService['batchCommand']>[1],
  ): Promise<CommandResult[]> {
    return this.commands.batchCommand(userId, body)
  }

  cover(userId: number, deviceId: number): Promise<DeviceCover> {
    return this.commands.cover(userId, deviceId)
  }

  // ---- the owner's changes (device-operations.ts), each answered with the phone as it now is ----

  async rename(userId: number, deviceId: number, name: string): Promise<Device> {
    await this.operations.rename(userId, deviceId, name)
    return this.detail(userId, deviceId)
  }

  async changeZone(userId: number, deviceId: number, zoneId: number): Promise<Device> {
    await this.operations.changeZone(userId, deviceId, zoneId)
    return this.detail(userId, deviceId)
  }

  async replace(userId: number, deviceId: number): Promise<Device> {
    await this.operations.replace(userId, deviceId)
    return this.detail(userId, deviceId)
  }

  async setModel(userId: number, deviceId: number, modelId: string): Promise<Device> {
    await this.operations.setModel(userId, deviceId, modelId)
    return this.detail(userId, deviceId)
  }

  systemUpdate(userId: number, deviceId: number): Promise<SystemUpdateProgress> {
    return this.operations.systemUpdate(userId, deviceId)
  }

  systemUpdateProgress(userId: number, deviceId: number): Promise<SystemUpdateProgress> {
    return this.operations.systemUpdateProgress(userId, deviceId)
  }
}
