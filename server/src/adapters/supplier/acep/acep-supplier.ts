/**
 * Volcano Engine ACEP (火山引擎云手机) behind our SupplierAdapter. ACEP runs the pods; we keep what it
 * has no field for (acep_pods: our requestId, goods, zone, expiry and model; acep_tasks: backups,
 * restores and resets as GetTaskInfo or ListBackupData last said). Long work is followed as the
 * sandbox's is: `state` and `backupTask` are asked again until it ends. This class owns the pods
 * themselves (create, state, renew, release, suspend and resume, configuration); commands and power
 * calls go through acep-commands.ts, backups, migrations, data copies and callbacks through
 * acep-tasks.ts, and so do factory resets.
 */
import { createHash, createHmac } from 'node:crypto'
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { acepPods } from '../../../db/schema'
import type { Clock } from '../../../clock'
import type {
  CommandOutcome,
  CommandRequest,
  ControlPageRequest,
  CreateInstanceRequest,
  InstanceState,
  InstanceStatus,
  SupplierAdapter,
  SuspendOutcome,
} from '../supplier-adapter'
import { AcepApps, type AcepAppsSettings } from './acep-apps'
import { type AcepClient, isNotFound } from './acep-client'
import { AcepCommands } from './acep-commands'
import { AcepTasks } from './acep-tasks'
import { AcepCatalogue } from './catalogue'
import type { AcepCredentials } from './credentials'
import type { AcepStream } from './stream'

/**
 * Where our own ACEP pages live (callback, screen relay, APK download): public routes, each checking its
 * caller.
 */
export const ACEP_PREFIX = '/vmcloud/api/supplier/acep'

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
  /** How app uploads are waited for (acep-apps.ts; tests move the fake's clock instead of sleeping). */
  apps?: Pick<AcepAppsSettings, 'uploadPollMs' | 'uploadWaitMs' | 'sleep'>
}

