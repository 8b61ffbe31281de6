import { and, asc, count, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode, resultMessages, type ResultCodeValue } from '#domain/result-codes'
import type { OrderInfo } from '../contract/order'
import type {
  CreateSpaceOrderBody,
  DeviceSpace,
  SpaceGrant,
  SpaceInfo,
  SpacePackages,
  SpaceTask,
  SpaceTaskKind,
} from '../contract/space'
import type { Db } from '../db/client'
import { devices, spaceGrants, spaceTasks } from '../db/schema'
import { BizError } from '../domain/biz-error'
import { normalisePage, toPaged, type PageRequest } from '../domain/paging'
import { enqueueJob } from '../jobs/queue'
import { isUniqueViolation, type ServiceContext } from './context'
import { deviceNotFound } from './fleet-service'
import { SPACE_PACKAGES, spaceDraft, type SpaceOrderDetail } from './space-packages'
import type { OrderRow } from './order-insert'
import type { OrderService } from './order-service'

export const SPACE_TASK_JOB = 'space-task'
/** Every user's free cloud space. */
export const BASE_QUOTA_BYTES = 2 * 1024 ** 3
const DAY_MS = 86_400_000

/**
 * Fulfilment of a paid space order, in its transaction: one grant of the package's space, for its days
 * from now. The order id is unique in space_grants, so a second run grants nothing more.
 */
export async function grantSpace(tx: Db, now: Date, order: OrderRow) {
  const { space } = order.detail as unknown as SpaceOrderDetail
  await tx
    .insert(spaceGrants)
    .values({
      userId: order.buyerId ?? order.userId,
      bytes: space.bytes,
      packageId: space.packageId,
      orderId: order.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + space.days * DAY_MS),
    })
    .onConflictDoNothing({ target: spaceGrants.orderId })
}

/** A backup or restore the supplier has not finished after this long is interrupted (1072). */
export const SPACE_TASK_TIMEOUT_MS = 30 * 60_000

export const NOT_IDLE_FOR_RESTORE =
  '云手机需处于运行中且没有重启、迁移或更新等操作，才能关机恢复数据，请稍后再试'
export const NOT_RUNNING_FOR_BACKUP = '云手机需处于运行中且没有其他操作，才能备份数据'

type TaskRow = typeof spaceTasks.$inferSelect

const isStoredBackup = and(
  eq(spaceTasks.kind, 'backup'),
  eq(spaceTasks.status, 'done'),
  isNull(spaceTasks.deletedAt),
)

export function toSpaceTask(row: TaskRow): SpaceTask {
  return {
    id: row.id,
    kind: row.kind as SpaceTaskKind,
    status: row.status as SpaceTask['status'],
    deviceId: row.deviceId,
    deviceName: row.deviceName,
    backupId: row.backupId,
    sizeBytes: row.sizeBytes,
    failCode: row.failCode,
    failReason: row.failReason,
    deleted: row.deletedAt != null,
    createdAt: row.createdAt.getTime(),
    finishedAt: row.finishedAt?.getTime() ?? null,
  }
}

/**
 * Cloud space: a free quota per user, used by stored backups. Backups and restores run at the
 * supplier as `space-task` jobs (queued in the transaction that records the task, so they survive a
 * restart). One task at a time per phone (a unique index on running tasks). Rules:
 * - a backup needs a running, idle phone; no failed backup of it may be kept (1032, delete it first);
 *   it starts only when the free space is at least the phone's latest backup (1026), and a finished
 *   backup that does not fit is discarded (1039);
 * - a restore writes one of the user's backups onto one of the user's phones, which the supplier shuts
 *   down for it: the phone must be running and idle (1033);
 * - a running backup cannot be deleted (1034), nor a backup being restored (1065).
 */
