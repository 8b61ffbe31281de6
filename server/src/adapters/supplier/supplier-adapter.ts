import type { DeviceCommand } from '../../../../src/domain/enums'

/** Where a supplier instance is: it is asked again until it leaves creating/rebooting or its op ends. */
export type InstanceStatus = 'creating' | 'running' | 'rebooting' | 'failed' | 'released'
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
}

export interface DeviceModel {
  modelId: string
  name: string
  brand: string
}

export interface ControlPageRequest {
  userId: number
  deviceId: number
}

/**
 * What the server needs from a cloud-phone supplier. Calls return once the supplier has accepted the
 * work; long work (create, reboot, zone change, update, replace) is followed with `state`.
 */
export interface SupplierAdapter {
  readonly name: string
  create(request: CreateInstanceRequest): Promise<{ instanceId: string }>
  state(instanceId: string): Promise<InstanceState | null>
  renew(instanceId: string, expireAt: Date): Promise<void>
  /** Idempotent: releasing a released instance does nothing. */
  release(instanceId: string): Promise<void>
  command(instanceId: string, request: CommandRequest): Promise<CommandOutcome>
  /** The current screen image of the instance. */
  cover(instanceId: string): Promise<{ url: string; updatedAt: Date }>
  /** The cover URL for a frame taken at `at` (list pages, without asking the supplier). */
  coverUrl(instanceId: string, at: Date): string
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
}
