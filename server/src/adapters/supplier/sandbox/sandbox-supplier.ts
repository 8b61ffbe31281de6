/**
 * The sandbox supplier as our services see it: the SupplierAdapter a remote supplier's API would be,
 * answering from its own back office in our database (instances.ts, backups.ts) and serving its control
 * page and screens under SANDBOX_PREFIX (control-page.ts, screen.ts, routes/sandbox-supplier-routes.ts).
 */
import { and, eq, inArray, isNull } from 'drizzle-orm'
import { DeviceCommand } from '#domain/enums'
import type { Db } from '../../../db/client'
import { sandboxInstances } from '../../../db/schema'
import type { Clock } from '../../../clock'
import type {
  CommandOutcome,
  CommandRequest,
  ControlPageRequest,
  CreateInstanceRequest,
  InstanceOp,
  InstanceState,
  SupplierAdapter,
  SuspendOutcome,
} from '../supplier-adapter'
import { commandEach, SUPPLIER_UNREACHABLE } from '../supplier-adapter'
import { SandboxAppInstalls } from './app-installs'
import { SandboxBackups } from './backups'
import { COMMAND_DONE, DEFAULT_APPS, LATEST_IMAGE, SANDBOX_MODELS } from './catalogue'
import { SandboxInstances, type SandboxSupplierSettings } from './instances'

export type { SandboxSupplierSettings } from './instances'

export const SANDBOX_PREFIX = '/vmcloud/api/sandbox/supplier'

