/**
 * ACEP's long tasks for AcepSupplier: data backups and restores (the SupplierAdapter's backup calls),
 * zone migrations, factory resets and the data copy of a replacement, each recorded in acep_tasks and followed by
 * ACEP's callbacks (acceptCallback, which also keeps each pod's latest screenshot address) with polling
 * (GetTaskInfo, ListBackupData) as the fallback for a callback that never came.
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { acepPods, acepTasks } from '../../../db/schema'
import type { Clock } from '../../../clock'
import type { BackupTaskState } from '../supplier-adapter'
import { type AcepClient, API_VERSION_2025, isNotFound } from './acep-client'
import { type AcepCallback, CALLBACK_HEADER, verifyCallback } from './callback'
import type { AcepCredentials } from './credentials'

/** GetTaskInfo's and the callback's task status: 0 pending and 1 running, 2 done, anything else failed. */
export function taskOutcome(status: number | undefined): 'running' | 'done' | 'failed' {
  if (status === undefined || status === 0 || status === 1) return 'running'
  return status === 2 ? 'done' : 'failed'
}

const FAILURE = {
  backup: '备份失败，云手机数据读取异常',
  restore: '恢复失败，云手机数据写入异常',
  migrate: '迁移失败，请稍后重试',
} as const

type PodRow = typeof acepPods.$inferSelect

