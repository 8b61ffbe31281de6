/**
 * ACEP's long tasks for AcepSupplier: data backups and restores (the SupplierAdapter's backup calls),
 * zone migrations, factory resets and the data copy of a replacement, each recorded on our side and
 * followed by polling ACEP (GetTaskInfo, ListBackupData; a migration by the pod's own DetailPod), which
 * the jobs do every second while a task runs. ACEP's callbacks only make us ask sooner: a callback never
 * decides a task's outcome, so a misread callback costs latency, never a wrong or stuck task.
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { acepPods, acepTasks } from '../../../db/schema'
import type { Clock } from '../../../clock'
import type { BackupTaskState } from '../supplier-adapter'
import { type AcepClient, isNotFound } from './acep-client'
import { type AcepCallback, CALLBACK_HEADER, type CallbackCheck, verifyCallback } from './callback'
import type { AcepCredentials } from './credentials'

/**
 * A task's state from GetTaskInfo (2025-05-01, docs 6394/2189053): its pod's Job.Status −2 部分失败,
 * −1 全部失败, 10 执行中, 100 成功; the task's TaskResult 100 执行完成, below 0 执行失败. Any other value
 * (a task type's own intermediate codes) is still running.
 */
export function taskOutcome(status: number | undefined): 'running' | 'done' | 'failed' {
  if (status === 100) return 'done'
  if (status !== undefined && status < 0) return 'failed'
  return 'running'
}

/** ListBackupData's Status (docs 6394/1852296): completed can be restored, failed ended badly. */
export function backupOutcome(status: string | undefined): 'running' | 'done' | 'failed' {
  if (status === 'completed') return 'done'
  return status === 'failed' ? 'failed' : 'running'
}

/** A zone change ACEP never finished by then is given up (the pod stays where it was). */
export const MIGRATE_TIMEOUT_MS = 30 * 60_000

const FAILURE = {
  backup: '备份失败，云手机数据读取异常',
  restore: '恢复失败，云手机数据写入异常',
} as const

type PodRow = typeof acepPods.$inferSelect

/** One pod's entry in the Details of a list action's answer. */
interface PodDetail {
  PodId?: string
  TaskId?: string
  BackupDataId?: string
  Success?: boolean
  ErrCode?: number
  ErrMsg?: string
}

