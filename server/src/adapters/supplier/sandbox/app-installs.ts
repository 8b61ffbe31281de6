/**
 * The sandbox supplier's app installs, kept the way its other work is (instances.ts): accepted at once,
 * done after the supplier's delay, decided from timestamps when read, so nothing runs in the
 * background and a restart loses nothing. A task names its instance, package and the time it is done
 * (`install:<instance>:<package>:<readyAt ms>:<fails>`), as a remote supplier's task id names its job.
 * Like a real phone it refuses an APK whose native code is for no ABI it runs (its phones are
 * arm64-v8a, with armeabi-v7a compatibility), an instance that is not running, and fails an install
 * whose phone went offline (stopped, rebooting, released) before it was done.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { sandboxInstances } from '../../../db/schema'
import type { Clock } from '../../../clock'
import type {
  AppForInstall,
  AppInstaller,
  InstallAccepted,
  InstalledApp,
  InstallTaskState,
} from '../app-installer'
import type { SandboxInstances } from './instances'

/** The ABIs a sandbox phone runs. */
export const SANDBOX_ABIS = ['arm64-v8a', 'armeabi-v7a', 'armeabi'] as const

export const SANDBOX_INSTALL_REFUSALS = {
  abi: '安装包不支持该云手机的CPU架构（arm64-v8a）',
  notRunning: '云手机未开机，无法安装',
  offline: '安装中断：云手机已离线',
  failed: '安装失败，云手机存储写入异常',
  unknownTask: '安装任务不存在',
  notInstalled: '应用未安装',
} as const

/** How many sandbox delays an install takes. */
const INSTALL_DELAYS = 1

export class SandboxAppInstalls implements AppInstaller {
  /** As ACEP's InstallApp: at most 1,000 instances a call. */
  readonly batchSize = 1000

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly delayMs: number,
    private readonly instances: SandboxInstances,
  ) {}

  async install(instanceIds: string[], app: AppForInstall) {
    if (instanceIds.length > this.batchSize) {
      throw new Error(`sandbox install: ${instanceIds.length} instances, at most ${this.batchSize}`)
    }
    const answers = new Map<string, InstallAccepted>()
    const runs =
      app.abis.length === 0 || app.abis.some((abi) => SANDBOX_ABIS.includes(abi as never))
    const readyAt = this.clock.now().getTime() + this.delayMs * INSTALL_DELAYS
    for (const instanceId of new Set(instanceIds)) {
      const row = await this.instances.load(instanceId)
      if (!row || row.status !== 'running') {
        answers.set(instanceId, { ok: false, reason: SANDBOX_INSTALL_REFUSALS.notRunning })
      } else if (!runs) {
        answers.set(instanceId, { ok: false, reason: SANDBOX_INSTALL_REFUSALS.abi })
      } else {
        const fails = this.instances.fails(row.name) ? 1 : 0
        const task = ['install', instanceId, app.packageName, readyAt, fails].join(':')
        answers.set(instanceId, { ok: true, task })
      }
    }
    return answers
  }

  async taskStates(tasks: { instanceId: string; task: string }[]) {
    const states = new Map<string, InstallTaskState>()
    for (const { instanceId, task } of tasks)
      states.set(task, await this.taskState(instanceId, task))
    return states
  }

  private async taskState(instanceId: string, task: string): Promise<InstallTaskState> {
    const [kind, taskInstance, packageName, readyAtText, fails] = task.split(':')
    const readyAt = Number(readyAtText)
    if (
      kind !== 'install' ||
      taskInstance !== instanceId ||
      !packageName ||
      !Number.isFinite(readyAt)
    ) {
      return { status: 'failed', reason: SANDBOX_INSTALL_REFUSALS.unknownTask }
    }
    const row = await this.instances.load(instanceId)
    if (!row || row.status !== 'running') {
      return { status: 'failed', reason: SANDBOX_INSTALL_REFUSALS.offline }
    }
    if (this.clock.now().getTime() < readyAt) return { status: 'installing' }
    if (fails === '1') return { status: 'failed', reason: SANDBOX_INSTALL_REFUSALS.failed }
    if (!row.apps.includes(packageName)) {
      await this.db
        .update(sandboxInstances)
        .set({ apps: [...row.apps, packageName] })
        .where(eq(sandboxInstances.id, instanceId))
    }
    return { status: 'installed' }
  }

  async installed(instanceId: string): Promise<InstalledApp[]> {
    const row = await this.instances.require(instanceId)
    return row.apps.map((packageName) => ({ packageName, name: packageName, versionName: null }))
  }

  async launch(instanceId: string, packageName: string) {
    const row = await this.instances.require(instanceId)
    if (row.status !== 'running') throw new Error(SANDBOX_INSTALL_REFUSALS.notRunning)
    if (!row.apps.includes(packageName)) throw new Error(SANDBOX_INSTALL_REFUSALS.notInstalled)
    await this.db
      .update(sandboxInstances)
      .set({ lastCommand: `Launch ${packageName}`, lastCommandAt: this.clock.now() })
      .where(eq(sandboxInstances.id, instanceId))
  }
}
