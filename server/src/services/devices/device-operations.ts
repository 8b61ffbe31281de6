import { and, eq, isNull, sql } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import { validateDeviceName } from '#domain/validators'
import type { SystemUpdateProgress } from '../../contract/device'
import type { Db } from '../../db/client'
import { devices, type DeviceBusyOp } from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import type { ServiceContext } from '../context'
import type { DeviceAccessService } from './device-access'
import type { DeviceRow } from './device-view'
import type { DeviceLifecycleService } from './device-lifecycle'
import type { GoodsService } from '../catalogue/goods-service'
import { lockPlans, refuseWhilePlanOrderOpen } from '../orders/plan-orders'

const CHANGED = '云手机状态已变化，请刷新后重试'

/** A name checked by the shared rule (the client's form says the same), trimmed. */
export function checkName(raw: string, validate: (value: string) => string | null): string {
  const problem = validate(raw)
  if (problem) throw tip(problem)
  return raw.trim()
}

/**
 * What the owner changes on a phone: its name, zone, supplier instance, system image and model. A
 * long operation marks the phone busy and enqueues the sync job that follows it at the supplier to its
 * end, in one transaction; the supplier is told at once too, and when that fails the job tells it later.
 * Each method answers nothing: the caller shows the phone as it now is.
 */
export class DeviceOperationService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly lifecycle: DeviceLifecycleService,
    private readonly goods: GoodsService,
    private readonly access: DeviceAccessService,
  ) {}

  private get supplier() {
    return this.ctx.supplier
  }

  async rename(userId: number, deviceId: number, rawName: string): Promise<void> {
    const name = checkName(rawName, validateDeviceName)
    const { device } = await this.access.live(userId, deviceId, this.ctx.db)
    await this.ctx.db.update(devices).set({ name }).where(eq(devices.id, deviceId))
    if (device.supplierInstanceId) {
      const instanceId = device.supplierInstanceId
      await this.tellSupplier(device, () => this.supplier.rename(instanceId, name))
    }
  }

  /**
   * Moves a running phone to another zone: a unit of the new zone is taken (none → 1017) and the old
   * one given back in one transaction; the supplier migrates the data and the phone is busy meanwhile.
   */
  async changeZone(userId: number, deviceId: number, zoneId: number): Promise<void> {
    const { device } = await this.access.ready(
      userId,
      deviceId,
      'changeZone',
      '该云手机不支持更换地区',
    )
    const zone = await this.goods.getZoneOnSale(zoneId, this.ctx.db)
    if (!zone) throw tip('所选地区不存在')
    if (zoneId === device.zoneId) throw tip('云手机已在该地区，无需更换')
    await this.ctx.db.transaction(async (tx) => {
      // The phone as read above, unchanged (its goods decide which stock moves) and with no plan
      // order priced for its zone waiting to be paid.
      const plans = await lockPlans(tx, [deviceId], userId)
      if (plans[deviceId] !== device.planVersion) throw tip(CHANGED)
      await refuseWhilePlanOrderOpen(tx, [deviceId])
      const reserved = await this.goods.reserveStock(tx, device.goodId, zoneId, 1)
      if (!reserved)
        throw new BizError(ResultCode.CLOUD_OUT_OF_STOCK, '所选地区库存不足，请选择其他地区')
      await this.goods.returnStock(tx, device.goodId, device.zoneId, 1)
      await this.startBusy(tx, device, 'changeZone', { zoneId })
    })
    await this.tellSupplier(device, () =>
      this.supplier.changeZone(device.supplierInstanceId!, zoneId),
    )
  }

  /** A new supplier instance for a running (data kept) or failed phone; same id, expiry and group. */
  async replace(userId: number, deviceId: number): Promise<void> {
    const { device } = await this.access.ready(userId, deviceId, 'replace', '该云手机暂不能更换')
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
      if (!row) throw tip(CHANGED)
      await this.lifecycle.enqueueProvision(tx, device.id, row.opSeq)
    })
  }

  async systemUpdate(userId: number, deviceId: number): Promise<SystemUpdateProgress> {
    const { device } = await this.access.ready(
      userId,
      deviceId,
      'systemUpdate',
      '该云手机暂不能更新系统',
    )
    if (device.imageVersion === this.supplier.latestImageVersion()) {
      throw tip('已是最新系统版本，无需更新')
    }
    await this.ctx.db.transaction((tx) => this.startBusy(tx, device, 'systemUpdate', {}))
    await this.tellSupplier(device, () => this.supplier.systemUpdate(device.supplierInstanceId!))
    return this.systemUpdateProgress(userId, deviceId)
  }

  async systemUpdateProgress(userId: number, deviceId: number): Promise<SystemUpdateProgress> {
    const { device } = await this.access.live(userId, deviceId, this.ctx.db)
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

  async setModel(userId: number, deviceId: number, modelId: string): Promise<void> {
    const { device } = await this.access.ready(
      userId,
      deviceId,
      'selectModel',
      '该云手机不支持选择机型',
    )
    if (!this.supplier.models().some((model) => model.modelId === modelId)) {
      throw tip('所选机型不存在')
    }
    await this.supplier.setModel(device.supplierInstanceId!, modelId)
    await this.ctx.db
      .update(devices)
      .set({ model: modelId, coverUpdatedAt: this.ctx.clock.now() })
      .where(eq(devices.id, deviceId))
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
    if (!row) throw tip(CHANGED)
    await this.lifecycle.enqueueSync(tx, device.id, row.opSeq)
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
}