/** The pod's entry of a list action's Details, or why ACEP refused it (absent, or Success false). */
function detailFor(action: string, podId: string, details: PodDetail[] | undefined) {
  const detail = details?.find((d) => d.PodId === podId)
  if (!detail) throw new Error(`ACEP ${action}: the answer names no pod ${podId}`)
  if (detail.Success === false) {
    throw new Error(
      `ACEP ${action} refused pod ${podId}: ${detail.ErrCode ?? ''} ${detail.ErrMsg ?? ''}`,
    )
  }
  return detail
}

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

  /** BackupData (2025-05-01) of one pod: its task and backup ids are the pod's entry in Details. */
  async backup(podId: string, requestId: string) {
    const known = await this.taskByRequest(requestId)
    if (known) return { taskId: known }
    const result = await this.client.call<{ Details?: PodDetail[] }>('BackupData', {
      ProductId: this.productId,
      PodIdList: [podId],
    })
    const detail = detailFor('BackupData', podId, result?.Details)
    if (!detail.TaskId || !detail.BackupDataId) {
      throw new Error(`ACEP BackupData: no task or backup id for pod ${podId}`)
    }
    await this.recordTask(detail.TaskId, 'backup', podId, detail.BackupDataId, requestId)
    return { taskId: detail.TaskId }
  }

  /** RestoreData (2025-05-01) of a finished backup onto one pod: its task is the pod's entry in Details. */
  async restore(podId: string, backupTaskId: string, requestId: string) {
    const known = await this.taskByRequest(requestId)
    if (known) return { taskId: known }
    const source = await this.task(backupTaskId)
    if (!source?.backupDataId || source.status !== 'done') {
      throw new Error(`ACEP supplier: no finished backup ${backupTaskId}`)
    }
    const result = await this.client.call<{ Details?: PodDetail[] }>('RestoreData', {
      ProductId: this.productId,
      PodIdList: [podId],
      BackupDataId: source.backupDataId,
    })
    const detail = detailFor('RestoreData', podId, result?.Details)
    if (!detail.TaskId) throw new Error(`ACEP RestoreData: no task id for pod ${podId}`)
    await this.recordTask(
      detail.TaskId,
      'restore',
      podId,
      source.backupDataId,
      requestId,
      source.sizeBytes,
    )
    return { taskId: detail.TaskId }
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

  /** DeleteBackupData (2025-05-01): each backup answered in Details, ErrCode 0 when it went. */
  async deleteBackup(taskId: string) {
    const task = await this.task(taskId, false)
    if (!task || task.kind !== 'backup' || task.status === 'deleted') return
    try {
      const result = await this.client.call<{
        Details?: { BackupDataId?: string; ErrCode?: number; ErrMsg?: string }[]
      }>('DeleteBackupData', { ProductId: this.productId, BackupDataIdList: [task.backupDataId] })
      const detail = result?.Details?.find((d) => d.BackupDataId === task.backupDataId)
      if (detail?.ErrCode) {
        throw new Error(
          `ACEP DeleteBackupData ${task.backupDataId}: ${detail.ErrCode} ${detail.ErrMsg ?? ''}`,
        )
      }
    } catch (error) {
      if (!isNotFound(error)) throw error
    }
    await this.db
      .update(acepTasks)
      .set({ status: 'deleted', updatedAt: this.clock.now() })
      .where(eq(acepTasks.taskId, taskId))
  }

  /**
   * Starts moving a pod to another data centre (MigratePod, 2025-05-01: PodIdList and TargetDc; its
   * answer is each pod's Success in Details and no task id). ACEP moved it when DetailPod names the
   * target Dc (followMigration).
   */
  async migrate(podId: string, zoneId: number, dc: string) {
    const result = await this.client.call<{ Details?: PodDetail[] }>('MigratePod', {
      ProductId: this.productId,
      PodIdList: [podId],
      TargetDc: dc,
    })
    detailFor('MigratePod', podId, result?.Details)
    await this.db
      .update(acepPods)
      .set({ migrateZoneId: zoneId, migrateStartedAt: this.clock.now() })
      .where(eq(acepPods.podId, podId))
  }

  /**
   * Where a zone change is, from the pod's DetailPod: done once it runs in the target data centre; given
   * up after MIGRATE_TIMEOUT_MS (the zone kept). Once it ended the row is cleared.
   */
  async followMigration(row: PodRow, detail: { dc?: string; online?: number }, targetDc: string) {
    const moved = detail.dc === targetDc && detail.online === 1
    const startedAt = row.migrateStartedAt?.getTime() ?? 0
    const late = this.clock.now().getTime() - startedAt >= MIGRATE_TIMEOUT_MS
    if (!moved && !late) return 'running' as const
    await this.db
      .update(acepPods)
      .set({
        migrateZoneId: null,
        migrateStartedAt: null,
        ...(moved ? { zoneId: row.migrateZoneId! } : {}),
      })
      .where(eq(acepPods.requestId, row.requestId))
    return moved ? ('done' as const) : ('failed' as const)
  }

  /**
   * A factory reset (ResetPod, 2025-05-01, docs 6394/1905410): apps and files erased, the pod's
   * properties kept (ResetType 1: they are ours, set at CreatePod, not the user's data). The answer is
   * a task (TaskId) with a Job per pod; a pod whose Job already failed is a refusal. The task is
   * followed by GetTaskInfo (resetRunning).
   */
  async reset(podId: string) {
    const result = await this.client.call<{
      TaskId?: string
      Jobs?: { PodId?: string; Status?: number }[]
    } | null>('ResetPod', { ProductId: this.productId, PodIdList: [podId], ResetType: 1 })
    const job = result?.Jobs?.find((j) => j.PodId === podId)
    if (job && taskOutcome(job.Status) === 'failed') {
      throw new Error(`ACEP ResetPod ${podId}: its job failed (${job.Status})`)
    }
    if (result?.TaskId) await this.recordTask(result.TaskId, 'reset', podId, null, null)
  }

  /**
   * Whether a reset of the pod is still running at ACEP (its task as GetTaskInfo last said). A failed
   * reset leaves the pod as it was: running, with its data.
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
    kind: 'backup' | 'restore' | 'reset',
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
   * A task as we know it; a running one is asked about at ACEP: ListBackupData for a backup (its
   * status and size), GetTaskInfo for the rest (the Job of its pod).
   */
  private async task(taskId: string, poll = true) {
    const [row] = await this.db.select().from(acepTasks).where(eq(acepTasks.taskId, taskId))
    if (!row || !poll || row.status !== 'running') return row ?? null
    let outcome: 'running' | 'done' | 'failed'
    let sizeBytes = row.sizeBytes
    if (row.kind === 'backup') {
      const list = await this.client.call<{
        Rows?: { BackupDataId?: string; Status?: string; Size?: number }[]
      }>('ListBackupData', { ProductId: this.productId, BackupDataIdList: [row.backupDataId] })
      const found = list?.Rows?.find((r) => r.BackupDataId === row.backupDataId)
      outcome = backupOutcome(found?.Status)
      sizeBytes = found?.Size ?? sizeBytes
    } else {
      const info = await this.client.call<{
        TaskResult?: number
        Jobs?: { PodId?: string; Status?: number }[]
      }>('GetTaskInfo', { ProductId: this.productId, TaskId: taskId })
      const job = info?.Jobs?.find((j) => j.PodId === row.podId)
      outcome = taskOutcome(job ? job.Status : info?.TaskResult)
    }
    if (outcome !== 'running') await this.finishTask(taskId, outcome, sizeBytes)
    return { ...row, status: outcome, sizeBytes }
  }

  /** Ends a running task once (a later report of an ended task changes nothing). */
  private async finishTask(taskId: string, outcome: 'done' | 'failed', sizeBytes: number) {
    await this.db
      .update(acepTasks)
      .set({ status: outcome, sizeBytes, updatedAt: this.clock.now() })
      .where(and(eq(acepTasks.taskId, taskId), eq(acepTasks.status, 'running')))
  }

  /**
   * A callback from ACEP's callback service, verified (callback.ts) before anything is read. An
   * AsyncTask event about a task of ours has it asked about at ACEP at once (its own task_status is
   * not trusted: the guide's value list is not one we could read); Ping and InstanceStatus change
   * nothing. What the route logs when it refuses one.
   */
  async acceptCallback(headers: Record<string, unknown>, rawBody: string): Promise<CallbackCheck> {
    const header = headers[CALLBACK_HEADER]
    const keys = {
      accessKey: this.credentials.callbackAccessKey,
      secret: this.credentials.callbackSecret,
    }
    const check = verifyCallback(
      typeof header === 'string' ? header : undefined,
      rawBody,
      keys,
      this.clock.now(),
    )
    if (!check.ok) return check
    let event: AcepCallback
    try {
      event = JSON.parse(rawBody) as AcepCallback
    } catch {
      return { ok: false, reason: 'the body is not JSON' }
    }
    const taskIds = new Set(
      (Array.isArray(event.event_async_task) ? event.event_async_task : [])
        .map((task) => task?.global_task_id)
        .filter((id): id is string => typeof id === 'string' && id.length <= 64),
    )
    for (const taskId of taskIds) {
      // ACEP unreachable now: the job's next poll asks again.
      await this.task(taskId).catch(() => null)
    }
    return { ok: true }
  }
}
