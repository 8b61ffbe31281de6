/**
 * Volcano Engine ACEP (火山引擎云手机) behind our SupplierAdapter. ACEP runs the pods; we keep what it
 * has no field for (acep_pods: our requestId, goods, zone, expiry and model; acep_tasks: backups,
 * restores and migrations as their callbacks or GetTaskInfo last said). Long work is followed as the
 * sandbox's is: `state` and `backupTask` are asked again until it ends.
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, inArray, isNull } from 'drizzle-orm'
import { DeviceCommand } from '#domain/enums'
import type { Db } from '../../../db/client'
import { acepPods, acepTasks } from '../../../db/schema'
import type { Clock } from '../../../clock'
import type {
  BackupTaskState,
  CommandOutcome,
  CommandRequest,
  ControlPageRequest,
  CreateInstanceRequest,
  InstanceState,
  InstanceStatus,
  SupplierAdapter,
} from '../supplier-adapter'
import { SUPPLIER_UNREACHABLE } from '../supplier-adapter'
import { type AcepClient, AcepError, API_VERSION_2025, type ListAction } from './acep-client'
import { type AcepCallback, CALLBACK_HEADER, verifyCallback } from './callback'
import { AcepCatalogue } from './catalogue'
import type { AcepCredentials } from './credentials'
import type { AcepStream } from './stream'

/** Where our own ACEP pages live (callback, screen relay): public routes, each checking its caller. */
export const ACEP_PREFIX = '/vmcloud/api/supplier/acep'

/** ACEP's error codes for a pod or backup that does not exist (any more). */
const NOT_FOUND = new Set(['ResourceNotFound', 'InvalidPodId', 'PodNotFound', 'BackupDataNotFound'])

/** Shell commands for the commands ACEP has no action of its own for (RunSyncCommand). */
const SHELL: Partial<Record<DeviceCommand, string>> = {
  [DeviceCommand.CleanVm]: 'pm trim-caches 999G',
  [DeviceCommand.CleanMem]: 'am kill-all',
  [DeviceCommand.DeepCleanVm]: 'am kill-all; pm trim-caches 999G',
}
const COMMAND_DONE: Partial<Record<DeviceCommand, string>> = {
  [DeviceCommand.CleanVm]: '清理完成',
  [DeviceCommand.CleanMem]: '内存已释放',
  [DeviceCommand.DeepCleanVm]: '深度清理完成',
  [DeviceCommand.OpenUrl]: '已打开网址',
  [DeviceCommand.GetVmCover]: '画面已刷新',
}
/** A package name as Android allows it: nothing a shell would read as more than one word. */
const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/

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

interface PodDetail {
  PodId?: string
  PodName?: string
  ImageId?: string
  Online?: number
  DcInfo?: { Dc?: string }
  Configuration?: { ConfigurationCode?: string }
}

export interface AcepSettings {
  /** The image new pods get and systemUpdate moves to ('' : ACEP's standard image, no updates). */
  imageId?: string
  /** Base of the addresses we hand out (our own routes); '' for relative ones. */
  publicBase?: string
  /** The control page's live stream (stream.ts); null or absent: screenshots. */
  stream?: AcepStream | null
}

