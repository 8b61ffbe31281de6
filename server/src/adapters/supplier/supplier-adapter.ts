import type { DeviceCommand } from '#domain/enums'
import type { AppInstaller } from './app-installer'

/**
 * Where a supplier instance is: it is asked again until it leaves creating/rebooting or its op ends.
 * 'suspended': powered off by `suspend` (its rental ended), its data kept until `resume` or `release`.
 */
export type InstanceStatus =
  'creating' | 'running' | 'rebooting' | 'suspended' | 'failed' | 'released'
export type InstanceOp = 'changeZone' | 'systemUpdate'

export interface InstanceState {
  instanceId: string
  status: InstanceStatus
  /** A long operation in progress (the instance keeps running meanwhile). */
  op: InstanceOp | null
  /** 0–100 while op is systemUpdate, else null. */
  progress: number | null
  /** When the supplier expects the work in progress to be done (a hint for polling), else null. */
  readyAt: Date | null
  failReason: string | null
  zoneId: number
  goodId: number
  expireAt: Date
  model: string
  imageVersion: string
}

export interface CreateInstanceRequest {
  /** Idempotency key: the same requestId returns the same instance (a retried job never makes two). */
  requestId: string
  name: string
  goodId: number
  zoneId: number
  expireAt: Date
  model?: string | null
}

export interface CommandRequest {
  command: DeviceCommand
  url?: string
  packageName?: string
}

export interface CommandOutcome {
  ok: boolean
  msg: string
  /** A refusal SPEC section 8 has a code of its own for (an app that is not installed: 1090). */
  refusal?: 'appNotFound'
  /** Why the supplier could not be asked (thrown, refused, still throttled): for the log, never shown. */
  error?: unknown
}

/** One instance's answer to `suspend`: done, or why not (for the log; it is asked again). */
export type SuspendOutcome = { ok: true } | { ok: false; error: unknown }

/** What a phone shows when its supplier could not be asked or did not answer. */
export const SUPPLIER_UNREACHABLE = '云手机响应超时，请重试'

/**
 * commandMany for a supplier without list calls: `command` on each distinct instance in turn, a throw
 * failing only its own instance.
 */
export async function commandEach(
  instanceIds: string[],
  request: CommandRequest,
  command: (instanceId: string, request: CommandRequest) => Promise<CommandOutcome>,
): Promise<Map<string, CommandOutcome>> {
  const outcomes = new Map<string, CommandOutcome>()
  for (const instanceId of new Set(instanceIds)) {
    try {
      outcomes.set(instanceId, await command(instanceId, request))
    } catch (error) {
      outcomes.set(instanceId, { ok: false, msg: SUPPLIER_UNREACHABLE, error })
    }
  }
  return outcomes
}

export interface DeviceModel {
  modelId: string
  name: string
  brand: string
}

/** A backup or restore the supplier runs for an instance (the phone is stopped while it runs). */
export interface BackupTaskState {
  status: 'running' | 'done' | 'failed'
  /** Size of the backup in bytes (of the restored backup for a restore); 0 until done. */
  sizeBytes: number
  failReason: string | null
  /** When the supplier expects it done (a polling hint). */
  readyAt: Date | null
}

export interface ControlPageRequest {
  userId: number
  deviceId: number
}

/**
 * What the server needs from a cloud-phone supplier. Calls return once the supplier has accepted the
 * work; long work (create, reboot, reset, zone change, update, replace) is followed with `state`.
 */
export interface SupplierAdapter {
  readonly name: string
  /** Its app installs (app-installer.ts); undefined for a supplier that installs none yet. */
  readonly apps?: AppInstaller
  create(request: CreateInstanceRequest): Promise<{ instanceId: string }>
  state(instanceId: string): Promise<InstanceState | null>
  renew(instanceId: string, expireAt: Date): Promise<void>
  /** Idempotent: releasing a released instance does nothing. */
  release(instanceId: string): Promise<void>
  /**
   * Powers off instances whose rental ended (expire-devices, after the expiry committed): nothing of
   * the user's runs on them any more, their data stays until resume or release. One outcome per
   * distinct id, one instance's failure never failing another's; idempotent (an instance already
   * suspended or released is done). A supplier whose API takes lists sends them in its batch sizes.
   */
  suspend(instanceIds: string[]): Promise<Map<string, SuspendOutcome>>
  /** Powers a suspended instance on again (a renewed phone); throws when the supplier refused. */
  resume(instanceId: string): Promise<void>
  command(instanceId: string, request: CommandRequest): Promise<CommandOutcome>
  /**
   * A factory reset of a running instance: its apps and data are erased, the instance (and the rental)
   * stays. Long work: `state` answers 'rebooting' while it runs, 'running' once done, as after a reboot.
   * Throws when the supplier refused (the instance is not running, busy, unknown, or the call failed).
   */
  reset(instanceId: string): Promise<void>
  /**
   * The same command on many instances (a batch of up to 500 phones): one outcome for each distinct id
   * asked, one instance's failure never failing another's. A supplier whose API takes lists of
   * instances sends them in its own batch sizes; one without loops (commandEach).
   */
  commandMany(instanceIds: string[], request: CommandRequest): Promise<Map<string, CommandOutcome>>
  /**
   * The current screen image of the instance, its URL carrying `pass` (a viewer's signed, short-lived
   * pass, services/devices/screen-access.ts). Whatever serves the image must admit the pass
   * (ScreenAccessService.admits) before it shows anything: the instance id alone never is a credential. A
   * supplier whose images we cannot make check it is put behind a route of ours that does.
   */
  cover(instanceId: string, pass: string): Promise<{ url: string; updatedAt: Date }>
  /** The cover URL for a frame taken at `at` (list pages, without asking the supplier), with `pass`. */
  coverUrl(instanceId: string, at: Date, pass: string): string
  changeZone(instanceId: string, zoneId: number): Promise<void>
  changeConfig(instanceId: string, goodId: number): Promise<void>
  latestImageVersion(): string
  systemUpdate(instanceId: string): Promise<void>
  /** A new instance for the same phone; with keepData its apps and data are copied from the old one. */
  replace(
    instanceId: string,
    request: CreateInstanceRequest & { keepData: boolean },
  ): Promise<{ instanceId: string }>
  /** The phone's name as the supplier shows it (screen, console); best effort. */
  rename(instanceId: string, name: string): Promise<void>
  models(): DeviceModel[]
  setModel(instanceId: string, modelId: string): Promise<void>
  /**
   * The supplier's control page for a phone (web_instance). The client adds the SPEC 7 hand-off
   * (token = the one-time authToken, userId, userType 2, isWeb 1) when it opens it.
   */
  controlUrl(request: ControlPageRequest): string
  /** Starts a backup of the instance's data; `requestId` makes a retried call return the same task. */
  backup(instanceId: string, requestId: string): Promise<{ taskId: string }>
  /** Starts writing a finished backup (a `backup` taskId) back onto an instance. */
  restore(instanceId: string, backupTaskId: string, requestId: string): Promise<{ taskId: string }>
  /** A backup or restore task as of now; null when the supplier does not know it. */
  backupTask(taskId: string): Promise<BackupTaskState | null>
  /** Frees a backup's storage; idempotent. */
  deleteBackup(taskId: string): Promise<void>
}
