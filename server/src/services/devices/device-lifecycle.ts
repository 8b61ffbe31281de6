import { and, eq, inArray, sql } from 'drizzle-orm'
import { canRenew, DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { intArray, rowsOf, timeArray } from '../../db/id-arrays'
import { devices, goods } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { enqueueJobs } from '../../job-queue'
import type { ServiceContext } from '../context'

export const PROVISION_JOB = 'provision-device'
export const SYNC_JOB = 'sync-device'

export const DEVICE_NOT_FOUND = '云手机不存在'

/** Statuses in which a paid change (configuration, video edition) is applied. */
const LIVE = [DeviceStatus.running, DeviceStatus.rebooting]

export interface OwnedDevice {
  deviceId: number
  goodId: number
  zoneId: number
  status: number
  expireAt: number
  videoEdition: boolean
  level: number
}

export const deviceNotFound = () => new BizError(ResultCode.GET_DEVICE_FAILED, DEVICE_NOT_FOUND)

/**
 * The fleet as commerce sees it: phones created, extended and changed by paid orders, all inside the
 * caller's transaction. Supplier work follows after commit, through jobs enqueued in that same
 * transaction (so a rolled-back order leaves no job, and a committed one always gets its job).
 */
export class DeviceLifecycleService {
  constructor(private readonly ctx: ServiceContext) {}

  /** New phones (status creating) for a paid order, each with its provisioning job. */
  async createDevicesForOrder(
    tx: Db,
    order: {
      userId: number
      orderId: number
      goodId: number
      zoneId: number
      quantity: number
      days: number
    },
  ): Promise<number[]> {
    if (!Number.isInteger(order.quantity) || order.quantity < 1) return []
    const [good] = await tx.select().from(goods).where(eq(goods.id, order.goodId))
    if (!good) throw new BizError(ResultCode.GOODS_NOT_EXIST)
    const now = this.ctx.clock.now()
    const expireAt = new Date(now.getTime() + order.days * 86_400_000)
    const inserted = await tx
      .insert(devices)
      .values(
        Array.from({ length: order.quantity }, () => ({
          userId: order.userId,
          name: '',
          goodId: good.id,
          level: good.level,
          zoneId: order.zoneId,
          androidVersion: good.androidVersion,
          imageType: good.imageType,
          status: DeviceStatus.creating,
          orderId: order.orderId,
          expireAt,
          createdAt: now,
        })),
      )
      .returning({ id: devices.id })
    const ids = inserted.map((row) => row.id)
    await tx
      .update(devices)
      .set({ name: sql`'云手机-' || ${devices.id}` })
      .where(inArray(devices.id, ids))
    for (const id of ids) await this.enqueueProvision(tx, id, 0)
    return ids
  }

  /**
   * New expiry per phone. An expired (not yet released) phone comes back to running; the supplier is
   * told by the sync job. A phone that cannot be renewed (released, creating, failed) refuses.
   */
  async extendDevices(
    tx: Db,
    lines: { deviceId: number; newExpireAt: number }[],
    options: { orderId?: number } = {},
  ): Promise<void> {
    if (lines.length === 0) return
    // Set-based (a 10,000-phone renewal): one locking read, one update, jobs in chunks.
    const ids = lines.map((line) => line.deviceId)
    const found = await tx
      .select({ id: devices.id, status: devices.status })
      .from(devices)
      .where(sql`${devices.id} = any(${intArray(ids)})`)
      .orderBy(devices.id)
      .for('update')
    const status = new Map(found.map((row) => [row.id, row.status]))
    for (const id of ids) {
      const current = status.get(id)
      if (current === undefined) throw deviceNotFound()
      if (!canRenew(current)) {
        throw new BizError(
          ResultCode.SHOW_ERROR_TIPS,
          current === DeviceStatus.released ? '云手机已释放，无法续费' : '该云手机暂不能续费',
        )
      }
    }
    const rows = await tx.execute(sql`
      update ${devices} set
        expire_at = v.expire_at,
        status = case when ${devices.status} = ${DeviceStatus.expired} then ${DeviceStatus.running} else ${devices.status} end,
        op_seq = ${devices.opSeq} + 1
      from unnest(${intArray(ids)}, ${timeArray(lines.map((l) => l.newExpireAt))}) as v(id, expire_at)
      where ${devices.id} = v.id
      returning ${devices.id} as id, ${devices.opSeq} as op_seq`)
    await this.enqueueFor(
      tx,
      SYNC_JOB,
      rowsOf<{ id: number; op_seq: number }>(rows).map((row) => ({
        deviceId: Number(row.id),
        opSeq: Number(row.op_seq),
      })),
      options.orderId === undefined ? {} : { orderId: options.orderId },
    )
  }

  /** Up- or downgrade: the phone takes the new goods (and the stretched expiry of a downgrade). */
  async applyConfigChange(
    tx: Db,
    change: { deviceId: number; toGoodId: number; newExpireAt: number },
  ): Promise<void> {
    const [good] = await tx.select().from(goods).where(eq(goods.id, change.toGoodId))
    if (!good) throw new BizError(ResultCode.GOODS_NOT_EXIST)
    const [row] = await tx
      .update(devices)
      .set({
        goodId: good.id,
        level: good.level,
        androidVersion: good.androidVersion,
        imageType: good.imageType,
        expireAt: new Date(change.newExpireAt),
        opSeq: sql`${devices.opSeq} + 1`,
      })
      .where(and(eq(devices.id, change.deviceId), inArray(devices.status, LIVE)))
      .returning({ opSeq: devices.opSeq })
    if (!row) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '云手机当前状态不能变更配置')
    await this.enqueueSync(tx, change.deviceId, row.opSeq)
  }

  async applyVideoEdition(tx: Db, deviceId: number): Promise<void> {
    const updated = await tx
      .update(devices)
      .set({ videoEdition: true })
      .where(and(eq(devices.id, deviceId), inArray(devices.status, LIVE)))
      .returning({ id: devices.id })
    if (updated.length === 0) {
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '云手机当前状态不能升级视频定制版')
    }
  }

  /** The user's phones by id (any status), or BizError when one of them is missing or someone else's. */
  async ownedDevices(db: Db, userId: number, deviceIds: number[]): Promise<OwnedDevice[]> {
    const unique = [...new Set(deviceIds)]
    if (unique.length === 0) return []
    const rows = await db
      .select({
        deviceId: devices.id,
        goodId: devices.goodId,
        zoneId: devices.zoneId,
        status: devices.status,
        expireAt: devices.expireAt,
        videoEdition: devices.videoEdition,
        level: devices.level,
      })
      .from(devices)
      .where(and(eq(devices.userId, userId), sql`${devices.id} = any(${intArray(unique)})`))
    if (rows.length !== unique.length) throw deviceNotFound()
    const byId = new Map(rows.map((row) => [row.deviceId, row]))
    return unique.map((id) => {
      const row = byId.get(id)!
      return { ...row, expireAt: row.expireAt.getTime() }
    })
  }

  /** Provisioning (first create, or a replacement instance) for the phone's operation `opSeq`. */
  enqueueProvision(db: Db, deviceId: number, opSeq: number) {
    return this.enqueueFor(db, PROVISION_JOB, { deviceId, opSeq })
  }

  /** Brings the supplier in line with the phone and follows its operation `opSeq` to the end. */
  enqueueSync(db: Db, deviceId: number, opSeq: number) {
    return this.enqueueFor(db, SYNC_JOB, { deviceId, opSeq })
  }

  /** Sync jobs for many phones in one insert (a batch reboot). */
  enqueueSyncs(db: Db, ops: { deviceId: number; opSeq: number }[]) {
    return this.enqueueFor(db, SYNC_JOB, ops)
  }

  /** One job per phone and operation; `since` lets the job give up on a supplier that never finishes. */
  private enqueueFor(
    db: Db,
    kind: string,
    ops: { deviceId: number; opSeq: number } | { deviceId: number; opSeq: number }[],
    /** Added to every job's payload (a renewal's orderId: its progress counts these jobs). */
    extra: Record<string, unknown> = {},
  ) {
    const now = this.ctx.clock.now()
    return enqueueJobs(
      db,
      now,
      (Array.isArray(ops) ? ops : [ops]).map(({ deviceId, opSeq }) => ({
        kind,
        payload: { deviceId, since: now.getTime(), ...extra },
        uniqueKey: `${kind}:${deviceId}:${opSeq}`,
      })),
    )
  }
}
