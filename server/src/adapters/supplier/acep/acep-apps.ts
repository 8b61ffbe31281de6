/**
 * ACEP's app installs (应用管理, docs/apps.md) behind the supplier port's `apps`. ACEP installs only
 * what its app centre holds, so an app is first handed over once (UploadApp: ACEP fetches the APK from
 * a short-lived signed address of ours, apkDownloadAllowed checks it), its upload task followed with
 * GetTaskInfo and the app found again with ListApp (its AppId and the VersionId of our versionCode),
 * kept in app_supplier_copies. Then InstallApp names up to 1,000 pods a call (docs 6394/2189058); each
 * pod's result is its Job in GetTaskInfo. A pod's apps are GetPodAppList's; LaunchApp opens one.
 * ACEP's own words never reach a user: every refusal is one of ACEP_APP_REFUSALS.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import type { Clock } from '../../../clock'
import type { Db } from '../../../db/client'
import { appSupplierCopies } from '../../../db/schema'
import type {
  AppForInstall,
  AppInstaller,
  InstallAccepted,
  InstallTaskState,
  InstalledApp,
} from '../app-installer'
import { type AcepClient, AcepError, isNotFound } from './acep-client'
import { taskOutcome } from './acep-tasks'

/** What a user reads when ACEP refuses or fails an app (never ACEP's own text). */
export const ACEP_APP_REFUSALS = {
  uploadFailed: '安装包上传到云手机平台失败',
  uploadSlow: '安装包仍在上传到云手机平台，请稍后重试',
  podMissing: '云手机实例不存在',
  notRunning: '云手机未开机',
  busy: '云手机平台繁忙，请稍后重试',
  refused: '云手机平台拒绝了安装',
  installFailed: '安装失败',
  taskLost: '安装任务已失效',
  launchFailed: '应用打开失败，请确认已安装且云手机已开机',
} as const

/**
 * UploadApp's AppType for an Android APK. The model (the Go SDK) types it as an integer without its
 * values; 1 is our reading of the console's only type and is to be confirmed against ACEP before go-live.
 */
export const ACEP_APP_TYPE_APK = 1

/**
 * How long an upload claim without its task may stand before another install takes it over: UploadApp
 * answers within seconds (its client's retries included), so a claim this old lost its uploader.
 */
export const UPLOAD_CLAIM_STALE_MS = 2 * 60_000

/** How long a download address for ACEP stays good. */
export const APK_URL_TTL_MS = 30 * 60_000

export interface AcepAppsSettings {
  /** Our https origin (PUBLIC_BASE_URL): ACEP fetches the APK from it. */
  publicBase: string
  /** The download route's path; `/<appId>?e=…&s=…` follows. */
  downloadPath: string
  /** Key of the download signatures. */
  signingKey: Buffer
  /** Between GetTaskInfo polls of an upload, and how long one install call waits for it. */
  uploadPollMs?: number
  uploadWaitMs?: number
  sleep?: (ms: number) => Promise<void>
}

interface Job {
  PodId?: string
  Status?: number
}

/** The app's copy row at ACEP. */
const acepCopyOf = (appId: number) =>
  and(eq(appSupplierCopies.appId, appId), eq(appSupplierCopies.supplier, 'acep'))

/** A task string per pod: ACEP's TaskId and the pod, so each pod's result is its own. */
const taskOf = (taskId: string, podId: string) => `${taskId}/${podId}`

