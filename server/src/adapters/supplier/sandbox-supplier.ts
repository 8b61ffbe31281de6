import { randomBytes } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { DeviceCommand } from '#domain/enums'
import type { Db } from '../../db/client'
import { sandboxBackupTasks, sandboxInstances } from '../../db/schema'
import type { Clock } from '../../clock'
import type {
  CommandOutcome,
  CommandRequest,
  BackupTaskState,
  ControlPageRequest,
  CreateInstanceRequest,
  DeviceModel,
  InstanceOp,
  InstanceState,
  SupplierAdapter,
} from './supplier-adapter'

export interface SandboxSupplierSettings {
  /** How long provisioning and a reboot take; zone changes take 2×, system updates 5×. */
  delayMs: number
  /** 0–1: share of creates, replacements and commands that fail. */
  failureRate: number
  random?: () => number
}

export const SANDBOX_PREFIX = '/vmcloud/api/sandbox/supplier'

export const SANDBOX_MODELS: DeviceModel[] = [
  { modelId: 'xiaomi-13', name: '小米13', brand: '小米' },
  { modelId: 'huawei-mate50', name: '华为Mate50', brand: '华为' },
  { modelId: 'oppo-findx6', name: 'OPPO Find X6', brand: 'OPPO' },
  { modelId: 'vivo-x90', name: 'vivo X90', brand: 'vivo' },
  { modelId: 'samsung-s23', name: '三星S23', brand: '三星' },
]

/** Image versions the sandbox knows, oldest first; new instances start on the one before the latest. */
export const SANDBOX_IMAGE_VERSIONS = ['10.0.2', '10.0.3'] as const
const LATEST_IMAGE = SANDBOX_IMAGE_VERSIONS[SANDBOX_IMAGE_VERSIONS.length - 1]
const INITIAL_IMAGE = SANDBOX_IMAGE_VERSIONS[0]

/** Apps a fresh instance comes with (package names, shown on the screen and uninstallable). */
export const DEFAULT_APPS = [
  'com.tencent.mm',
  'com.ss.android.ugc.aweme',
  'com.taobao.taobao',
  'com.eg.android.AlipayGphone',
  'com.xingin.xhs',
  'com.sina.weibo',
]

/** A name with this marker makes create and replace fail (for trying the failure path by hand). */
export const FAIL_MARKER = '#fail'

const COMMAND_DONE: Record<string, string> = {
  [DeviceCommand.CleanVm]: '清理完成',
  [DeviceCommand.DeepCleanVm]: '深度清理完成',
  [DeviceCommand.CleanMem]: '内存已释放',
  [DeviceCommand.OpenUrl]: '已打开网址',
  [DeviceCommand.GetVmCover]: '画面已刷新',
}

type Row = typeof sandboxInstances.$inferSelect
type Op = 'create' | 'reboot' | InstanceOp

const OP_LENGTH: Record<Op, number> = { create: 1, reboot: 1, changeZone: 2, systemUpdate: 5 }

/**
 * A supplier that lives in our own database and behaves like a remote one: work is accepted at once
 * and finishes after a delay. Completion is decided from timestamps whenever an instance is read, so it
 * survives restarts and needs no timers.
 */