export class SandboxSupplier implements SupplierAdapter {
  readonly name = 'sandbox'
  private readonly instances: SandboxInstances
  private readonly backups: SandboxBackups
  readonly apps: SandboxAppInstalls

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    settings: SandboxSupplierSettings,
  ) {
    this.instances = new SandboxInstances(db, clock, settings)
    this.backups = new SandboxBackups(db, clock, settings.delayMs, this.instances)
    this.apps = new SandboxAppInstalls(db, clock, settings.delayMs, this.instances)
  }

  async create(request: CreateInstanceRequest) {
    return this.instances.insert(request, [...DEFAULT_APPS])
  }

  async state(instanceId: string): Promise<InstanceState | null> {
    const row = await this.instances.load(instanceId)
    if (!row) return null
    return {
      instanceId: row.id,
      status: row.status as InstanceState['status'],
      op: row.op === 'changeZone' || row.op === 'systemUpdate' ? row.op : null,
      progress: row.op === 'systemUpdate' ? this.instances.progress(row) : null,
      readyAt: row.op ? row.opReadyAt : null,
      failReason: row.failReason,
      zoneId: row.zoneId,
      goodId: row.goodId,
      expireAt: row.expireAt,
      model: row.model,
      imageVersion: row.imageVersion,
    }
  }

  async renew(instanceId: string, expireAt: Date) {
    await this.instances.require(instanceId)
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

  /**
   * Powers instances off as a remote supplier would: a running or rebooting one stops (a reboot in
   * progress ends with it), a suspended or released one is done already; one still creating or failed
   * has nothing to stop and is left as it is. An unknown id, or one the failure rate picks, fails alone.
   * A suspended instance answers state 'suspended' and refuses commands (云手机未运行).
   */
  async suspend(instanceIds: string[]) {
    const outcomes = new Map<string, SuspendOutcome>()
    const asked = [...new Set(instanceIds)]
    for (const id of asked) {
      const row = await this.instances.load(id)
      if (!row) {
        outcomes.set(id, { ok: false, error: new Error(`sandbox supplier: no instance ${id}`) })
      } else if (this.instances.fails()) {
        outcomes.set(id, { ok: false, error: new Error(`sandbox supplier: ${id} did not stop`) })
      } else outcomes.set(id, { ok: true })
    }
    const stopping = asked.filter((id) => outcomes.get(id)?.ok)
    if (stopping.length > 0) {
      await this.db
        .update(sandboxInstances)
        .set({ status: 'suspended', op: null, opStartedAt: null, opReadyAt: null, opTarget: null })
        .where(
          and(
            inArray(sandboxInstances.id, stopping),
            inArray(sandboxInstances.status, ['running', 'rebooting']),
          ),
        )
    }
    return outcomes
  }

  /** A suspended instance boots again (a reboot's delay); any other is left as it is. */
  async resume(instanceId: string) {
    await this.instances.require(instanceId)
    if (this.instances.fails()) throw new Error(`sandbox supplier: ${instanceId} did not start`)
    await this.db
      .update(sandboxInstances)
      .set({ status: 'rebooting', ...this.instances.opWindow('reboot'), opFails: false })
      .where(and(eq(sandboxInstances.id, instanceId), eq(sandboxInstances.status, 'suspended')))
  }

  /**
   * A factory reset as a remote supplier runs one: refused unless the instance runs with no operation
   * in progress, or when the failure rate picks it; otherwise it is 'rebooting' for two delays and comes
   * back running with only the apps it was made with.
   */
  async reset(instanceId: string) {
    const row = await this.instances.require(instanceId)
    if (row.status !== 'running' || row.op) {
      throw new Error(`sandbox supplier: ${instanceId} is ${row.op ?? row.status}, not reset`)
    }
    if (this.instances.fails()) throw new Error(`sandbox supplier: ${instanceId} was not reset`)
    const started = await this.db
      .update(sandboxInstances)
      .set({
        status: 'rebooting',
        ...this.instances.opWindow('reset'),
        opFails: false,
        lastCommand: '重置',
        lastCommandAt: this.clock.now(),
      })
      .where(
        and(
          eq(sandboxInstances.id, instanceId),
          eq(sandboxInstances.status, 'running'),
          isNull(sandboxInstances.op),
        ),
      )
      .returning({ id: sandboxInstances.id })
    if (started.length === 0) throw new Error(`sandbox supplier: ${instanceId} changed, not reset`)
  }

  async command(instanceId: string, request: CommandRequest): Promise<CommandOutcome> {
    const row = await this.instances.require(instanceId)
    if (row.status === 'rebooting') return { ok: false, msg: '云手机重启中，请稍后' }
    if (row.status !== 'running') return { ok: false, msg: '云手机未运行' }
    if (row.op === 'changeZone') return { ok: false, msg: '云手机正在迁移数据，请稍后' }
    if (row.op === 'systemUpdate') return { ok: false, msg: '云手机正在更新系统，请稍后' }
    if (request.command !== DeviceCommand.GetVmCover && this.instances.fails()) {
      return { ok: false, msg: SUPPLIER_UNREACHABLE }
    }
    const now = this.clock.now()
    const noted = { lastCommand: describe(request), lastCommandAt: now }
    if (request.command === DeviceCommand.Reboot) {
      await this.db
        .update(sandboxInstances)
        .set({
          status: 'rebooting',
          ...this.instances.opWindow('reboot'),
          opFails: false,
          ...noted,
        })
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

  /**
   * An Android key event (the control page's 返回 / 主页 / 多任务): refused while the phone reboots,
   * stops or runs an operation, and when the back office fails; noted as the last command (its screen
   * shows it).
   */
  async pressKey(instanceId: string, label: string): Promise<CommandOutcome> {
    const row = await this.instances.require(instanceId)
    if (row.status === 'rebooting') return { ok: false, msg: '云手机重启中，按键未生效' }
    if (row.status !== 'running') return { ok: false, msg: '云手机未运行' }
    if (row.op) return { ok: false, msg: '云手机正忙，按键未生效' }
    if (this.instances.fails()) return { ok: false, msg: SUPPLIER_UNREACHABLE }
    await this.db
      .update(sandboxInstances)
      .set({ lastCommand: `按键：${label}`, lastCommandAt: this.clock.now() })
      .where(eq(sandboxInstances.id, instanceId))
    return { ok: true, msg: `已按下${label}` }
  }

  /** The sandbox's back office has no list calls: each instance as `command` answers it. */
  commandMany(instanceIds: string[], request: CommandRequest) {
    return commandEach(instanceIds, request, (id, one) => this.command(id, one))
  }

  coverUrl(instanceId: string, at: Date, pass: string) {
    return `${SANDBOX_PREFIX}/cover/${instanceId}?t=${at.getTime()}&${pass}`
  }

  async cover(instanceId: string, pass: string) {
    await this.instances.require(instanceId)
    const now = this.clock.now()
    return { url: this.coverUrl(instanceId, now, pass), updatedAt: now }
  }

  private async startOp(instanceId: string, op: InstanceOp, target: Record<string, unknown>) {
    const row = await this.instances.require(instanceId)
    if (row.status !== 'running' || row.op) throw new Error(`sandbox supplier: ${instanceId} busy`)
    await this.db
      .update(sandboxInstances)
      .set({ ...this.instances.opWindow(op), opFails: false, opTarget: target })
      .where(eq(sandboxInstances.id, instanceId))
  }

  changeZone(instanceId: string, zoneId: number) {
    return this.startOp(instanceId, 'changeZone', { zoneId })
  }

  async changeConfig(instanceId: string, goodId: number) {
    await this.instances.require(instanceId)
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
    const old = await this.instances.require(instanceId)
    const apps = request.keepData && old.status === 'running' ? old.apps : [...DEFAULT_APPS]
    return this.instances.insert({ ...request, model: request.model ?? old.model }, apps)
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
    await this.instances.require(instanceId)
    await this.db
      .update(sandboxInstances)
      .set({ model: modelId })
      .where(eq(sandboxInstances.id, instanceId))
  }

  controlUrl(request: ControlPageRequest) {
    return `${SANDBOX_PREFIX}/control?deviceId=${request.deviceId}`
  }

  backup(instanceId: string, requestId: string) {
    return this.backups.backup(instanceId, requestId)
  }

  restore(instanceId: string, backupTaskId: string, requestId: string) {
    return this.backups.restore(instanceId, backupTaskId, requestId)
  }

  backupTask(taskId: string) {
    return this.backups.task(taskId)
  }

  deleteBackup(taskId: string) {
    return this.backups.delete(taskId)
  }

  /** The instance as the cover renderer needs it (null when unknown). */
  async snapshot(instanceId: string) {
    const row = await this.instances.load(instanceId)
    if (!row) return null
    return {
      ...row,
      progress: row.op ? this.instances.progress(row) : null,
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
