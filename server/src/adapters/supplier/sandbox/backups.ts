/**
 * The sandbox supplier's backup and restore tasks (sandbox_supplier_backup_tasks): accepted at once,
 * done after a delay (decided from timestamps when read, like the instances), failing for an instance
 * whose operations fail. A restore that goes through puts the backup's apps back on the phone.
 */
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { sandboxBackupTasks, sandboxInstances } from '../../../db/schema'
import type { Clock } from '../../../clock'
import type { BackupTaskState } from '../supplier-adapter'
import { BACKUP_FAILURE, FAIL_MARKER } from './catalogue'
import type { SandboxInstances } from './instances'

const MB = 1024 * 1024
/** Backups take 2× the supplier delay, restores 3×. */
const BACKUP_LENGTH = 2
const RESTORE_LENGTH = 3

export class SandboxBackups {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly delayMs: number,
    private readonly instances: SandboxInstances,
  ) {}

  async backup(instanceId: string, requestId: string) {
    const row = await this.instances.require(instanceId)
    // A few hundred MB of system data plus roughly 150 MB per installed app.
    const sizeBytes = (300 + row.apps.length * 150 + Math.floor(this.instances.random() * 100)) * MB
    return this.insertTask({
      requestId,
      instanceId,
      kind: 'backup',
      sourceId: null,
      fails: this.instances.fails(row.name),
      apps: row.apps,
      sizeBytes,
      length: BACKUP_LENGTH,
    })
  }

  async restore(instanceId: string, backupTaskId: string, requestId: string) {
    const row = await this.instances.require(instanceId)
    const [source] = await this.db
      .select()
      .from(sandboxBackupTasks)
      .where(and(eq(sandboxBackupTasks.id, backupTaskId), eq(sandboxBackupTasks.status, 'done')))
    if (!source) throw new Error(`sandbox supplier: no backup ${backupTaskId}`)
    return this.insertTask({
      requestId,
      instanceId,
      kind: 'restore',
      sourceId: source.id,
      fails: this.instances.fails(row.name),
      apps: source.apps,
      sizeBytes: source.sizeBytes,
      length: RESTORE_LENGTH,
    })
  }

  /** Starts a task once per requestId (asking again answers the same task). */
  private async insertTask(task: {
    requestId: string
    instanceId: string
    kind: 'backup' | 'restore'
    sourceId: string | null
    fails: boolean
    apps: string[]
    sizeBytes: number
    length: number
  }) {
    const now = this.clock.now()
    const { length, ...values } = task
    await this.db
      .insert(sandboxBackupTasks)
      .values({
        ...values,
        id: `sbk_${randomBytes(10).toString('hex')}`,
        status: 'running',
        readyAt: new Date(now.getTime() + this.delayMs * length),
        createdAt: now,
      })
      .onConflictDoNothing()
    const [row] = await this.db
      .select({ id: sandboxBackupTasks.id })
      .from(sandboxBackupTasks)
      .where(eq(sandboxBackupTasks.requestId, task.requestId))
    return { taskId: row.id }
  }

  /** The task as of now, finishing it when its time has come. */
  async task(taskId: string): Promise<BackupTaskState | null> {
    const [row] = await this.db
      .select()
      .from(sandboxBackupTasks)
      .where(eq(sandboxBackupTasks.id, taskId))
    if (!row) return null
    if (row.status === 'running' && row.readyAt <= this.clock.now()) {
      const status = row.fails ? 'failed' : 'done'
      await this.db.transaction(async (tx) => {
        const finished = await tx
          .update(sandboxBackupTasks)
          .set({ status })
          .where(and(eq(sandboxBackupTasks.id, row.id), eq(sandboxBackupTasks.status, 'running')))
          .returning({ id: sandboxBackupTasks.id })
        // A restore that went through puts the backup's apps back on the phone.
        if (finished.length && status === 'done' && row.kind === 'restore') {
          await tx
            .update(sandboxInstances)
            .set({ apps: row.apps })
            .where(eq(sandboxInstances.id, row.instanceId))
        }
      })
      row.status = status
    }
    const failed = row.status === 'failed'
    return {
      status: row.status === 'running' ? 'running' : failed ? 'failed' : 'done',
      sizeBytes: row.status === 'running' || failed ? 0 : row.sizeBytes,
      failReason: failed ? BACKUP_FAILURE[row.kind as 'backup' | 'restore'] : null,
      readyAt: row.status === 'running' ? row.readyAt : null,
    }
  }

  /** Fails like a supplier whose storage refuses, for a backup of an instance named with FAIL_MARKER. */
  async delete(taskId: string) {
    const [task] = await this.db
      .select({ instanceId: sandboxBackupTasks.instanceId })
      .from(sandboxBackupTasks)
      .where(eq(sandboxBackupTasks.id, taskId))
    const instance = task ? await this.instances.load(task.instanceId) : null
    if (instance?.name.includes(FAIL_MARKER)) {
      throw new Error(`sandbox supplier: deleting backup ${taskId} failed`)
    }
    await this.db
      .update(sandboxBackupTasks)
      .set({ status: 'deleted' })
      .where(and(eq(sandboxBackupTasks.id, taskId), eq(sandboxBackupTasks.kind, 'backup')))
  }
}