export class AcepSupplier implements SupplierAdapter {
  readonly name = 'acep'
  readonly catalogue: AcepCatalogue
  /** The control page's live stream, when the operator gave the web SDK (stream.ts). */
  readonly stream: AcepStream | null
  private readonly imageId: string

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly credentials: AcepCredentials,
    private readonly client: AcepClient,
    settings: AcepSettings = {},
  ) {
    this.catalogue = new AcepCatalogue(db)
    this.imageId = settings.imageId ?? ''
    this.stream = settings.stream ?? null
  }

  private get productId() {
    return this.credentials.productId
  }

  /**
   * CreatePod has no idempotency key, so the requestId is written down first and the pod is named after
   * it: a create retried after a crash between CreatePod and our write finds its pod by name (ListPod)
   * instead of making a second one.
   */
  async create(request: CreateInstanceRequest) {
    const podName = `cp-${createHash('sha256').update(request.requestId).digest('hex').slice(0, 24)}`
    const inserted = await this.db
      .insert(acepPods)
      .values({
        requestId: request.requestId,
        podName,
        goodId: request.goodId,
        zoneId: request.zoneId,
        expireAt: request.expireAt,
        model: request.model ?? '',
        createdAt: this.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ requestId: acepPods.requestId })
    const [row] = await this.db
      .select()
      .from(acepPods)
      .where(eq(acepPods.requestId, request.requestId))
    if (row.podId) return { instanceId: row.podId }
    let podId = inserted.length === 0 ? await this.findPodByName(row.podName) : null
    if (!podId) {
      const result = await this.client.post<{ PodId?: string; PodIdList?: string[] }>('CreatePod', {
        ProductId: this.productId,
        PodName: row.podName,
        ConfigurationCode: await this.catalogue.remote('goods', row.goodId),
        Dc: await this.catalogue.remote('zone', row.zoneId),
        ...(this.imageId ? { ImageId: this.imageId } : {}),
        Start: true,
      })
      podId = result.PodId ?? result.PodIdList?.[0] ?? null
      if (!podId) throw new Error('ACEP CreatePod answered no PodId')
    }
    await this.db.update(acepPods).set({ podId }).where(eq(acepPods.requestId, request.requestId))
    return { instanceId: podId }
  }

  private async findPodByName(podName: string): Promise<string | null> {
    for (let offset = 0; ; offset += 100) {
      const page = await this.client.get<{ Row?: PodDetail[]; Total?: number }>('ListPod', {
        ProductId: this.productId,
        Offset: String(offset),
        Count: '100',
      })
      const found = page.Row?.find((pod) => pod.PodName === podName)
      if (found?.PodId) return found.PodId
      if (!page.Row?.length || offset + 100 >= (page.Total ?? 0)) return null
    }
  }

  private async pod(podId: string) {
    const [row] = await this.db.select().from(acepPods).where(eq(acepPods.podId, podId))
    return row ?? null
  }

  private async requirePod(podId: string) {
    const row = await this.pod(podId)
    if (!row) throw new Error(`ACEP: no pod ${podId} of ours`)
    return row
  }

  async state(podId: string): Promise<InstanceState | null> {
    const row = await this.pod(podId)
    if (!row) return null
    const base = {
      instanceId: podId,
      op: null,
      progress: null,
      readyAt: null,
      failReason: null,
      zoneId: row.zoneId,
      goodId: row.goodId,
      expireAt: row.expireAt,
      model: row.model,
      imageVersion: '',
    }
    if (row.releasedAt) return { ...base, status: 'released' }
    let detail: PodDetail
    try {
      detail = await this.client.get<PodDetail>('DetailPod', {
        ProductId: this.productId,
        PodId: podId,
      })
    } catch (error) {
      if (error instanceof AcepError && NOT_FOUND.has(error.code)) {
        return { ...base, status: 'failed', failReason: '云手机实例不存在' }
      }
      throw error
    }
    let status = await this.statusOf(podId, detail.Online, row.seenRunning === 1)
    if (status === 'running' && row.copyStage) {
      const copy = await this.followCopy(row)
      if (copy === 'copying') status = 'creating'
      if (copy === 'failed') {
        return { ...base, status: 'failed', failReason: '数据复制失败，原云手机可继续使用' }
      }
    }
    const migration = row.migrateTaskId ? await this.followMigration(row) : null
    return {
      ...base,
      status,
      op: migration === 'running' ? 'changeZone' : null,
      zoneId: migration === 'done' ? row.migrateZoneId! : row.zoneId,
      imageVersion: this.imageId ? (detail.ImageId ?? '') : '',
    }
  }

  /** DetailPod's Online: 0 booting, 1 running, 2 off, 3 shutting down, 4 rebooting. */
  private async statusOf(podId: string, online: number | undefined, seenRunning: boolean) {
    let status: InstanceStatus
    if (online === 1) status = 'running'
    else if (online === 0) status = seenRunning ? 'rebooting' : 'creating'
    else if (online === 4) status = 'rebooting'
    else {
      // Our phones run for as long as they are rented: a pod found off is started again.
      if (online === 2) {
        await this.client.post('PowerOnPod', { ProductId: this.productId, PodIdList: [podId] })
      }
      status = seenRunning ? 'rebooting' : 'creating'
    }
    if (status === 'running' && !seenRunning) {
      await this.db.update(acepPods).set({ seenRunning: 1 }).where(eq(acepPods.podId, podId))
    }
    return status
  }

  /** Where a zone change is; once it ended the row is cleared (the new zone kept when it went through). */
  private async followMigration(row: typeof acepPods.$inferSelect) {
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
   * ACEP bills the business's resources (prepaid or postpaid at the product level), not our rental: a
   * phone's expiry is ours (expire-devices releases the pod when it ends), so renewing only records it.
   */
  async renew(podId: string, expireAt: Date) {
    await this.requirePod(podId)
    await this.db.update(acepPods).set({ expireAt }).where(eq(acepPods.podId, podId))
  }

  async release(podId: string) {
    try {
      await this.client.post('DeletePod', { ProductId: this.productId, PodIdList: [podId] })
    } catch (error) {
      // Deleting a pod ACEP no longer has is done already.
      if (!(error instanceof AcepError && NOT_FOUND.has(error.code))) throw error
    }
    await this.db
      .update(acepPods)
      .set({ releasedAt: this.clock.now() })
      .where(and(eq(acepPods.podId, podId), isNull(acepPods.releasedAt)))
  }

  /** One pod goes the way a batch goes, as a batch of one. */
  async command(podId: string, request: CommandRequest): Promise<CommandOutcome> {
    return (await this.commandMany([podId], request)).get(podId)!
  }

  /**
   * The same command on many pods through ACEP's list calls, each split to its action's limit
   * (POD_LIST_LIMITS): reboot by RebootPod, a screen refresh by BatchScreenShot (the images come by
   * callback), the cleaning commands and opening an address by RunSyncCommand (which answers per pod),
   * uninstall by UninstallApp for an app of ACEP's app centre and `pm uninstall` otherwise, once each
   * pod's app list said which (GetPodAppList has no list form). A pod that is not ours fails alone, and
   * so do the pods of a batch ACEP refused or kept throttling.
   */
  async commandMany(podIds: string[], request: CommandRequest) {
    const outcomes = new Map<string, CommandOutcome>()
    const asked = [...new Set(podIds)]
    const ours = new Set(
      asked.length === 0
        ? []
        : (
            await this.db
              .select({ podId: acepPods.podId })
              .from(acepPods)
              .where(inArray(acepPods.podId, asked))
          ).map((row) => row.podId),
    )
    const pods = asked.filter((podId) => ours.has(podId))
    for (const podId of asked) {
      if (!ours.has(podId)) {
        const error = new Error(`ACEP: no pod ${podId} of ours`)
        outcomes.set(podId, { ok: false, msg: SUPPLIER_UNREACHABLE, error })
      }
    }
    const product = { ProductId: this.productId }
    switch (request.command) {
      case DeviceCommand.Reboot:
        await this.inBatches(
          'RebootPod',
          pods,
          (batch) => ({ ...product, PodIdList: batch }),
          () => ({ ok: true, msg: '正在重启' }),
          outcomes,
        )
        break
      case DeviceCommand.GetVmCover:
        await this.inBatches(
          'BatchScreenShot',
          pods,
          (batch) => ({ ...product, PodIdList: batch, IsSavedOnPod: false }),
          () => ({ ok: true, msg: COMMAND_DONE[DeviceCommand.GetVmCover]! }),
          outcomes,
        )
        break
      case DeviceCommand.Uninstall:
        await this.uninstall(pods, request.packageName ?? '', outcomes)
        break
      case DeviceCommand.OpenUrl: {
        const shell = openUrlCommand(request.url ?? '')
        if (shell) await this.shell(pods, shell, COMMAND_DONE[DeviceCommand.OpenUrl]!, outcomes)
        else {
          for (const podId of pods) {
            outcomes.set(podId, { ok: false, msg: '请输入以 http:// 或 https:// 开头的网址' })
          }
        }
        break
      }
      default:
        await this.shell(
          pods,
          SHELL[request.command]!,
          COMMAND_DONE[request.command] ?? '操作成功',
          outcomes,
        )
    }
    return outcomes
  }

  /**
   * Sends `pods` in batches of the action's limit and writes each pod's outcome: `each` reads it from its
   * batch's answer; a batch that did not go fails its own pods.
   */
  private async inBatches<T>(
    action: ListAction,
    pods: string[],
    body: (batch: string[]) => Record<string, unknown>,
    each: (podId: string, result: T) => CommandOutcome,
    outcomes: Map<string, CommandOutcome>,
  ) {
    for (const batch of await this.client.postBatches<T>(action, pods, body)) {
      for (const podId of batch.podIds) {
        outcomes.set(
          podId,
          batch.ok
            ? each(podId, batch.result)
            : { ok: false, msg: SUPPLIER_UNREACHABLE, error: batch.error },
        )
      }
    }
  }

  /** A shell command on each pod (RunSyncCommand): done where its own Status says it succeeded. */
  private shell(
    pods: string[],
    command: string,
    done: string,
    outcomes: Map<string, CommandOutcome>,
  ) {
    return this.inBatches<{ Status?: { PodId?: string; Success?: boolean }[] }>(
      'RunSyncCommand',
      pods,
      (batch) => ({ ProductId: this.productId, PodIdList: batch, Command: command }),
      (podId, result) =>
        result.Status?.find((s) => s.PodId === podId)?.Success === true
          ? { ok: true, msg: done }
          : { ok: false, msg: SUPPLIER_UNREACHABLE },
      outcomes,
    )
  }

  /**
   * An app installed through ACEP's app centre is uninstalled by its AppId (UninstallApp, the pods of
   * one AppId together); one the user installed has none, and goes with `pm uninstall` of its (checked)
   * package name. Only each pod's app list tells which, or that the app is not there.
   */
  private async uninstall(
    pods: string[],
    packageName: string,
    outcomes: Map<string, CommandOutcome>,
  ) {
    const notFound = { ok: false, msg: '应用不存在', refusal: 'appNotFound' as const }
    if (!PACKAGE.test(packageName)) {
      for (const podId of pods) outcomes.set(podId, notFound)
      return
    }
    const byAppId = new Map<string, string[]>()
    const byShell: string[] = []
    for (const podId of pods) {
      let apps: { Row?: { AppId?: string; PackageName?: string }[] }
      try {
        apps = await this.client.get('GetPodAppList', { ProductId: this.productId, PodId: podId })
      } catch (error) {
        outcomes.set(podId, { ok: false, msg: SUPPLIER_UNREACHABLE, error })
        continue
      }
      const app = apps.Row?.find((row) => row.PackageName === packageName)
      if (!app) outcomes.set(podId, notFound)
      else if (!app.AppId) byShell.push(podId)
      else if (byAppId.has(app.AppId)) byAppId.get(app.AppId)!.push(podId)
      else byAppId.set(app.AppId, [podId])
    }
    for (const [appId, ids] of byAppId) {
      await this.inBatches(
        'UninstallApp',
        ids,
        (batch) => ({ ProductId: this.productId, AppId: appId, PodIdList: batch }),
        () => ({ ok: true, msg: '已卸载' }),
        outcomes,
      )
    }
    await this.shell(byShell, `pm uninstall ${packageName}`, '已卸载', outcomes)
  }

  /** Asks ACEP for a fresh screenshot; its address comes back by callback (event screen_shot). */
  private async screenShot(podId: string) {
    await this.client.post('ScreenShot', {
      ProductId: this.productId,
      PodId: podId,
      RoundId: randomBytes(8).toString('hex'),
      IsSavedOnPod: false,
    })
  }

  coverUrl(podId: string, at: Date, pass: string) {
    return `${ACEP_PREFIX}/cover/${encodeURIComponent(podId)}?t=${at.getTime()}&${pass}`
  }

  async cover(podId: string, pass: string) {
    await this.requirePod(podId)
    await this.screenShot(podId)
    const now = this.clock.now()
    return { url: this.coverUrl(podId, now, pass), updatedAt: now }
  }

  /** The last screenshot's address at ACEP (TOS), for our relay route once it admitted the pass. */
  async screenAddress(podId: string): Promise<string | null> {
    return (await this.pod(podId))?.screenUrl ?? null
  }

  async changeZone(podId: string, zoneId: number) {
    const row = await this.requirePod(podId)
    if (row.migrateTaskId) return
    const result = await this.client.post<{ TaskId?: string }>(
      'MigratePod',
      { ProductId: this.productId, PodId: podId, Dc: await this.catalogue.remote('zone', zoneId) },
      API_VERSION_2025,
    )
    if (!result.TaskId) throw new Error('ACEP MigratePod answered no TaskId')
    await this.recordTask(result.TaskId, 'migrate', podId, null, null)
    await this.db
      .update(acepPods)
      .set({ migrateTaskId: result.TaskId, migrateZoneId: zoneId })
      .where(eq(acepPods.podId, podId))
  }

  /** A new configuration takes effect when the pod restarts (UpdatePod, then RebootPod). */
  async changeConfig(podId: string, goodId: number) {
    const row = await this.requirePod(podId)
    const [from, to] = await Promise.all([
      this.catalogue.remote('goods', row.goodId),
      this.catalogue.remote('goods', goodId),
    ])
    if (from !== to) {
      await this.client.post('UpdatePod', {
        ProductId: this.productId,
        PodIdList: [podId],
        ConfigurationCode: to,
      })
      await this.client.post('RebootPod', { ProductId: this.productId, PodIdList: [podId] })
    }
    await this.db.update(acepPods).set({ goodId }).where(eq(acepPods.podId, podId))
  }

  latestImageVersion() {
    return this.imageId
  }

  async systemUpdate(podId: string) {
    if (!this.imageId) return
    await this.client.post('UpdatePod', {
      ProductId: this.productId,
      PodIdList: [podId],
      ImageId: this.imageId,
      Force: true,
    })
  }

  /**
   * A new pod for the same phone. With keepData the old pod's data is backed up now and restored onto
   * the new pod once it runs (state drives it); the new pod counts as creating until the copy is done,
   * so the old one is released only after its data arrived.
   */
  async replace(podId: string, request: CreateInstanceRequest & { keepData: boolean }) {
    const created = await this.create(request)
    if (!request.keepData) return created
    const [row] = await this.db
      .select()
      .from(acepPods)
      .where(eq(acepPods.requestId, request.requestId))
    if (!row.copyStage) {
      const { taskId } = await this.backup(podId, `${request.requestId}-copy`)
      await this.db
        .update(acepPods)
        .set({ copyStage: 'backup', copyTaskId: taskId })
        .where(eq(acepPods.requestId, request.requestId))
    }
    return created
  }

  /** Moves a data copy on once the new pod runs: backup → restore → done. */
  private async followCopy(
    row: typeof acepPods.$inferSelect,
  ): Promise<'copying' | 'done' | 'failed'> {
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

  /** The pod keeps its PodName: it is how a retried create finds it (see create). */
  async rename() {}

  /** ACEP's phone templates (机型库) are not offered to users yet. */
  models() {
    return []
  }

  async setModel(_podId: string, modelId: string) {
    throw new Error(`ACEP supplier: no model ${modelId}`)
  }

  controlUrl(request: ControlPageRequest) {
    return `${ACEP_PREFIX}/control?deviceId=${request.deviceId}`
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
    if (!task || task.kind === 'migrate') return null
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
      if (!(error instanceof AcepError && NOT_FOUND.has(error.code))) throw error
    }
    await this.db
      .update(acepTasks)
      .set({ status: 'deleted', updatedAt: this.clock.now() })
      .where(eq(acepTasks.taskId, taskId))
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
    kind: 'backup' | 'restore' | 'migrate',
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

/**
 * `am start` of an http(s) address for the shell: the address as URL writes it (spaces and controls
 * escaped), a quote escaped too, inside single quotes, so nothing in it is read by the shell.
 */
function openUrlCommand(url: string): string | null {
  let href: string
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null
    href = parsed.href.replace(/'/g, '%27')
  } catch {
    return null
  }
  return `am start -a android.intent.action.VIEW -d '${href}'`
}