export class SandboxSupplier implements SupplierAdapter {
  readonly name = 'sandbox'
  private readonly random: () => number

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SandboxSupplierSettings,
  ) {
    this.random = settings.random ?? Math.random
  }

  private fails(name?: string) {
    return (name?.includes(FAIL_MARKER) ?? false) || this.random() < this.settings.failureRate
  }

  private opWindow(op: Op) {
    const now = this.clock.now()
    return {
      op,
      opStartedAt: now,
      opReadyAt: new Date(now.getTime() + this.settings.delayMs * OP_LENGTH[op]),
    }
  }

  async create(request: CreateInstanceRequest) {
    return this.insertInstance(request, [...DEFAULT_APPS])
  }

  private async insertInstance(request: CreateInstanceRequest, apps: string[]) {
    const [existing] = await this.db
      .select({ id: sandboxInstances.id })
      .from(sandboxInstances)
      .where(eq(sandboxInstances.requestId, request.requestId))
    if (existing) return { instanceId: existing.id }
    const id = `sbx_${randomBytes(10).toString('hex')}`
    const fails = this.fails(request.name)
    await this.db
      .insert(sandboxInstances)
      .values({
        id,
        requestId: request.requestId,
        name: request.name,
        goodId: request.goodId,
        zoneId: request.zoneId,
        status: 'creating',
        ...this.opWindow('create'),
        opFails: fails,
        failReason: null,
        expireAt: request.expireAt,
        model: request.model ?? SANDBOX_MODELS[0].modelId,
        imageVersion: INITIAL_IMAGE,
        apps,
        hue: Math.floor(this.random() * 360),
        createdAt: this.clock.now(),
      })
      .onConflictDoNothing()
    const [row] = await this.db
      .select({ id: sandboxInstances.id })
      .from(sandboxInstances)
      .where(eq(sandboxInstances.requestId, request.requestId))
    return { instanceId: row.id }
  }

  /** The instance as of now, finishing an operation whose time has come. */
  private async load(instanceId: string): Promise<Row | null> {
    const [row] = await this.db
      .select()
      .from(sandboxInstances)
      .where(eq(sandboxInstances.id, instanceId))
    if (!row) return null
    if (!row.op || !row.opReadyAt || row.opReadyAt > this.clock.now()) return row
    const done = finishOp(row)
    await this.db
      .update(sandboxInstances)
      .set(done)
      .where(and(eq(sandboxInstances.id, row.id), eq(sandboxInstances.op, row.op)))
    return { ...row, ...done }
  }

  private async require(instanceId: string): Promise<Row> {
    const row = await this.load(instanceId)
    if (!row) throw new Error(`sandbox supplier: no instance ${instanceId}`)
    return row
  }

  async state(instanceId: string): Promise<InstanceState | null> {
    const row = await this.load(instanceId)
    if (!row) return null
    return {
      instanceId: row.id,
      status: row.status as InstanceState['status'],
      op: row.op === 'changeZone' || row.op === 'systemUpdate' ? row.op : null,
      progress: row.op === 'systemUpdate' ? this.progress(row) : null,
      readyAt: row.op ? row.opReadyAt : null,
      failReason: row.failReason,
      zoneId: row.zoneId,
      goodId: row.goodId,
      expireAt: row.expireAt,
      model: row.model,
      imageVersion: row.imageVersion,
    }
  }

  private progress(row: Row): number {
    if (!row.opStartedAt || !row.opReadyAt) return 0
    const total = row.opReadyAt.getTime() - row.opStartedAt.getTime()
    const spent = this.clock.now().getTime() - row.opStartedAt.getTime()
    return Math.min(99, Math.max(0, Math.floor((spent / Math.max(1, total)) * 100)))
  }

  async renew(instanceId: string, expireAt: Date) {
    await this.require(instanceId)
    await this.db
      .update(sandboxInstances)
      .set({ expireAt })
      .where(eq(sandboxInstances.id, instanceId))
  }

  async release(instanceId: string) {
    await this.db
      .update(sandboxInstances)
      .set({ status: 'released', op: null, opReadyAt: null, releasedAt: this.clock.now() })
      .where(and(eq(sandboxInstances.id, instanceId), isNull(sandboxInstances.releasedAt)))
  }

  async command(instanceId: string, request: CommandRequest): Promise<CommandOutcome> {
    const row = await this.require(instanceId)
    if (row.status === 'rebooting') return { ok: false, msg: '云手机重启中，请稍后' }
    if (row.status !== 'running') return { ok: false, msg: '云手机未运行' }
    if (row.op === 'changeZone') return { ok: false, msg: '云手机正在迁移数据，请稍后' }
    if (row.op === 'systemUpdate') return { ok: false, msg: '云手机正在更新系统，请稍后' }
    if (request.command !== DeviceCommand.GetVmCover && this.fails()) {
      return { ok: false, msg: '云手机响应超时，请重试' }
    }
    const now = this.clock.now()
    const noted = { lastCommand: describe(request), lastCommandAt: now }
    if (request.command === DeviceCommand.Reboot) {
      await this.db
        .update(sandboxInstances)
        .set({ status: 'rebooting', ...this.opWindow('reboot'), opFails: false, ...noted })
        .where(eq(sandboxInstances.id, instanceId))
      return { ok: true, msg: '正在重启' }
    }
    if (request.command === DeviceCommand.Uninstall) {
      if (!request.packageName || !row.apps.includes(request.packageName)) {
        return { ok: false, msg: '应用不存在', refusal: 'appNotFound' }
      }
      const apps = row.apps.filter((app) => app !== request.packageName)
      await this.db
        .update(sandboxInstances)
        .set({ apps, ...noted })
        .where(eq(sandboxInstances.id, instanceId))
      return { ok: true, msg: '已卸载' }
    }
    await this.db.update(sandboxInstances).set(noted).where(eq(sandboxInstances.id, instanceId))
    return { ok: true, msg: COMMAND_DONE[request.command] ?? '操作成功' }
  }

  coverUrl(instanceId: string, at: Date, pass: string) {
    return `${SANDBOX_PREFIX}/cover/${instanceId}?t=${at.getTime()}&${pass}`
  }

  async cover(instanceId: string, pass: string) {
    await this.require(instanceId)
    const now = this.clock.now()
    return { url: this.coverUrl(instanceId, now, pass), updatedAt: now }
  }

  private async startOp(instanceId: string, op: InstanceOp, target: Record<string, unknown>) {
    const row = await this.require(instanceId)
    if (row.status !== 'running' || row.op) throw new Error(`sandbox supplier: ${instanceId} busy`)
    await this.db
      .update(sandboxInstances)
      .set({ ...this.opWindow(op), opFails: false, opTarget: target })
      .where(eq(sandboxInstances.id, instanceId))
  }

  changeZone(instanceId: string, zoneId: number) {
    return this.startOp(instanceId, 'changeZone', { zoneId })
  }

  async changeConfig(instanceId: string, goodId: number) {
    await this.require(instanceId)
    await this.db
      .update(sandboxInstances)
      .set({ goodId })
      .where(eq(sandboxInstances.id, instanceId))
  }

  latestImageVersion() {
    return LATEST_IMAGE
  }

  systemUpdate(instanceId: string) {
    return this.startOp(instanceId, 'systemUpdate', { imageVersion: LATEST_IMAGE })
  }

  async replace(instanceId: string, request: CreateInstanceRequest & { keepData: boolean }) {
    const old = await this.require(instanceId)
    const apps = request.keepData && old.status === 'running' ? old.apps : [...DEFAULT_APPS]
    return this.insertInstance({ ...request, model: request.model ?? old.model }, apps)
  }

  async rename(instanceId: string, name: string) {
    await this.db.update(sandboxInstances).set({ name }).where(eq(sandboxInstances.id, instanceId))
  }

  models() {
    return SANDBOX_MODELS
  }

  async setModel(instanceId: string, modelId: string) {
    if (!SANDBOX_MODELS.some((model) => model.modelId === modelId)) {
      throw new Error(`sandbox supplier: unknown model ${modelId}`)
    }
    await this.require(instanceId)
    await this.db
      .update(sandboxInstances)
      .set({ model: modelId })
      .where(eq(sandboxInstances.id, instanceId))
  }

  controlUrl(request: ControlPageRequest) {
    return `${SANDBOX_PREFIX}/control?deviceId=${request.deviceId}`
  }

  async backup(instanceId: string, requestId: string) {
    const row = await this.require(instanceId)
    // A few hundred MB of system data plus roughly 150 MB per installed app.
    const sizeBytes = (300 + row.apps.length * 150 + Math.floor(this.random() * 100)) * MB
    return this.insertBackupTask({
      requestId,
      instanceId,
      kind: 'backup',
      sourceId: null,
      fails: this.fails(row.name),
      apps: row.apps,
      sizeBytes,
      length: BACKUP_LENGTH,
    })
  }

  async restore(instanceId: string, backupTaskId: string, requestId: string) {
    const row = await this.require(instanceId)
    const [source] = await this.db
      .select()
      .from(sandboxBackupTasks)
      .where(and(eq(sandboxBackupTasks.id, backupTaskId), eq(sandboxBackupTasks.status, 'done')))
    if (!source) throw new Error(`sandbox supplier: no backup ${backupTaskId}`)
    return this.insertBackupTask({
      requestId,
      instanceId,
      kind: 'restore',
      sourceId: source.id,
      fails: this.fails(row.name),
      apps: source.apps,
      sizeBytes: source.sizeBytes,
      length: RESTORE_LENGTH,
    })
  }

  private async insertBackupTask(task: {
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
        readyAt: new Date(now.getTime() + this.settings.delayMs * length),
        createdAt: now,
      })
      .onConflictDoNothing()
    const [row] = await this.db
      .select({ id: sandboxBackupTasks.id })
      .from(sandboxBackupTasks)
      .where(eq(sandboxBackupTasks.requestId, task.requestId))
    return { taskId: row.id }
  }

  async backupTask(taskId: string): Promise<BackupTaskState | null> {
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
  async deleteBackup(taskId: string) {
    const [task] = await this.db
      .select({ instanceId: sandboxBackupTasks.instanceId })
      .from(sandboxBackupTasks)
      .where(eq(sandboxBackupTasks.id, taskId))
    const instance = task ? await this.load(task.instanceId) : null
    if (instance?.name.includes(FAIL_MARKER)) {
      throw new Error(`sandbox supplier: deleting backup ${taskId} failed`)
    }
    await this.db
      .update(sandboxBackupTasks)
      .set({ status: 'deleted' })
      .where(and(eq(sandboxBackupTasks.id, taskId), eq(sandboxBackupTasks.kind, 'backup')))
  }

  /** The instance as the cover renderer needs it (null when unknown). */
  async snapshot(instanceId: string) {
    const row = await this.load(instanceId)
    if (!row) return null
    return {
      ...row,
      progress: row.op ? this.progress(row) : null,
      modelName: SANDBOX_MODELS.find((model) => model.modelId === row.model)?.name ?? row.model,
    }
  }
}