export class AcepSupplier implements SupplierAdapter {
  readonly name = 'acep'
  readonly catalogue: AcepCatalogue
  /** The control page's live stream, when the operator gave the web SDK (stream.ts). */
  readonly stream: AcepStream | null
  /** App installs (acep-apps.ts): UploadApp from our signed APK address, InstallApp, LaunchApp. */
  readonly apps: AcepApps
  private readonly imageId: string
  private readonly commands: AcepCommands
  private readonly tasks: AcepTasks

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
    this.commands = new AcepCommands(db, clock, credentials.productId, client)
    this.tasks = new AcepTasks(db, clock, credentials, client)
    this.apps = new AcepApps(db, clock, credentials.productId, client, {
      publicBase: settings.publicBase ?? '',
      downloadPath: `${ACEP_PREFIX}/apk`,
      // Its own key, derived from the account's secret: a download signature signs nothing else.
      signingKey: createHmac('sha256', credentials.secretAccessKey).update('apk-download').digest(),
      ...settings.apps,
    })
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
      const result = await this.client.call<{ PodId?: string; PodIdList?: string[] }>('CreatePod', {
        ProductId: this.productId,
        PodName: row.podName,
        ConfigurationCode: await this.catalogue.remote('goods', row.goodId),
        Dc: await this.catalogue.remote('zone', row.zoneId),
        // The business's storage: 200 (本地存储) is required on a local-storage business (docs 6394/1905408).
        ResourceType: this.credentials.resourceType,
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
      const page = await this.client.call<{ Row?: PodDetail[]; Total?: number }>('ListPod', {
        ProductId: this.productId,
        Offset: offset,
        Count: 100,
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
      detail = await this.client.call<PodDetail>('DetailPod', {
        ProductId: this.productId,
        PodId: podId,
      })
    } catch (error) {
      if (isNotFound(error)) {
        return { ...base, status: 'failed', failReason: '云手机实例不存在' }
      }
      throw error
    }
    let status = await this.statusOf(row, detail.Online)
    // A reset is at work before the pod goes down to reboot: its task says so until it ended.
    if (status === 'running' && (await this.tasks.resetRunning(podId))) status = 'rebooting'
    if (status === 'running' && row.copyStage) {
      const copy = await this.tasks.followCopy(row)
      if (copy === 'copying') status = 'creating'
      if (copy === 'failed') {
        return { ...base, status: 'failed', failReason: '数据复制失败，原云手机可继续使用' }
      }
    }
    const migration =
      row.migrateZoneId === null
        ? null
        : await this.tasks.followMigration(
            row,
            { dc: detail.DcInfo?.Dc, online: detail.Online },
            await this.catalogue.remote('zone', row.migrateZoneId),
          )
    return {
      ...base,
      status,
      op: migration === 'running' ? 'changeZone' : null,
      zoneId: migration === 'done' ? row.migrateZoneId! : row.zoneId,
      imageVersion: this.imageId ? (detail.ImageId ?? '') : '',
    }
  }

  /**
   * DetailPod's Online: 0 booting, 1 running, 2 off, 3 shutting down, 4 rebooting. A pod found off
   * while it is rented is started again (unless it is being moved); one whose rental ended (our
   * expireAt) stays off: suspended.
   */
  private async statusOf(
    row: typeof acepPods.$inferSelect,
    online: number | undefined,
  ): Promise<InstanceStatus> {
    const podId = row.podId!
    const seenRunning = row.seenRunning === 1
    let status: InstanceStatus
    if (online === 1) status = 'running'
    else if (online === 0) status = seenRunning ? 'rebooting' : 'creating'
    else if (online === 4) status = 'rebooting'
    else if ((online === 2 || online === 3) && row.expireAt <= this.clock.now()) {
      return 'suspended'
    } else {
      // Off while ACEP moves it to another data centre is the move's business, not ours to undo.
      if (online === 2 && row.migrateZoneId === null) await this.resume(podId)
      status = seenRunning ? 'rebooting' : 'creating'
    }
    if (status === 'running' && !seenRunning) {
      await this.db.update(acepPods).set({ seenRunning: 1 }).where(eq(acepPods.podId, podId))
    }
    return status
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
      await this.client.call('DeletePod', { ProductId: this.productId, PodIdList: [podId] })
    } catch (error) {
      // Deleting a pod ACEP no longer has is done already.
      if (!isNotFound(error)) throw error
    }
    await this.db
      .update(acepPods)
      .set({ releasedAt: this.clock.now() })
      .where(and(eq(acepPods.podId, podId), isNull(acepPods.releasedAt)))
  }

  /**
   * PowerOffPod in ACEP's batches. A pod we released is done without asking (DeletePod took it); one
   * that is not ours fails alone.
   */
  async suspend(podIds: string[]) {
    const outcomes = new Map<string, SuspendOutcome>()
    const asked = [...new Set(podIds)]
    const rows =
      asked.length === 0
        ? []
        : await this.db
            .select({ podId: acepPods.podId, releasedAt: acepPods.releasedAt })
            .from(acepPods)
            .where(and(inArray(acepPods.podId, asked), isNotNull(acepPods.podId)))
    const known = new Map(rows.map((row) => [row.podId!, row.releasedAt]))
    const live: string[] = []
    for (const podId of asked) {
      if (!known.has(podId)) {
        outcomes.set(podId, { ok: false, error: new Error(`ACEP: no pod ${podId} of ours`) })
      } else if (known.get(podId)) outcomes.set(podId, { ok: true })
      else live.push(podId)
    }
    for (const [podId, outcome] of await this.commands.power('PowerOffPod', live)) {
      outcomes.set(podId, outcome)
    }
    return outcomes
  }

  async resume(podId: string) {
    const outcome = (await this.commands.power('PowerOnPod', [podId])).get(podId)
    if (outcome && !outcome.ok) throw outcome.error
  }

  /** One pod goes the way a batch goes, as a batch of one. */
  async command(podId: string, request: CommandRequest): Promise<CommandOutcome> {
    return (await this.commandMany([podId], request)).get(podId)!
  }

  commandMany(podIds: string[], request: CommandRequest) {
    return this.commands.commandMany(podIds, request)
  }

  /** An Android key event on the pod (the control page's keys, acep-commands.ts). */
  pressKey(podId: string, keycode: number, done: string) {
    return this.commands.keyEvent(podId, keycode, done)
  }

  /** A factory reset (ResetPod, acep-tasks.ts): followed with `state` as 'rebooting' until it ends. */
  async reset(podId: string) {
    const row = await this.requirePod(podId)
    if (row.releasedAt) throw new Error(`ACEP: pod ${podId} was released`)
    await this.tasks.reset(podId)
  }

  coverUrl(podId: string, at: Date, pass: string) {
    return `${ACEP_PREFIX}/cover/${encodeURIComponent(podId)}?t=${at.getTime()}&${pass}`
  }

  async cover(podId: string, pass: string) {
    await this.requirePod(podId)
    // A pod that gave no new screenshot keeps showing its last one.
    await this.commands.screenShot(podId)
    const now = this.clock.now()
    return { url: this.coverUrl(podId, now, pass), updatedAt: now }
  }

  /** The last screenshot's address at ACEP (BatchScreenShot's answer), for our relay route once it admitted the pass. */
  async screenAddress(podId: string): Promise<string | null> {
    return (await this.pod(podId))?.screenUrl ?? null
  }

  async changeZone(podId: string, zoneId: number) {
    const row = await this.requirePod(podId)
    if (row.migrateZoneId !== null) return
    await this.tasks.migrate(podId, zoneId, await this.catalogue.remote('zone', zoneId))
  }

  /** A new configuration takes effect when the pod restarts (UpdatePod, then RebootPod). */
  async changeConfig(podId: string, goodId: number) {
    const row = await this.requirePod(podId)
    const [from, to] = await Promise.all([
      this.catalogue.remote('goods', row.goodId),
      this.catalogue.remote('goods', goodId),
    ])
    if (from !== to) {
      await this.client.call('UpdatePod', {
        ProductId: this.productId,
        PodIdList: [podId],
        ConfigurationCode: to,
      })
      await this.client.call('RebootPod', { ProductId: this.productId, PodIdList: [podId] })
    }
    await this.db.update(acepPods).set({ goodId }).where(eq(acepPods.podId, podId))
  }

  latestImageVersion() {
    return this.imageId
  }

  async systemUpdate(podId: string) {
    if (!this.imageId) return
    await this.client.call('UpdatePod', {
      ProductId: this.productId,
      PodIdList: [podId],
      ImageId: this.imageId,
      Force: true,
    })
  }

  /**
   * A new pod for the same phone. With keepData the old pod's data is backed up now and restored onto
   * the new pod once it runs (state drives it, acep-tasks.ts followCopy); the new pod counts as creating
   * until the copy is done, so the old one is released only after its data arrived.
   */
  async replace(podId: string, request: CreateInstanceRequest & { keepData: boolean }) {
    const created = await this.create(request)
    if (request.keepData) await this.tasks.startCopy(podId, request.requestId)
    return created
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

  backup(podId: string, requestId: string) {
    return this.tasks.backup(podId, requestId)
  }

  restore(podId: string, backupTaskId: string, requestId: string) {
    return this.tasks.restore(podId, backupTaskId, requestId)
  }

  backupTask(taskId: string) {
    return this.tasks.backupTask(taskId)
  }

  deleteBackup(taskId: string) {
    return this.tasks.deleteBackup(taskId)
  }

  /** A callback from ACEP's callback service (acep-tasks.ts): accepted, or why it was refused. */
  acceptCallback(headers: Record<string, unknown>, rawBody: string) {
    return this.tasks.acceptCallback(headers, rawBody)
  }
}
