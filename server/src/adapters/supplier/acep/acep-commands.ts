/**
 * Commands on ACEP pods for AcepSupplier: the user's commands (reboot, screen refresh, cleaning, open
 * an address, uninstall) and powering pods off and on, through ACEP's list calls in its batch sizes
 * (POD_LIST_LIMITS), and the single screenshot a cover asks for. Each pod gets its own outcome; a batch
 * ACEP refused fails only its pods.
 */
import { eq, inArray } from 'drizzle-orm'
import { DeviceCommand } from '#domain/enums'
import type { Db } from '../../../db/client'
import { acepPods } from '../../../db/schema'
import type { CommandOutcome, CommandRequest, SuspendOutcome } from '../supplier-adapter'
import { SUPPLIER_UNREACHABLE } from '../supplier-adapter'
import type { Clock } from '../../../clock'
import type { AcepClient, ListAction } from './acep-client'

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

/** BatchScreenShot's answer (2025-05-01): each pod's screenshot address, or its error. */
interface ScreenShots {
  Details?: { PodId?: string; DownloadUrl?: string; ErrorCode?: number; ErrorMsg?: string }[]
}

export class AcepCommands {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly productId: string,
    private readonly client: AcepClient,
  ) {}

  /**
   * The same command on many pods through ACEP's list calls, each split to its action's limit
   * (POD_LIST_LIMITS): reboot by RebootPod, a screen refresh by BatchScreenShot (each pod's image
   * address is in its answer), the cleaning commands and opening an address by RunSyncCommand (which answers per pod),
   * uninstall by UninstallApp for an app of ACEP's app centre and `pm uninstall` otherwise, once each
   * pod's app list said which (GetPodAppList has no list form). A pod that is not ours fails alone, and
   * so do the pods of a batch ACEP refused or kept throttling.
   */
  async commandMany(podIds: string[], request: CommandRequest) {
    const outcomes = new Map<string, CommandOutcome>()
    const pods = await this.ours(podIds, outcomes)
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
      case DeviceCommand.GetVmCover: {
        const shots = new Map<string, string>()
        await this.inBatches<ScreenShots>(
          'BatchScreenShot',
          pods,
          (batch) => ({ ...product, PodIdList: batch, IsSavedOnPod: false }),
          (podId, result) => {
            const url = shotAddress(result, podId)
            if (!url) return { ok: false, msg: SUPPLIER_UNREACHABLE }
            shots.set(podId, url)
            return { ok: true, msg: COMMAND_DONE[DeviceCommand.GetVmCover]! }
          },
          outcomes,
        )
        for (const [podId, url] of shots) await this.keepScreen(podId, url)
        break
      }
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
   * PowerOffPod or PowerOnPod (version 2025-05-01, 200 pods a call): each pod's outcome is its own entry
   * in the answer's Details (Success, ErrMsg); a pod the answer does not name went with its batch.
   */
  async power(action: 'PowerOffPod' | 'PowerOnPod', podIds: string[]) {
    const outcomes = new Map<string, SuspendOutcome>()
    const batches = await this.client.postBatches<{
      Details?: { PodId?: string; Success?: boolean; ErrMsg?: string }[]
    }>(action, [...new Set(podIds)], (batch) => ({ ProductId: this.productId, PodIdList: batch }))
    for (const batch of batches) {
      for (const podId of batch.podIds) {
        const detail = batch.ok ? batch.result?.Details?.find((d) => d.PodId === podId) : null
        outcomes.set(
          podId,
          !batch.ok
            ? { ok: false, error: batch.error }
            : detail && detail.Success === false
              ? { ok: false, error: new Error(`ACEP ${action} ${podId}: ${detail.ErrMsg ?? ''}`) }
              : { ok: true },
        )
      }
    }
    return outcomes
  }

  /**
   * A fresh screenshot of one pod (BatchScreenShot, 2025-05-01): its address at ACEP's storage is in the
   * answer, kept for the relay route; null when ACEP took none.
   */
  async screenShot(podId: string): Promise<string | null> {
    const result = await this.client.call<ScreenShots>('BatchScreenShot', {
      ProductId: this.productId,
      PodIdList: [podId],
      IsSavedOnPod: false,
    })
    const url = shotAddress(result, podId)
    if (url) await this.keepScreen(podId, url)
    return url
  }

  private async keepScreen(podId: string, url: string) {
    await this.db
      .update(acepPods)
      .set({ screenUrl: url, screenAt: this.clock.now() })
      .where(eq(acepPods.podId, podId))
  }

  /** The distinct pods asked that are ours; each one that is not fails alone in `outcomes`. */
  private async ours(podIds: string[], outcomes: Map<string, CommandOutcome>) {
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
    for (const podId of asked) {
      if (!ours.has(podId)) {
        const error = new Error(`ACEP: no pod ${podId} of ours`)
        outcomes.set(podId, { ok: false, msg: SUPPLIER_UNREACHABLE, error })
      }
    }
    return asked.filter((podId) => ours.has(podId))
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

  /**
   * An Android key event on one pod (RunSyncCommand `input keyevent <code>`): the control page's
   * 返回 / 主页 / 多任务, which the Web SDK has no call for (src/domain/control-page.ts).
   */
  async keyEvent(podId: string, keycode: number, done: string): Promise<CommandOutcome> {
    const outcomes = new Map<string, CommandOutcome>()
    await this.shell([podId], `input keyevent ${Math.trunc(keycode)}`, done, outcomes)
    return outcomes.get(podId) ?? { ok: false, msg: SUPPLIER_UNREACHABLE }
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
        apps = await this.client.call('GetPodAppList', { ProductId: this.productId, PodId: podId })
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
}

/** The pod's screenshot address in a BatchScreenShot answer: an http(s) URL, without an error. */
function shotAddress(result: ScreenShots | null | undefined, podId: string): string | null {
  const detail = result?.Details?.find((d) => d.PodId === podId)
  const url = detail?.DownloadUrl ?? ''
  return !detail?.ErrorCode && /^https?:\/\//.test(url) ? url : null
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
