import { and, desc, eq, isNull } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import type { SpaceTask, SpaceTaskKind } from '../../contract/space'
import type { Db } from '../../db/client'
import { devices, spaceTasks } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { enqueueJob } from '../../job-queue'
import { isUniqueViolation, type ServiceContext } from '../context'
import { deviceNotFound } from '../devices/device-lifecycle'
import { freeBytes } from './space-quota'
import { SPACE_TASK_JOB } from './space-task-runner'

export const NOT_IDLE_FOR_RESTORE =
  '云手机需处于运行中且没有重启、迁移或更新等操作，才能关机恢复数据，请稍后再试'
export const NOT_RUNNING_FOR_BACKUP = '云手机需处于运行中且没有其他操作，才能备份数据'

type TaskRow = typeof spaceTasks.$inferSelect

/** A backup or restore as the pages see it. */
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

/** The user's phone, or 1031 (also for someone else's). */
export async function ownedDevice(db: Db, userId: number, deviceId: number) {
  const [device] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.id, deviceId), eq(devices.userId, userId)))
  if (!device) throw deviceNotFound()
  return device
}

/**
 * What a user asks of their backups: start one, restore one onto a phone, delete one. Each request
 * is decided in one transaction that records the task and enqueues its `space-task` job
 * (SpaceTaskService does the work). One task at a time per phone (a unique index on running tasks).
 */
export class SpaceBackupService {
  constructor(private readonly ctx: ServiceContext) {}

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

  /** Inserts a running task and its job in one transaction; a second running task loses (1065). */
  private async startTask(
    tx: Db,
    values: Pick<TaskRow, 'userId' | 'deviceId' | 'deviceName' | 'kind'> & {
      backupId?: number
      sizeBytes?: number
    },
  ): Promise<SpaceTask> {
    const now = this.ctx.clock.now()
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
    const device = await ownedDevice(tx, userId, deviceId)
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
      const free = await freeBytes(tx, userId, this.ctx.clock.now())
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
      await tx
        .update(spaceTasks)
        .set({ deletedAt: this.ctx.clock.now() })
        .where(eq(spaceTasks.id, backupId))
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
}