export class SpaceService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly orders: OrderService,
  ) {}

  private now() {
    return this.ctx.clock.now()
  }

  /** Unexpired bought space, soonest to expire first. */
  async grants(userId: number, db: Db): Promise<SpaceGrant[]> {
    const rows = await db
      .select()
      .from(spaceGrants)
      .where(and(eq(spaceGrants.userId, userId), gt(spaceGrants.expiresAt, this.now())))
      .orderBy(asc(spaceGrants.expiresAt), asc(spaceGrants.id))
    return rows.map((row) => ({
      id: row.id,
      bytes: row.bytes,
      createdAt: row.createdAt.getTime(),
      expiresAt: row.expiresAt.getTime(),
    }))
  }

  /** The free 2 GB plus every grant not yet expired. */
  async quota(userId: number, db: Db): Promise<number> {
    const grants = await this.grants(userId, db)
    return grants.reduce((sum, grant) => sum + grant.bytes, BASE_QUOTA_BYTES)
  }

  packages(): SpacePackages {
    return { packages: [...SPACE_PACKAGES] }
  }

  /** /order/createOrder: an unpaid space order (business type 4); paying it grants the space once. */
  createSpaceOrder(userId: number, body: CreateSpaceOrderBody): Promise<OrderInfo> {
    const { detail, ...draft } = spaceDraft(body.packageId)
    return this.orders.create(userId, body, async () => draft, { detail: { ...detail } })
  }

  async usedBytes(db: Db, userId: number): Promise<number> {
    const [row] = await db
      .select({ used: sql<string>`coalesce(sum(${spaceTasks.sizeBytes}), 0)` })
      .from(spaceTasks)
      .where(and(eq(spaceTasks.userId, userId), isStoredBackup))
    return Number(row.used)
  }

  async info(userId: number): Promise<SpaceInfo> {
    const db = this.ctx.db
    const rows = await db
      .select({
        deviceId: spaceTasks.deviceId,
        deviceName: devices.name,
        usedBytes: sql<string>`sum(${spaceTasks.sizeBytes})`,
        backupCount: count(),
      })
      .from(spaceTasks)
      .innerJoin(devices, eq(devices.id, spaceTasks.deviceId))
      .where(and(eq(spaceTasks.userId, userId), isStoredBackup))
      .groupBy(spaceTasks.deviceId, devices.name)
    const phones = rows
      .map((row) => ({ ...row, usedBytes: Number(row.usedBytes) }))
      .sort((a, b) => b.usedBytes - a.usedBytes || a.deviceId - b.deviceId)
    const grants = await this.grants(userId, db)
    return {
      quotaBytes: grants.reduce((sum, grant) => sum + grant.bytes, BASE_QUOTA_BYTES),
      usedBytes: phones.reduce((sum, row) => sum + row.usedBytes, 0),
      grants,
      devices: phones,
    }
  }

  private async ownedDevice(db: Db, userId: number, deviceId: number) {
    const [device] = await db
      .select()
      .from(devices)
      .where(and(eq(devices.id, deviceId), eq(devices.userId, userId)))
    if (!device) throw deviceNotFound()
    return device
  }

  private async runningTask(db: Db, deviceId: number) {
    const [row] = await db
      .select()
      .from(spaceTasks)
      .where(and(eq(spaceTasks.deviceId, deviceId), eq(spaceTasks.status, 'running')))
    return row ?? null
  }

  private refuseWhileRunning(running: TaskRow | null) {
    if (!running) return
    throw new BizError(
      running.kind === 'backup' ? ResultCode.BACKUP_IN_PROGRESS : ResultCode.RECOVERING,
    )
  }

  async deviceSpace(userId: number, deviceId: number): Promise<DeviceSpace> {
    const db = this.ctx.db
    const device = await this.ownedDevice(db, userId, deviceId)
    const rows = await db
      .select()
      .from(spaceTasks)
      .where(and(eq(spaceTasks.deviceId, deviceId), eq(spaceTasks.userId, userId)))
      .orderBy(desc(spaceTasks.id))
    const backups = rows.filter(
      (row) => row.kind === 'backup' && row.status !== 'running' && !row.deletedAt,
    )
    const running = rows.find((row) => row.status === 'running')
    const lastRestore = rows.find((row) => row.kind === 'restore' && row.status !== 'running')
    return {
      deviceId,
      deviceName: device.name,
      quotaBytes: await this.quota(userId, this.ctx.db),
      usedBytes: await this.usedBytes(db, userId),
      backups: backups.map(toSpaceTask),
      running: running ? toSpaceTask(running) : null,
      lastRestore: lastRestore ? toSpaceTask(lastRestore) : null,
    }
  }

  /** Inserts a running task and its job in one transaction; a second running task loses (1065). */
  private async startTask(
    tx: Db,
    values: Pick<TaskRow, 'userId' | 'deviceId' | 'deviceName' | 'kind'> & {
      backupId?: number
      sizeBytes?: number
    },
  ): Promise<SpaceTask> {
    const now = this.now()
    const row = await tx
      .insert(spaceTasks)
      .values({ ...values, status: 'running', createdAt: now })
      .returning()
      .then(([inserted]) => inserted)
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new BizError(ResultCode.IN_BACKUP_OR_RECOVERY)
        throw error
      })
    await enqueueJob(
      tx,
      now,
      SPACE_TASK_JOB,
      { taskId: row.id },
      { uniqueKey: `space-task:${row.id}` },
    )
    return toSpaceTask(row)
  }

  /**
   * The user's phone, locked (tasks of one phone are decided one at a time), with no task running
   * (1034/1035) and running with no other operation (else `notIdle`).
   */
  private async idlePhone(tx: Db, userId: number, deviceId: number, notIdle: BizError) {
    const device = await this.ownedDevice(tx, userId, deviceId)
    await tx.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId)).for('update')
    this.refuseWhileRunning(await this.runningTask(tx, deviceId))
    if (device.status !== DeviceStatus.running || device.busyOp || !device.supplierInstanceId) {
      throw notIdle
    }
    return device
  }

  async backup(userId: number, deviceId: number): Promise<SpaceTask> {
    return this.ctx.db.transaction(async (tx) => {
      const device = await this.idlePhone(
        tx,
        userId,
        deviceId,
        new BizError(ResultCode.SHOW_ERROR_TIPS, NOT_RUNNING_FOR_BACKUP),
      )
      const kept = await tx
        .select()
        .from(spaceTasks)
        .where(
          and(
            eq(spaceTasks.deviceId, deviceId),
            eq(spaceTasks.kind, 'backup'),
            isNull(spaceTasks.deletedAt),
          ),
        )
        .orderBy(desc(spaceTasks.id))
      if (kept.some((row) => row.status === 'failed' || row.status === 'interrupted')) {
        throw new BizError(ResultCode.BACKUP_FAILURE_EXISTS, '该云手机有备份失败的记录，请先删除')
      }
      const latest = kept.find((row) => row.status === 'done')
      const free = (await this.quota(userId, tx)) - (await this.usedBytes(tx, userId))
      if (free <= 0 || (latest && latest.sizeBytes > free)) {
        throw new BizError(ResultCode.OVER_CLOUD_SPACE, '云空间容量不足，请删除旧备份或购买空间')
      }
      return this.startTask(tx, { userId, deviceId, deviceName: device.name, kind: 'backup' })
    })
  }

  private async ownedBackup(db: Db, userId: number, backupId: number) {
    const [row] = await db
      .select()
      .from(spaceTasks)
      .where(
        and(
          eq(spaceTasks.id, backupId),
          eq(spaceTasks.userId, userId),
          eq(spaceTasks.kind, 'backup'),
          isNull(spaceTasks.deletedAt),
        ),
      )
    if (!row) throw new BizError(ResultCode.TASK_NOT_EXIST, '备份不存在')
    return row
  }

  async restore(userId: number, backupId: number, deviceId: number): Promise<SpaceTask> {
    return this.ctx.db.transaction(async (tx) => {
      const backup = await this.ownedBackup(tx, userId, backupId)
      if (backup.status !== 'done') {
        throw new BizError(ResultCode.SHOW_ERROR_TIPS, '该备份未成功，不能用于恢复')
      }
      const device = await this.idlePhone(
        tx,
        userId,
        deviceId,
        new BizError(ResultCode.DEVICE_NOT_SHUT_DOWN, NOT_IDLE_FOR_RESTORE),
      )
      return this.startTask(tx, {
        userId,
        deviceId,
        deviceName: device.name,
        kind: 'restore',
        backupId: backup.id,
        sizeBytes: backup.sizeBytes,
      })
    })
  }

  async deleteBackup(userId: number, backupId: number): Promise<void> {
    const supplierTaskId = await this.ctx.db.transaction(async (tx) => {
      const backup = await this.ownedBackup(tx, userId, backupId)
      if (backup.status === 'running') throw new BizError(ResultCode.BACKUP_IN_PROGRESS)
      const [restoring] = await tx
        .select({ id: spaceTasks.id })
        .from(spaceTasks)
        .where(and(eq(spaceTasks.backupId, backupId), eq(spaceTasks.status, 'running')))
      if (restoring)
        throw new BizError(ResultCode.IN_BACKUP_OR_RECOVERY, '该备份正在恢复中，不能删除')
      await tx.update(spaceTasks).set({ deletedAt: this.now() }).where(eq(spaceTasks.id, backupId))
      return backup.supplierTaskId
    })
    if (!supplierTaskId) return
    try {
      await this.ctx.supplier.deleteBackup(supplierTaskId)
    } catch (error) {
      // SPEC 8 DELETE_ERROR: the backup stays listed (and counted) until the supplier has deleted it
      this.ctx.log.error({ err: error, backupId }, 'supplier backup delete failed')
      await this.ctx.db
        .update(spaceTasks)
        .set({ deletedAt: null })
        .where(eq(spaceTasks.id, backupId))
      throw new BizError(ResultCode.DELETE_ERROR, '删除失败，请稍后重试')
    }
  }

  async task(userId: number, taskId: number): Promise<SpaceTask> {
    const [row] = await this.ctx.db
      .select()
      .from(spaceTasks)
      .where(and(eq(spaceTasks.id, taskId), eq(spaceTasks.userId, userId)))
    if (!row) throw new BizError(ResultCode.TASK_NOT_EXIST)
    return toSpaceTask(row)
  }

  async history(userId: number, request: PageRequest & { kind?: SpaceTaskKind }) {
    const { page, rows, offset } = normalisePage(request)
    const where = and(
      eq(spaceTasks.userId, userId),
      request.kind ? eq(spaceTasks.kind, request.kind) : undefined,
    )
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(spaceTasks).where(where)
    const found = await this.ctx.db
      .select()
      .from(spaceTasks)
      .where(where)
      .orderBy(desc(spaceTasks.createdAt), desc(spaceTasks.id))
      .limit(rows)
      .offset(offset)
    return toPaged(found.map(toSpaceTask), page, rows, total)
  }

  /**
   * One step of a running task (the `space-task` job): hands it to the supplier once (keyed by the
   * task id, so a rerun after a crash finds the same supplier task), then follows it until it ends.
   */
  async advance(taskId: number): Promise<void | { rerunAt: Date }> {
    const db = this.ctx.db
    const { supplier } = this.ctx
    const [task] = await db.select().from(spaceTasks).where(eq(spaceTasks.id, taskId))
    if (!task || task.status !== 'running') return
    const now = this.now()
    const timedOut = now.getTime() - task.createdAt.getTime() >= SPACE_TASK_TIMEOUT_MS
    const interrupt = async () => {
      await this.finish(
        task,
        { status: 'interrupted', failCode: ResultCode.TASK_INTERRUPTED },
        this.ctx.db,
      )
    }
    let supplierTaskId = task.supplierTaskId
    // Work never handed over before a long outage is not started any more.
    if (!supplierTaskId && timedOut) return interrupt()
    if (!supplierTaskId) {
      const [device] = await db.select().from(devices).where(eq(devices.id, task.deviceId))
      const requestId = `space-task-${task.id}`
      if (!device?.supplierInstanceId) {
        await this.finish(
          task,
          { status: 'failed', failCode: ResultCode.GET_DEVICE_FAILED },
          this.ctx.db,
        )
        return
      }
      let accepted: { taskId: string }
      if (task.kind === 'backup') {
        accepted = await supplier.backup(device.supplierInstanceId, requestId)
      } else {
        const [source] = await db.select().from(spaceTasks).where(eq(spaceTasks.id, task.backupId!))
        if (!source?.supplierTaskId || source.deletedAt) {
          await this.finish(
            task,
            { status: 'failed', failCode: ResultCode.TASK_NOT_EXIST },
            this.ctx.db,
          )
          return
        }
        accepted = await supplier.restore(
          device.supplierInstanceId,
          source.supplierTaskId,
          requestId,
        )
      }
      supplierTaskId = accepted.taskId
      await db.update(spaceTasks).set({ supplierTaskId }).where(eq(spaceTasks.id, task.id))
    }
    const state = await supplier.backupTask(supplierTaskId)
    if (!state || (state.status === 'running' && timedOut)) return interrupt()
    if (state.status === 'running') {
      const soon = now.getTime() + 1_000
      const ready = state.readyAt ? Math.max(state.readyAt.getTime(), now.getTime()) : soon
      return { rerunAt: new Date(Math.min(soon, ready)) }
    }
    if (state.status === 'failed') {
      await this.finish(
        task,
        {
          status: 'failed',
          failCode: task.kind === 'backup' ? ResultCode.BACKUP_FAILED : null,
          failReason: state.failReason,
        },
        this.ctx.db,
      )
      return
    }
    if (task.kind === 'restore') {
      await this.finish(task, { status: 'done' }, this.ctx.db)
      return
    }
    const fits = await db.transaction(async (tx) => {
      // Backups of one user finish one at a time, so two cannot both squeeze into the last space.
      await tx.execute(sql`select pg_advisory_xact_lock(${task.userId})`)
      const free = (await this.quota(task.userId, tx)) - (await this.usedBytes(tx, task.userId))
      const ok = state.sizeBytes <= free
      await this.finish(
        task,
        ok
          ? { status: 'done', sizeBytes: state.sizeBytes }
          : {
              status: 'failed',
              sizeBytes: state.sizeBytes,
              failCode: ResultCode.NOT_ENOUGH_CLOUD_SPACE,
              failReason: '云空间容量不足，本次备份未保存',
            },
        tx,
      )
      return ok
    })
    if (!fits) await supplier.deleteBackup(supplierTaskId)
  }

  private finish(
    task: TaskRow,
    outcome: Partial<Pick<TaskRow, 'status' | 'sizeBytes' | 'failCode' | 'failReason'>>,
    db: Db,
  ) {
    const failReason =
      outcome.failReason ??
      (outcome.failCode ? resultMessages[outcome.failCode as ResultCodeValue] : null)
    return db
      .update(spaceTasks)
      .set({ ...outcome, failReason, finishedAt: this.now() })
      .where(and(eq(spaceTasks.id, task.id), eq(spaceTasks.status, 'running')))
  }
}
