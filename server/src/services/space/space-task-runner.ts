import { and, eq, sql } from 'drizzle-orm'
import { ResultCode, resultMessages, type ResultCodeValue } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { devices, spaceTasks } from '../../db/schema'
import type { ServiceContext } from '../context'
import { freeBytes } from './space-quota'

export const SPACE_TASK_JOB = 'space-task'
/** A backup or restore the supplier has not finished after this long is interrupted (1072). */
export const SPACE_TASK_TIMEOUT_MS = 30 * 60_000

type TaskRow = typeof spaceTasks.$inferSelect

/**
 * The `space-task` job's work: a running backup or restore, handed to the supplier once and followed
 * there until it ends (done, failed, or interrupted after SPACE_TASK_TIMEOUT_MS). SpaceBackupService
 * (space-backups.ts) records the task and enqueues the job in one transaction.
 */
export class SpaceTaskService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * One step of a running task: hands it to the supplier once (keyed by the task id, so a rerun after
   * a crash finds the same supplier task), then follows it until it ends.
   */
  async advance(taskId: number): Promise<void | { rerunAt: Date }> {
    const db = this.ctx.db
    const { supplier } = this.ctx
    const [task] = await db.select().from(spaceTasks).where(eq(spaceTasks.id, taskId))
    if (!task || task.status !== 'running') return
    const now = this.ctx.clock.now()
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
      const ok = state.sizeBytes <= (await freeBytes(tx, task.userId, this.ctx.clock.now()))
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
      .set({ ...outcome, failReason, finishedAt: this.ctx.clock.now() })
      .where(and(eq(spaceTasks.id, task.id), eq(spaceTasks.status, 'running')))
  }
}