export type SandboxSnapshot = NonNullable<Awaited<ReturnType<SandboxSupplier['snapshot']>>>

function describe(request: CommandRequest): string {
  if (request.command === DeviceCommand.OpenUrl) return `OpenUrl ${request.url ?? ''}`
  if (request.command === DeviceCommand.Uninstall) return `Uninstall ${request.packageName ?? ''}`
  return request.command
}

const START_FAILURE = '云手机启动失败，资源分配异常'

const MB = 1024 * 1024
/** Backups take 2× the supplier delay, restores 3×. */
const BACKUP_LENGTH = 2
const RESTORE_LENGTH = 3
const BACKUP_FAILURE = {
  backup: '备份失败，云手机数据读取异常',
  restore: '恢复失败，云手机数据写入异常',
} as const

/** The row changes that end an operation whose time has come. */
function finishOp(row: Row): Partial<Row> {
  const cleared = { op: null, opStartedAt: null, opReadyAt: null, opFails: false, opTarget: null }
  const target = row.opTarget ?? {}
  switch (row.op) {
    case 'create':
      return row.opFails
        ? { ...cleared, status: 'failed', failReason: START_FAILURE }
        : { ...cleared, status: 'running' }
    case 'reboot':
      return { ...cleared, status: 'running' }
    case 'changeZone':
      return { ...cleared, zoneId: Number(target.zoneId) }
    case 'systemUpdate':
      return { ...cleared, imageVersion: String(target.imageVersion) }
    default:
      return cleared
  }
}
