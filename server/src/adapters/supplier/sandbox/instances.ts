/**
 * The sandbox supplier's back office: its own books of instances (sandbox_supplier_instances), kept the
 * way a remote supplier keeps them on its side. Work is accepted at once and finishes after a delay;
 * completion is decided from timestamps whenever an instance is read, so it survives restarts and needs
 * no timers.
 */
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { sandboxInstances } from '../../../db/schema'
import type { Clock } from '../../../clock'
import type { CreateInstanceRequest, InstanceOp } from '../supplier-adapter'
import {
  DEFAULT_APPS,
  FAIL_MARKER,
  INITIAL_IMAGE,
  SANDBOX_MODELS,
  START_FAILURE,
} from './catalogue'

export interface SandboxSupplierSettings {
  /** How long provisioning and a reboot take; resets and zone changes take 2×, system updates 5×. */
  delayMs: number
  /** 0–1: share of creates, replacements and commands that fail. */
  failureRate: number
  random?: () => number
}

export type InstanceRow = typeof sandboxInstances.$inferSelect
type Op = 'create' | 'reboot' | 'reset' | InstanceOp

/** How many supplier delays each operation takes. */
const OP_LENGTH: Record<Op, number> = {
  create: 1,
  reboot: 1,
  reset: 2,
  changeZone: 2,
  systemUpdate: 5,
}

export class SandboxInstances {
  readonly random: () => number

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SandboxSupplierSettings,
  ) {
    this.random = settings.random ?? Math.random
  }

  /** Whether the next operation fails: always for a name with FAIL_MARKER, else at the failure rate. */
  fails(name?: string) {
    return (name?.includes(FAIL_MARKER) ?? false) || this.random() < this.settings.failureRate
  }

  /** The columns that start `op` now; it is done after its share of the delay. */
  opWindow(op: Op) {
    const now = this.clock.now()
    return {
      op,
      opStartedAt: now,
      opReadyAt: new Date(now.getTime() + this.settings.delayMs * OP_LENGTH[op]),
    }
  }

  /** Starts creating an instance, once per requestId (asking again answers the same instance). */
  async insert(request: CreateInstanceRequest, apps: string[]) {
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
  async load(instanceId: string): Promise<InstanceRow | null> {
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

  /** Like load, for an instance that must exist. */
  async require(instanceId: string): Promise<InstanceRow> {
    const row = await this.load(instanceId)
    if (!row) throw new Error(`sandbox supplier: no instance ${instanceId}`)
    return row
  }

  /** How far the running operation is, 0–99 (100 is only reached by finishing). */
  progress(row: InstanceRow): number {
    if (!row.opStartedAt || !row.opReadyAt) return 0
    const total = row.opReadyAt.getTime() - row.opStartedAt.getTime()
    const spent = this.clock.now().getTime() - row.opStartedAt.getTime()
    return Math.min(99, Math.max(0, Math.floor((spent / Math.max(1, total)) * 100)))
  }
}

/** The row changes that end an operation whose time has come. */
function finishOp(row: InstanceRow): Partial<InstanceRow> {
  const cleared = { op: null, opStartedAt: null, opReadyAt: null, opFails: false, opTarget: null }
  const target = row.opTarget ?? {}
  switch (row.op) {
    case 'create':
      return row.opFails
        ? { ...cleared, status: 'failed', failReason: START_FAILURE }
        : { ...cleared, status: 'running' }
    case 'reboot':
      return { ...cleared, status: 'running' }
    // A factory reset boots the instance with the apps it was made with, the user's data gone.
    case 'reset':
      return { ...cleared, status: 'running', apps: [...DEFAULT_APPS] }
    case 'changeZone':
      return { ...cleared, zoneId: Number(target.zoneId) }
    case 'systemUpdate':
      return { ...cleared, imageVersion: String(target.imageVersion) }
    default:
      return cleared
  }
}