export class AcepApps implements AppInstaller {
  readonly batchSize = 1000
  /** Where ACEP fetches from; settable once the server knows its origin (tests listen first). */
  publicBase: string
  private readonly pollMs: number
  private readonly waitMs: number
  private readonly sleep: (ms: number) => Promise<void>

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly productId: string,
    private readonly client: AcepClient,
    private readonly settings: AcepAppsSettings,
  ) {
    this.publicBase = settings.publicBase
    this.pollMs = settings.uploadPollMs ?? 5_000
    this.waitMs = settings.uploadWaitMs ?? 10 * 60_000
    this.sleep = settings.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  }

  private signature(appId: number, expires: number) {
    return createHmac('sha256', this.settings.signingKey)
      .update(`apk-download\n${appId}\n${expires}`)
      .digest('hex')
  }

  /** A download address of the app's APK that works until APK_URL_TTL_MS from now, for that app only. */
  downloadUrl(appId: number) {
    const expires = this.clock.now().getTime() + APK_URL_TTL_MS
    return `${this.publicBase}${this.settings.downloadPath}/${appId}?e=${expires}&s=${this.signature(appId, expires)}`
  }

  /** Whether a download of `appId` carries our signature for it and has not expired. */
  apkDownloadAllowed(appId: number, e: string | undefined, s: string | undefined) {
    const expires = Number(e)
    if (!Number.isSafeInteger(expires) || !/^[0-9a-f]{64}$/.test(s ?? '')) return false
    const now = this.clock.now().getTime()
    if (expires <= now || expires > now + APK_URL_TTL_MS) return false
    const expected = Buffer.from(this.signature(appId, expires), 'hex')
    return timingSafeEqual(expected, Buffer.from(s!, 'hex'))
  }

  private async copyRow(appId: number) {
    const [row] = await this.db.select().from(appSupplierCopies).where(acepCopyOf(appId))
    return row ?? null
  }

  /**
   * The app in ACEP's app centre: uploaded once, its task waited for up to uploadWaitMs. Its AppId and
   * VersionId, or why not. Installs of one app at once (two batches, two instances) upload it once:
   * the one whose claim of the copy row lands uploads, the others wait on that upload. A failed upload
   * is tried again by the next install, and so is a claim whose uploader stopped before naming its
   * task (UPLOAD_CLAIM_STALE_MS).
   */
  private async copy(
    app: AppForInstall,
  ): Promise<{ ok: true; appId: string; versionId: string } | { ok: false; reason: string }> {
    const deadline = Date.now() + this.waitMs
    let waited = false
    for (;;) {
      const row = await this.copyRow(app.appId)
      if (row?.status === 'ready') {
        return { ok: true, appId: row.supplierAppId!, versionId: row.supplierVersionId! }
      }
      if (row?.status === 'failed' && waited) {
        // the upload this install waited on failed: the next install tries again
        return { ok: false, reason: row.failReason ?? ACEP_APP_REFUSALS.uploadFailed }
      }
      if (!row || row.status === 'failed' || this.abandoned(row)) {
        if (await this.claimUpload(app.appId)) {
          const refused = await this.startUpload(app)
          if (refused) return refused
        }
        continue // ours now names its task, or another install's claim landed first
      }
      if (row.taskId) {
        const found = await this.followUpload(app, row.taskId)
        if (found) return found
      }
      if (Date.now() >= deadline) return { ok: false, reason: ACEP_APP_REFUSALS.uploadSlow }
      waited = true
      await this.sleep(this.pollMs)
    }
  }

  /** A claim whose uploader never named its task (it stopped between the claim and UploadApp's answer). */
  private abandoned(row: typeof appSupplierCopies.$inferSelect) {
    return (
      row.status === 'uploading' &&
      row.taskId === null &&
      this.clock.now().getTime() - row.updatedAt.getTime() > UPLOAD_CLAIM_STALE_MS
    )
  }

  /**
   * Claims the app's upload: a new row, or a failed or abandoned one taken over, in one statement, so
   * of two installs at once exactly one claims it. True when this install did.
   */
  private async claimUpload(appId: number): Promise<boolean> {
    const now = this.clock.now()
    const claim = {
      appId,
      supplier: 'acep',
      status: 'uploading' as const,
      taskId: null,
      supplierAppId: null,
      supplierVersionId: null,
      failReason: null,
      updatedAt: now,
    }
    const copies = appSupplierCopies
    const claimed = await this.db
      .insert(copies)
      .values(claim)
      .onConflictDoUpdate({
        target: [copies.appId, copies.supplier],
        set: claim,
        setWhere: or(
          eq(copies.status, 'failed'),
          and(
            eq(copies.status, 'uploading'),
            isNull(copies.taskId),
            lt(copies.updatedAt, new Date(now.getTime() - UPLOAD_CLAIM_STALE_MS)),
          ),
        ),
      })
      .returning({ appId: copies.appId })
    return claimed.length > 0
  }

  /** UploadApp for a claimed copy: its task recorded, or the copy failed and why (then returned). */
  private async startUpload(app: AppForInstall): Promise<{ ok: false; reason: string } | null> {
    const where = acepCopyOf(app.appId)
    try {
      const bytes = await app.read()
      const answer = await this.client.call<{ TaskId?: string }>('UploadApp', {
        ProductId: this.productId,
        AppName: this.acepName(app.appId),
        AppType: ACEP_APP_TYPE_APK,
        DownloadUrl: this.downloadUrl(app.appId),
        ExtraInfo: {
          Md5: createHash('md5').update(bytes).digest('hex'),
          PackageName: app.packageName,
          VersionCode: app.versionCode,
          VersionName: app.versionName,
        },
      })
      if (!answer?.TaskId) throw new Error('ACEP UploadApp answered no TaskId')
      await this.db
        .update(appSupplierCopies)
        .set({ taskId: answer.TaskId, updatedAt: this.clock.now() })
        .where(where)
      return null
    } catch (error) {
      const reason = refusalOf(error, ACEP_APP_REFUSALS.uploadFailed)
      await this.db
        .update(appSupplierCopies)
        .set({ status: 'failed', failReason: reason, updatedAt: this.clock.now() })
        .where(where)
      return { ok: false, reason }
    }
  }

  private acepName(appId: number) {
    return `cp-app-${appId}`
  }

  /** The upload task's end recorded (ListApp names the version), or null while it runs. */
  private async followUpload(app: AppForInstall, taskId: string) {
    const info = await this.client.call<{ TaskResult?: number; Jobs?: Job[] }>('GetTaskInfo', {
      ProductId: this.productId,
      TaskId: taskId,
    })
    const outcome = taskOutcome(info?.Jobs?.[0]?.Status ?? info?.TaskResult)
    if (outcome === 'running') return null
    let ids: { appId: string; versionId: string } | null = null
    if (outcome === 'done') {
      const list = await this.client.call<{
        Row?: {
          AppId?: string
          PackageName?: string
          VersionList?: { VersionId?: string; VersionCode?: number }[]
        }[]
      }>('ListApp', { ProductId: this.productId, AppName: this.acepName(app.appId), Count: 100 })
      for (const entry of list?.Row ?? []) {
        const version = entry.VersionList?.find((v) => v.VersionCode === app.versionCode)
        if (entry.AppId && entry.PackageName === app.packageName && version?.VersionId) {
          ids = { appId: entry.AppId, versionId: version.VersionId }
        }
      }
    }
    await this.db
      .update(appSupplierCopies)
      .set(
        ids
          ? { status: 'ready', supplierAppId: ids.appId, supplierVersionId: ids.versionId }
          : { status: 'failed', failReason: ACEP_APP_REFUSALS.uploadFailed },
      )
      .where(acepCopyOf(app.appId))
    return ids
      ? ({ ok: true, ...ids } as const)
      : ({ ok: false, reason: ACEP_APP_REFUSALS.uploadFailed } as const)
  }

  async install(instanceIds: string[], app: AppForInstall) {
    const answers = new Map<string, InstallAccepted>()
    const pods = [...new Set(instanceIds)]
    if (pods.length === 0) return answers
    const copy = await this.copy(app)
    if (!copy.ok) {
      for (const pod of pods) answers.set(pod, { ok: false, reason: copy.reason })
      return answers
    }
    const batches = await this.client.postBatches<{ TaskId?: string; Jobs?: Job[] }>(
      'InstallApp',
      pods,
      (batch) => ({
        ProductId: this.productId,
        AppId: copy.appId,
        VersionId: copy.versionId,
        PodIdList: batch,
      }),
    )
    for (const batch of batches) {
      const taskId = batch.ok ? batch.result?.TaskId : undefined
      const jobs = new Map(
        (batch.ok ? (batch.result?.Jobs ?? []) : []).map((job) => [job.PodId, job.Status]),
      )
      for (const pod of batch.podIds) {
        const status = jobs.get(pod)
        if (!batch.ok || !taskId) {
          const error = batch.ok ? null : batch.error
          answers.set(pod, { ok: false, reason: refusalOf(error, ACEP_APP_REFUSALS.refused) })
        } else if (status !== undefined && status < 0) {
          answers.set(pod, { ok: false, reason: ACEP_APP_REFUSALS.refused })
        } else answers.set(pod, { ok: true, task: taskOf(taskId, pod) })
      }
    }
    return answers
  }

  /** One GetTaskInfo per ACEP task; each pod's Job is its result (a task ACEP forgot: failed). */
  async taskStates(tasks: { instanceId: string; task: string }[]) {
    const states = new Map<string, InstallTaskState>()
    const byTask = new Map<string, string[]>()
    for (const { task } of tasks) {
      const at = task.lastIndexOf('/')
      if (at <= 0) {
        states.set(task, { status: 'failed', reason: ACEP_APP_REFUSALS.taskLost })
        continue
      }
      const taskId = task.slice(0, at)
      byTask.set(taskId, [...(byTask.get(taskId) ?? []), task.slice(at + 1)])
    }
    for (const [taskId, pods] of byTask) {
      let jobs: Job[]
      try {
        const info = await this.client.call<{ Jobs?: Job[] }>('GetTaskInfo', {
          ProductId: this.productId,
          TaskId: taskId,
        })
        jobs = info?.Jobs ?? []
      } catch (error) {
        if (!isNotFound(error)) throw error
        for (const pod of pods) {
          states.set(taskOf(taskId, pod), { status: 'failed', reason: ACEP_APP_REFUSALS.taskLost })
        }
        continue
      }
      for (const pod of pods) {
        const job = jobs.find((j) => j.PodId === pod)
        const outcome = job ? taskOutcome(job.Status) : 'failed'
        states.set(
          taskOf(taskId, pod),
          outcome === 'running'
            ? { status: 'installing' }
            : outcome === 'done'
              ? { status: 'installed' }
              : { status: 'failed', reason: ACEP_APP_REFUSALS.installFailed },
        )
      }
    }
    return states
  }

  async installed(podId: string): Promise<InstalledApp[]> {
    const list = await this.client.call<{
      Row?: { PackageName?: string; AppName?: string; VersionName?: string }[]
    }>('GetPodAppList', { ProductId: this.productId, PodId: podId })
    return (list?.Row ?? [])
      .filter((app) => app.PackageName)
      .map((app) => ({
        packageName: app.PackageName!,
        name: app.AppName || app.PackageName!,
        versionName: app.VersionName || null,
      }))
  }

  async launch(podId: string, packageName: string) {
    let jobs: Job[]
    try {
      const answer = await this.client.call<{ Jobs?: Job[] }>('LaunchApp', {
        ProductId: this.productId,
        PodIdList: [podId],
        PackageName: packageName,
      })
      jobs = answer?.Jobs ?? []
    } catch (error) {
      throw new Error(refusalOf(error, ACEP_APP_REFUSALS.launchFailed))
    }
    const status = jobs.find((job) => job.PodId === podId)?.Status
    if (status !== undefined && status < 0) throw new Error(ACEP_APP_REFUSALS.launchFailed)
  }
}

/** ACEP's refusal in our words: a gone pod, one not running, throttling, else `otherwise`. */
function refusalOf(error: unknown, otherwise: string) {
  if (!(error instanceof AcepError)) return otherwise
  if (isNotFound(error)) return ACEP_APP_REFUSALS.podMissing
  if (error.throttled) return ACEP_APP_REFUSALS.busy
  if (error.code.startsWith('OperationDenied.PodStatus')) return ACEP_APP_REFUSALS.notRunning
  return otherwise
}
