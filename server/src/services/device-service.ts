import { and, count, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm'
import { validateBatchSelection, type CommandResult } from '#domain/batch-results'
import { levelInfo } from '#domain/catalogue'
import {
  DeviceStatus,
  deviceStatusLabels,
  isExpiringSoon,
  statusCommandRefusal,
  type DeviceStatus as DeviceStatusValue,
} from '#domain/device-lifecycle'
import { canDo, isDevicePermission, type DeviceAction } from '#domain/device-permissions'
import { DeviceCommand } from '#domain/enums'
import { grantAllows } from '#domain/grants'
import { ResultCode } from '#domain/result-codes'
import { validateDeviceName, validatePackageName } from '#domain/validators'
import type {
  Device,
  DeviceCommandBody,
  DeviceCover,
  DeviceListQuery,
  DeviceSummary,
  SystemUpdateProgress,
} from '../contract/device'
import type { CommandOutcome } from '../adapters/supplier/supplier-adapter'
import type { Db } from '../db/client'
import {
  deviceGroups,
  devices,
  deviceStatuses,
  goods,
  zones,
  type DeviceBusyOp,
} from '../db/schema'
import { BizError } from '../domain/biz-error'
import { maskPhone } from '#domain/formatters'
import { normalisePage, toPaged } from '../domain/paging'
import type { ServiceContext } from './context'
import { deviceNotFound, type FleetService } from './fleet-service'
import type { GoodsService } from './goods-service'
import { DeviceListCache, listPageKey } from './device-list-cache'
import { DeviceListQueries, type ListedPhone, type ShownDevice } from './device-list-query'
import type { GrantService } from './grant-service'
import { lockPlans, refuseWhilePlanOrderOpen } from './plan-orders'
import type { ReferenceData } from './reference-data'
import type { ScreenAccess, ScreenPasses } from './screen-access'

type DeviceRow = typeof devices.$inferSelect

export const BUSY_TEXT: Record<DeviceBusyOp, string> = {
  changeZone: '正在更换地区，请稍后',
  replace: '正在更换云机，请稍后',
  systemUpdate: '正在更新系统，请稍后',
}

const tip = (msg: string) => new BizError(ResultCode.SHOW_ERROR_TIPS, msg)
/** A grantee with view permission asking to control the phone. */
export const VIEW_ONLY = '该云手机仅授权您查看，无法操作'

/** A name checked by the shared rule (the client's form says the same), trimmed. */
export function checkName(raw: string, validate: (value: string) => string | null): string {
  const problem = validate(raw)
  if (problem) throw tip(problem)
  return raw.trim()
}

/** The arguments a command needs, checked before any phone is touched. */
function checkCommandArgs(body: { command: string; url?: string; packageName?: string }) {
  if (body.command === DeviceCommand.OpenUrl) {
    let ok = false
    try {
      const url = new URL(body.url?.trim() ?? '')
      ok = url.protocol === 'http:' || url.protocol === 'https:'
    } catch {
      ok = false
    }
    if (!ok) throw tip('请输入以 http:// 或 https:// 开头的网址')
    return { command: body.command, url: body.url!.trim() }
  }
  if (body.command === DeviceCommand.Uninstall) {
    const packageName = body.packageName?.trim() ?? ''
    const problem = validatePackageName(packageName)
    if (problem) throw tip(problem)
    return { command: body.command, packageName }
  }
  return { command: body.command as DeviceCommand }
}

/** Why this phone refuses work now (status first, then an operation in progress); null when it can. */
export function refusal(device: Pick<DeviceRow, 'status' | 'busyOp'>): string | null {
  return statusCommandRefusal(device.status) ?? (device.busyOp ? BUSY_TEXT[device.busyOp] : null)
}

const listColumns = {
  device: devices,
  goodsName: goods.name,
  configName: goods.configName,
  permissions: goods.permissions,
  zoneName: zones.name,
  groupName: deviceGroups.name,
  statusName: deviceStatuses.name,
}

/** A user's phones: list, detail, commands and operations. Every call checks ownership. */
export class DeviceService {
  private readonly listQueries: DeviceListQueries
  private readonly listPages = new DeviceListCache()

  constructor(
    private readonly ctx: ServiceContext,
    private readonly fleet: FleetService,
    private readonly goodsService: GoodsService,
    private readonly grants: GrantService,
    private readonly reference: ReferenceData,
    private readonly screens: ScreenAccess,
  ) {
    this.listQueries = new DeviceListQueries(ctx.db)
  }

  private get supplier() {
    return this.ctx.supplier
  }

  private select(db: Db) {
    return db
      .select(listColumns)
      .from(devices)
      .innerJoin(goods, eq(goods.id, devices.goodId))
      .innerJoin(zones, eq(zones.id, devices.zoneId))
      .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
      .leftJoin(deviceStatuses, eq(deviceStatuses.status, devices.status))
  }

  private toDevice(
    row: {
      device: ShownDevice
      goodsName: string
      configName: string
      permissions: string[]
      zoneName: string
      groupName: string | null
      statusName: string | null
    },
    grant: Device['grant'],
    /** The viewer's screen passes: the cover URL works for them only, and only for minutes. */
    passes: ScreenPasses,
  ): Device {
    const d = row.device
    const showsScreen =
      d.supplierInstanceId != null &&
      (d.status === DeviceStatus.running || d.status === DeviceStatus.rebooting)
    const model = d.model ? this.supplier.models().find((m) => m.modelId === d.model) : undefined
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
        ? this.supplier.coverUrl(
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
      grant,
    }
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
        return this.toDevice(
          {
            device: phone,
            goodsName: bought.name,
            configName: bought.configName,
            permissions: bought.permissions,
            zoneName: reference.zoneNames.get(phone.zoneId) ?? '',
            groupName: phone.groupName,
            statusName: reference.statusNames.get(phone.status) ?? null,
          },
          phone.grantPermission == null
            ? null
            : {
                permission: phone.grantPermission,
                expiresAt: phone.grantExpiresAt!.getTime(),
                ownerMobile: maskPhone(phone.ownerMobile ?? ''),
              },
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

  /** The user's phone, or 1031 (also for someone else's phone: its existence is not revealed). */
  private async owned(userId: number, deviceId: number, db: Db) {
    const [row] = await this.select(db).where(
      and(eq(devices.id, deviceId), eq(devices.userId, userId)),
    )
    if (!row) throw deviceNotFound()
    return row
  }

  /** What is authorised to the user now, by phone (the grant as a Device shows it). */
  private async grantedTo(userId: number): Promise<Map<number, NonNullable<Device['grant']>>> {
    const rows = await this.grants.grantsTo(userId, this.ctx.db)
    return new Map(
      rows.map((g) => [
        g.deviceId,
        {
          permission: g.permission,
          expiresAt: g.expiresAt.getTime(),
          ownerMobile: maskPhone(g.ownerMobile ?? ''),
        },
      ]),
    )
  }

  /**
   * The phone if it is the user's, or authorised to the user now with at least `need`; released or
   * neither: the same refusal as an unknown phone. Returns the grant (null for the owner).
   */
  private async accessible(userId: number, deviceId: number, need: 'view' | 'control') {
    const [row] = await this.select(this.ctx.db).where(eq(devices.id, deviceId))
    if (!row) throw deviceNotFound()
    if (row.device.userId === userId)
      return { row: await this.live(userId, deviceId, this.ctx.db), grant: null }
    const grant = (await this.grantedTo(userId)).get(deviceId)
    if (!grant || row.device.status === DeviceStatus.released) throw deviceNotFound()
    if (!grantAllows(grant.permission, need)) throw tip(VIEW_ONLY)
    return { row, grant }
  }

  /** The user's phone unless released (云手机已释放). */
  private async live(userId: number, deviceId: number, db: Db) {
    const row = await this.owned(userId, deviceId, db)
    if (row.device.status === DeviceStatus.released) {
      throw tip(statusCommandRefusal(DeviceStatus.released)!)
    }
    return row
  }

  /** The user's phone, which must offer `action` now (status, busy, goods permissions). */
  private async ready(userId: number, deviceId: number, action: DeviceAction, notAllowed: string) {
    const row = await this.live(userId, deviceId, this.ctx.db)
    const d = row.device
    const why = action === 'replace' && d.status === DeviceStatus.failed ? null : refusal(d) // a failed phone is replaced
    if (why) throw tip(why)
    const input = {
      status: d.status,
      permissions: row.permissions.filter(isDevicePermission),
      videoEdition: d.videoEdition,
    }
    if (!canDo(input, action)) throw tip(notAllowed)
    return row
  }

  async detail(userId: number, deviceId: number): Promise<Device> {
    const { row, grant } = await this.accessible(userId, deviceId, 'view')
    return this.toDevice(row, grant, await this.screens.passes(userId))
  }

  async summary(userId: number): Promise<DeviceSummary> {
    const mine = and(eq(devices.userId, userId), ne(devices.status, DeviceStatus.released))
    const byStatus = await this.ctx.db
      .select({ status: devices.status, count: count() })
      .from(devices)
      .where(mine)
      .groupBy(devices.status)
    const live = await this.ctx.db
      .select({ status: devices.status, expireAt: devices.expireAt })
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
        isExpiringSoon({ status: d.status, expireAt: d.expireAt.getTime() }, now),
      ).length,
      ungrouped,
      groups: byGroup,
    }
  }

  async rename(userId: number, deviceId: number, rawName: string): Promise<Device> {
    const name = checkName(rawName, validateDeviceName)
    const { device } = await this.live(userId, deviceId, this.ctx.db)
    await this.ctx.db.update(devices).set({ name }).where(eq(devices.id, deviceId))
    if (device.supplierInstanceId) {
      const instanceId = device.supplierInstanceId
      await this.tellSupplier(device, () => this.supplier.rename(instanceId, name))
    }
    return this.detail(userId, deviceId)
  }

  /** One command on one phone; a refusal or a supplier failure is an error with its reason. */
  async command(userId: number, body: DeviceCommandBody): Promise<CommandResult> {
    const request = checkCommandArgs(body)
    const { row } = await this.accessible(userId, body.deviceId, 'control')
    const [{ refusal, ...result }] = await this.runCommand([row.device], request)
    if (refusal === 'appNotFound') throw new BizError(ResultCode.APP_DOES_NOT_EXIST, result.msg)
    if (!result.ok) throw tip(result.msg)
    return result
  }

  /** The same command on up to 500 phones, one result each (missing or others' phones fail alone). */
  async batchCommand(
    userId: number,
    body: { deviceIds: number[]; command: string; url?: string; packageName?: string },
  ): Promise<CommandResult[]> {
    const problem = validateBatchSelection(body.deviceIds)
    if (problem) throw tip(problem)
    const request = checkCommandArgs(body)
    const ids = [...new Set(body.deviceIds)]
    const controlled = [...(await this.grantedTo(userId))]
      .filter(([, grant]) => grantAllows(grant.permission, 'control'))
      .map(([deviceId]) => deviceId)
    const rows = await this.ctx.db
      .select()
      .from(devices)
      .where(
        and(
          inArray(devices.id, ids),
          or(eq(devices.userId, userId), inArray(devices.id, [...controlled, 0])),
        ),
      )
    // a batch answers each phone's refusal as its text
    const results = new Map(
      (await this.runCommand(rows, request)).map(({ refusal: _, ...result }) => [
        result.deviceId,
        result,
      ]),
    )
    return ids.map(
      (id) => results.get(id) ?? { deviceId: id, ok: false, msg: deviceNotFound().message },
    )
  }

  /**
   * Sends the command to each phone that accepts it, then records what it did for all of them at
   * once: rebooting phones (with their sync jobs) in one transaction, a fresh screen time otherwise.
   */
  private async runCommand(
    rows: DeviceRow[],
    request: ReturnType<typeof checkCommandArgs>,
  ): Promise<(CommandResult & Pick<CommandOutcome, 'refusal'>)[]> {
    const results: (CommandResult & Pick<CommandOutcome, 'refusal'>)[] = []
    for (const device of rows) {
      const why = refusal(device)
      if (why || !device.supplierInstanceId) {
        results.push({ deviceId: device.id, ok: false, msg: why ?? '云手机未就绪，请稍后再试' })
        continue
      }
      let outcome
      try {
        outcome = await this.supplier.command(device.supplierInstanceId, request)
      } catch (error) {
        this.ctx.log.error({ err: error, deviceId: device.id }, 'supplier command failed')
        outcome = { ok: false, msg: '云手机响应超时，请重试' }
      }
      results.push({ deviceId: device.id, ...outcome })
    }
    const done = results.filter((r) => r.ok).map((r) => r.deviceId)
    if (done.length === 0) return results
    if (request.command === DeviceCommand.Reboot) {
      await this.ctx.db.transaction(async (tx) => {
        const rebooting = await tx
          .update(devices)
          .set({ status: DeviceStatus.rebooting, opSeq: sql`${devices.opSeq} + 1` })
          .where(and(inArray(devices.id, done), eq(devices.status, DeviceStatus.running)))
          .returning({ deviceId: devices.id, opSeq: devices.opSeq })
        await this.fleet.enqueueSyncs(tx, rebooting)
      })
    } else {
      await this.ctx.db
        .update(devices)
        .set({ coverUpdatedAt: this.ctx.clock.now() })
        .where(inArray(devices.id, done))
    }
    return results
  }

  /** GetVmCover: a fresh screen image of a running (or rebooting) phone. */
  async cover(userId: number, deviceId: number): Promise<DeviceCover> {
    const { device } = (await this.accessible(userId, deviceId, 'view')).row
    // A rebooting phone has a screen too (its boot screen); other states have none.
    const why =
      device.status === DeviceStatus.rebooting ? null : statusCommandRefusal(device.status)
    if (why || !device.supplierInstanceId) throw tip(why ?? '云手机未就绪，请稍后再试')
    const passes = await this.screens.passes(userId)
    const cover = await this.supplier.cover(
      device.supplierInstanceId,
      passes.query(device.supplierInstanceId, device.id),
    )
    await this.ctx.db
      .update(devices)
      .set({ coverUpdatedAt: cover.updatedAt })
      .where(eq(devices.id, deviceId))
    return { url: cover.url, updatedAt: cover.updatedAt.getTime() }
  }

  /**
   * Moves a running phone to another zone: a unit of the new zone is taken (none → 1017) and the old
   * one given back in one transaction; the supplier migrates the data and the phone is busy meanwhile.
   */
  async changeZone(userId: number, deviceId: number, zoneId: number): Promise<Device> {
    const { device } = await this.ready(userId, deviceId, 'changeZone', '该云手机不支持更换地区')
    const zone = await this.goodsService.getZone(zoneId, this.ctx.db)
    if (!zone) throw tip('所选地区不存在')
    if (zoneId === device.zoneId) throw tip('云手机已在该地区，无需更换')
    await this.ctx.db.transaction(async (tx) => {
      // The phone as read above, unchanged (its goods decide which stock moves) and with no plan
      // order priced for its zone waiting to be paid.
      const plans = await lockPlans(tx, [deviceId], userId)
      if (plans[deviceId] !== device.planVersion) throw tip('云手机状态已变化，请刷新后重试')
      await refuseWhilePlanOrderOpen(tx, [deviceId])
      const reserved = await this.goodsService.reserveStock(tx, device.goodId, zoneId, 1)
      if (!reserved)
        throw new BizError(ResultCode.CLOUD_OUT_OF_STOCK, '所选地区库存不足，请选择其他地区')
      await this.goodsService.returnStock(tx, device.goodId, device.zoneId, 1)
      await this.startBusy(tx, device, 'changeZone', { zoneId })
    })
    await this.tellSupplier(device, () =>
      this.supplier.changeZone(device.supplierInstanceId!, zoneId),
    )
    return this.detail(userId, deviceId)
  }

  /** A new supplier instance for a running (data kept) or failed phone; same id, expiry and group. */
  async replace(userId: number, deviceId: number): Promise<Device> {
    const { device } = await this.ready(userId, deviceId, 'replace', '该云手机暂不能更换')
    await this.ctx.db.transaction(async (tx) => {
      const failed = device.status === DeviceStatus.failed
      const [row] = await tx
        .update(devices)
        .set({
          ...(failed ? { status: DeviceStatus.creating } : { busyOp: 'replace' as const }),
          pendingInstanceId: null,
          failReason: null,
          opSeq: sql`${devices.opSeq} + 1`,
        })
        .where(and(eq(devices.id, device.id), eq(devices.opSeq, device.opSeq)))
        .returning({ opSeq: devices.opSeq })
      if (!row) throw tip('云手机状态已变化，请刷新后重试')
      await this.fleet.enqueueProvision(tx, device.id, row.opSeq)
    })
    return this.detail(userId, deviceId)
  }

  async systemUpdate(userId: number, deviceId: number): Promise<SystemUpdateProgress> {
    const { device } = await this.ready(userId, deviceId, 'systemUpdate', '该云手机暂不能更新系统')
    if (device.imageVersion === this.supplier.latestImageVersion()) {
      throw tip('已是最新系统版本，无需更新')
    }
    await this.ctx.db.transaction((tx) => this.startBusy(tx, device, 'systemUpdate', {}))
    await this.tellSupplier(device, () => this.supplier.systemUpdate(device.supplierInstanceId!))
    return this.systemUpdateProgress(userId, deviceId)
  }

  async systemUpdateProgress(userId: number, deviceId: number): Promise<SystemUpdateProgress> {
    const { device } = await this.live(userId, deviceId, this.ctx.db)
    const latestVersion = this.supplier.latestImageVersion()
    const updating = device.busyOp === 'systemUpdate'
    let progress = device.imageVersion === latestVersion ? 100 : 0
    if (updating && device.supplierInstanceId) {
      const state = await this.supplier.state(device.supplierInstanceId)
      progress = state?.progress ?? (state?.imageVersion === latestVersion ? 100 : 0)
    }
    return {
      deviceId,
      updating,
      progress,
      imageVersion: device.imageVersion,
      latestVersion,
      updateAvailable: device.imageVersion !== latestVersion,
    }
  }

  models() {
    return this.supplier.models()
  }

  async setModel(userId: number, deviceId: number, modelId: string): Promise<Device> {
    const { device } = await this.ready(userId, deviceId, 'selectModel', '该云手机不支持选择机型')
    if (!this.supplier.models().some((model) => model.modelId === modelId)) {
      throw tip('所选机型不存在')
    }
    await this.supplier.setModel(device.supplierInstanceId!, modelId)
    await this.ctx.db
      .update(devices)
      .set({ model: modelId, coverUpdatedAt: this.ctx.clock.now() })
      .where(eq(devices.id, deviceId))
    return this.detail(userId, deviceId)
  }

  /** Marks the phone busy with `op` and enqueues the job that follows it to the end. */
  private async startBusy(
    tx: Db,
    device: DeviceRow,
    op: DeviceBusyOp,
    changes: Partial<DeviceRow>,
  ) {
    const [row] = await tx
      .update(devices)
      .set({ ...changes, busyOp: op, opSeq: sql`${devices.opSeq} + 1` })
      .where(
        and(
          eq(devices.id, device.id),
          eq(devices.status, DeviceStatus.running),
          isNull(devices.busyOp),
        ),
      )
      .returning({ opSeq: devices.opSeq })
    if (!row) throw tip('云手机状态已变化，请刷新后重试')
    await this.fleet.enqueueSync(tx, device.id, row.opSeq)
  }

  /** Starts supplier work at once; when that fails, the sync job already enqueued starts it later. */
  private async tellSupplier(device: DeviceRow, work: () => Promise<void>) {
    try {
      await work()
    } catch (error) {
      this.ctx.log.warn(
        { err: error, deviceId: device.id },
        'supplier call failed (sync job retries)',
      )
    }
  }

  /** For the control page: the phone as the page shows it, and its current supplier instance. */
  async controlState(userId: number, deviceId: number) {
    const { row, grant } = await this.accessible(userId, deviceId, 'control')
    const passes = await this.screens.passes(userId)
    const device = this.toDevice(row, grant, passes)
    const instanceId = row.device.supplierInstanceId
    return {
      device,
      instanceId,
      screenPass: instanceId ? passes.query(instanceId, deviceId) : null,
    }
  }

  /** Whether the user may open the phone's control page: its owner, or authorised to control it. */
  async mayControl(userId: number, deviceId: number): Promise<boolean> {
    return this.accessible(userId, deviceId, 'control').then(
      () => true,
      () => false,
    )
  }
}