export class AcepTasks {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly credentials: AcepCredentials,
    private readonly client: AcepClient,
  ) {}

  private get productId() {
    return this.credentials.productId
  }

  async backup(podId: string, requestId: string) {
    const known = await this.taskByRequest(requestId)
    if (known) return { taskId: known }
    const result = await this.client.post<{ TaskId?: string; BackupDataId?: string }>(
      'BackupData',
      { ProductId: this.productId, PodId: podId },
      API_VERSION_2025,
    )
    if (!result.TaskId || !result.BackupDataId) throw new Error('ACEP BackupData answered no ids')
    await this.recordTask(result.TaskId, 'backup', podId, result.BackupDataId, requestId)
    return { taskId: result.TaskId }
  }

  async restore(podId: string, backupTaskId: string, requestId: string) {
    const known = await this.taskByRequest(requestId)
    if (known) return { taskId: known }
    const source = await this.task(backupTaskId)
    if (!source?.backupDataId || source.status !== 'done') {
      throw new Error(`ACEP supplier: no finished backup ${backupTaskId}`)
    }
    const result = await this.client.post<{ TaskId?: string }>(
      'RestoreData',
      { ProductId: this.productId, PodIdList: [podId], BackupDataId: source.backupDataId },
      API_VERSION_2025,
    )
    if (!result.TaskId) throw new Error('ACEP RestoreData answered no TaskId')
    await this.recordTask(
      result.TaskId,
      'restore',
      podId,
      source.backupDataId,
      requestId,
      source.sizeBytes,
    )
    return { taskId: result.TaskId }
  }

  async backupTask(taskId: string): Promise<BackupTaskState | null> {
    const task = await this.task(taskId)
    if (!task || (task.kind !== 'backup' && task.kind !== 'restore')) return null
    const failed = task.status === 'failed'
    return {
      status:
        task.status === 'done' || task.status === 'deleted'
          ? 'done'
          : failed
            ? 'failed'
            : 'running',
      sizeBytes: task.status === 'done' ? task.sizeBytes : 0,
      failReason: failed ? (task.failReason ?? FAILURE[task.kind as 'backup' | 'restore']) : null,
      readyAt: null,
    }
  }

  async deleteBackup(taskId: string) {
    const task = await this.task(taskId, false)
    if (!task || task.kind !== 'backup' || task.status === 'deleted') return
    try {
      await this.client.post(
        'DeleteBackupData',
        { ProductId: this.productId, BackupDataIdList: [task.backupDataId] },
        API_VERSION_2025,
      )
    } catch (error) {
      if (!isNotFound(error)) throw error
    }
    await this.db
      .update(acepTasks)
      .set({ status: 'deleted', updatedAt: this.clock.now() })
      .where(eq(acepTasks.taskId, taskId))
  }

  /** Starts moving a pod to another data centre (MigratePod), once; state follows it (followMigration). */
  async migrate(podId: string, zoneId: number, dc: string) {
    const result = await this.client.post<{ TaskId?: string }>(
      'MigratePod',
      { ProductId: this.productId, PodId: podId, Dc: dc },
      API_VERSION_2025,
    )
    if (!result.TaskId) throw new Error('ACEP MigratePod answered no TaskId')
    await this.recordTask(result.TaskId, 'migrate', podId, null, null)
    await this.db
      .update(acepPods)
      .set({ migrateTaskId: result.TaskId, migrateZoneId: zoneId })
      .where(eq(acepPods.podId, podId))
  }

  /** Where a zone change is; once it ended the row is cleared (the new zone kept when it went through). */
  async followMigration(row: PodRow) {
    const task = await this.task(row.migrateTaskId!)
    if (!task || task.status === 'running') return 'running' as const
    await this.db
      .update(acepPods)
      .set({
        migrateTaskId: null,
        migrateZoneId: null,
        ...(task.status === 'done' ? { zoneId: row.migrateZoneId! } : {}),
      })
      .where(eq(acepPods.requestId, row.requestId))
    return task.status === 'done' ? ('done' as const) : ('failed' as const)
  }

  /**
   * A factory reset (ResetPod, version 2025-05-01, docs 6394/1905410): apps and files erased, the pod's
   * properties kept (ResetType 1: they are ours, set at CreatePod, not the user's data). ACEP runs it as
   * an asynchronous task ending by callback; the answer's shape is not documented on that page, so a
   * TaskId is read where ACEP's other task actions put it (Result.TaskId) and a Details entry for the pod
   * that says it failed (as PowerOnPod's 2025 answer does) is a refusal. With a TaskId the reset is
   * followed (resetRunning); without one the pod's own Online (4 rebooting) is all state has.
   */
  async reset(podId: string) {
    const result = await this.client.post<{
      TaskId?: string
      Details?: { PodId?: string; Success?: boolean; ErrMsg?: string }[]
    } | null>(
      'ResetPod',
      { ProductId: this.productId, PodIdList: [podId], ResetType: 1 },
      API_VERSION_2025,
    )
    const detail = result?.Details?.find((d) => d.PodId === podId)
    if (detail?.Success === false) throw new Error(`ACEP ResetPod ${podId}: ${detail.ErrMsg ?? ''}`)
    if (result?.TaskId) await this.recordTask(result.TaskId, 'reset', podId, null, null)
  }

  /**
   * Whether a reset of the pod is still running at ACEP (its task as the callback or GetTaskInfo last
   * said). A failed reset leaves the pod as it was: running, with its data.
   */
  async resetRunning(podId: string) {
    const [latest] = await this.db
      .select({ taskId: acepTasks.taskId })
      .from(acepTasks)
      .where(
        and(
          eq(acepTasks.podId, podId),
          eq(acepTasks.kind, 'reset'),
          eq(acepTasks.status, 'running'),
        ),
      )
    if (!latest) return false
    return (await this.task(latest.taskId))?.status === 'running'
  }

  /** Starts a replacement's data copy: the old pod's data is backed up now (replace in AcepSupplier). */
  async startCopy(fromPodId: string, requestId: string) {
    const [row] = await this.db.select().from(acepPods).where(eq(acepPods.requestId, requestId))
    if (row.copyStage) return
    const { taskId } = await this.backup(fromPodId, `${requestId}-copy`)
    await this.db
      .update(acepPods)
      .set({ copyStage: 'backup', copyTaskId: taskId })
      .where(eq(acepPods.requestId, requestId))
  }

  /** Moves a data copy on once the new pod runs: backup → restore → done. */
  async followCopy(row: PodRow): Promise<'copying' | 'done' | 'failed'> {
    const task = await this.task(row.copyTaskId!)
    if (!task || task.status === 'running') return 'copying'
    const clear = { copyStage: null, copyTaskId: null }
    const where = eq(acepPods.requestId, row.requestId)
    if (task.status === 'failed') {
      await this.db.update(acepPods).set(clear).where(where)
      return 'failed'
    }
    if (row.copyStage === 'backup') {
      const restore = await this.restore(row.podId!, task.taskId, `${row.requestId}-restore`)
      await this.db
        .update(acepPods)
        .set({ copyStage: 'restore', copyTaskId: restore.taskId })
        .where(where)
      return 'copying'
    }
    // Restored: the copy's backup is not the user's, so its storage is freed.
    const backupTaskId = await this.taskByRequest(`${row.requestId}-copy`)
    if (backupTaskId) await this.deleteBackup(backupTaskId)
    await this.db.update(acepPods).set(clear).where(where)
    return 'done'
  }

  private async taskByRequest(requestId: string) {
    const [row] = await this.db
      .select({ taskId: acepTasks.taskId })
      .from(acepTasks)
      .where(eq(acepTasks.requestId, requestId))
    return row?.taskId ?? null
  }

  private async recordTask(
    taskId: string,
    kind: 'backup' | 'restore' | 'migrate' | 'reset',
    podId: string,
    backupDataId: string | null,
    requestId: string | null,
    sizeBytes = 0,
  ) {
    const now = this.clock.now()
    await this.db
      .insert(acepTasks)
      .values({
        taskId,
        kind,
        podId,
        backupDataId,
        requestId,
        status: 'running',
        sizeBytes,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
  }

  /**
   * A task as we know it. A callback may have finished it already; otherwise ACEP is asked (polling is
   * the fallback for a callback that never came): ListBackupData for a backup, GetTaskInfo for the rest.
   */
  private async task(taskId: string, poll = true) {
    const [row] = await this.db.select().from(acepTasks).where(eq(acepTasks.taskId, taskId))
    // A backup a callback finished still needs its size, which only ListBackupData tells.
    const sizeUnknown = row?.kind === 'backup' && row.status === 'done' && row.sizeBytes === 0
    if (!row || !poll || (row.status !== 'running' && !sizeUnknown)) return row ?? null
    let outcome: 'running' | 'done' | 'failed'
    let sizeBytes = row.sizeBytes
    if (row.kind === 'backup') {
      const list = await this.client.get<{ Rows?: { Status?: string; Size?: number }[] }>(
        'ListBackupData',
        { ProductId: this.productId, BackupDataIdList: row.backupDataId! },
        API_VERSION_2025,
      )
      const found = list.Rows?.[0]
      outcome =
        found?.Status === 'completed' ? 'done' : found?.Status === 'failed' ? 'failed' : 'running'
      sizeBytes = found?.Size ?? sizeBytes
    } else {
      const info = await this.client.get<{ Jobs?: { Status?: number }[] }>('GetTaskInfo', {
        ProductId: this.productId,
        TaskId: taskId,
      })
      outcome = taskOutcome(info.Jobs?.[0]?.Status)
    }
    if (sizeUnknown) {
      await this.db.update(acepTasks).set({ sizeBytes }).where(eq(acepTasks.taskId, taskId))
      return { ...row, sizeBytes }
    }
    if (outcome !== 'running') await this.finishTask(taskId, outcome, sizeBytes, null)
    return { ...row, status: outcome, sizeBytes }
  }

  /** Ends a running task once (a late or replayed report of an ended task changes nothing). */
  private async finishTask(
    taskId: string,
    outcome: 'done' | 'failed',
    sizeBytes: number | null,
    failReason: string | null,
  ) {
    await this.db
      .update(acepTasks)
      .set({
        status: outcome,
        ...(sizeBytes !== null ? { sizeBytes } : {}),
        failReason,
        updatedAt: this.clock.now(),
      })
      .where(and(eq(acepTasks.taskId, taskId), eq(acepTasks.status, 'running')))
  }

  /**
   * A callback from ACEP's callback service: verified (callback.ts) before anything is read. Returns false
   * for one we refuse. Task events end their task; screenshot events keep the new address.
   */
  async acceptCallback(headers: Record<string, unknown>, rawBody: string): Promise<boolean> {
    const header = headers[CALLBACK_HEADER]
    const keys = {
      accessKey: this.credentials.callbackAccessKey,
      secret: this.credentials.callbackSecret,
    }
    if (typeof header !== 'string' || !verifyCallback(header, rawBody, keys, this.clock.now())) {
      return false
    }
    let event: AcepCallback
    try {
      event = JSON.parse(rawBody) as AcepCallback
    } catch {
      return false
    }
    for (const task of event.event_async_task ?? []) {
      const outcome = taskOutcome(task.task_status)
      if (task.global_task_id && outcome !== 'running') {
        // A backup's size is read from ListBackupData when the job next asks (null keeps the row's).
        await this.finishTask(task.global_task_id, outcome, null, null)
      }
    }
    for (const shot of event.event_screen_shot ?? []) {
      if (shot.pod_id && /^https?:\/\//.test(shot.download_url ?? '')) {
        await this.db
          .update(acepPods)
          .set({ screenUrl: shot.download_url, screenAt: this.clock.now() })
          .where(eq(acepPods.podId, shot.pod_id))
      }
    }
    return true
  }
}
