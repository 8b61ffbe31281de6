import { and, eq } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import type { Db } from '../db/client'
import { devices } from '../db/schema'
import { MessageKind } from '../services/engagement'
import { PROVISION_JOB, SYNC_JOB } from '../services/devices'
import type { Services } from '../services'
import type { JobDefinition } from './scheduler'

const BUSY_NAMES = {
  changeZone: '更换地区',
  replace: '更换云机',
  systemUpdate: '系统更新',
} as const

/** How often a job asks the supplier again while it works (sooner when it expects to be done). */
export const POLL_MS = 1_000

/** The next poll: at the supplier's expected finish if that comes first, never in the past. */
export function nextPoll(now: Date, readyAt: Date | null | undefined): { rerunAt: Date } {
  const soon = now.getTime() + POLL_MS
  const ready = readyAt ? Math.max(readyAt.getTime(), now.getTime()) : soon
  return { rerunAt: new Date(Math.min(soon, ready)) }
}

/** A supplier still creating after this long has failed us: the phone is marked 创建失败. */
export const PROVISION_TIMEOUT_MS = 10 * 60_000
export const PROVISION_TIMEOUT_REASON = '创建超时'
/** A reboot, zone change or update still running after this long stops holding the phone busy. */
export const OPERATION_TIMEOUT_MS = 30 * 60_000

type DeviceRow = typeof devices.$inferSelect

/**
 * A one-off job about one phone (payload `{ deviceId, since }`); a phone that is gone needs nothing.
 * `timedOut` says the job has waited for the supplier longer than `limitMs`.
 */
function perDeviceJob(
  db: Db,
  kind: string,
  limitMs: number,
  step: (device: DeviceRow, timedOut: boolean) => Promise<void | { rerunAt: Date }>,
): JobDefinition {
  return {
    kind,
    maxAttempts: 10,
    async run(payload, now) {
      const [device] = await db
        .select()
        .from(devices)
        .where(eq(devices.id, Number(payload.deviceId)))
      const since = Number(payload.since ?? now.getTime())
      return device ? step(device, now.getTime() - since >= limitMs) : undefined
    },
  }
}

/**
 * Gets a phone a supplier instance: a new one (status creating), or a replacement for a running phone
 * (busy 'replace', data kept) or a failed one. Polls until the instance runs or fails; every step can
 * be repeated, since the supplier create is keyed by the phone's operation number.
 */
export function provisionDeviceJob(db: Db, services: Services): JobDefinition {
  const { supplier, clock } = services.ctx
  return perDeviceJob(db, PROVISION_JOB, PROVISION_TIMEOUT_MS, async (device, timedOut) => {
    const replacingRunning = device.busyOp === 'replace'
    if (device.status !== DeviceStatus.creating && !replacingRunning) return
    const sameOp = and(eq(devices.id, device.id), eq(devices.opSeq, device.opSeq))

    let pending = device.pendingInstanceId
    if (!pending) {
      const request = {
        requestId: `device-${device.id}-${device.opSeq}`,
        name: device.name,
        goodId: device.goodId,
        zoneId: device.zoneId,
        expireAt: device.expireAt,
        model: device.model,
      }
      const { instanceId } = device.supplierInstanceId
        ? await supplier.replace(device.supplierInstanceId, {
            ...request,
            keepData: replacingRunning,
          })
        : await supplier.create(request)
      const recorded = await db
        .update(devices)
        .set({ pendingInstanceId: instanceId })
        .where(sameOp)
        .returning({ id: devices.id })
      // The phone moved on while the supplier answered (released by an operator, replaced again): this
      // operation's instance is nobody's, so it goes back at once.
      if (recorded.length === 0) {
        await supplier.release(instanceId)
        return
      }
      pending = instanceId
    }

    const state = await supplier.state(pending)
    if (state?.status === 'creating' && !timedOut) return nextPoll(clock.now(), state.readyAt)
    const now = clock.now()
    if (state?.status === 'running') {
      // The old instance goes first: if we stop in between, the next run swaps again.
      if (device.supplierInstanceId) await supplier.release(device.supplierInstanceId)
      await db
        .update(devices)
        .set({
          supplierInstanceId: pending,
          pendingInstanceId: null,
          busyOp: null,
          failReason: null,
          // A replaced phone keeps whatever status it has now (it may have expired meanwhile).
          ...(replacingRunning ? {} : { status: DeviceStatus.running }),
          imageVersion: state.imageVersion,
          model: state.model,
          coverUpdatedAt: now,
        })
        .where(sameOp)
      return
    }

    const reason =
      state?.status === 'creating'
        ? PROVISION_TIMEOUT_REASON
        : (state?.failReason ?? '云手机创建失败')
    // An instance that failed (or never came up) is given back to the supplier.
    await supplier.release(pending)
    if (replacingRunning) {
      await db
        .update(devices)
        .set({ pendingInstanceId: null, busyOp: null, failReason: `更换失败：${reason}` })
        .where(sameOp)
      await services.messages.sendMessage(
        device.userId,
        MessageKind.CREATE,
        '云手机更换失败',
        `您的云手机「${device.name}」更换失败（${reason}），原云手机可继续使用，请稍后重试。`,
        db,
      )
      return
    }
    if (device.supplierInstanceId) await supplier.release(device.supplierInstanceId)
    const failed = await db
      .update(devices)
      .set({
        status: DeviceStatus.failed,
        supplierInstanceId: pending,
        pendingInstanceId: null,
        failReason: reason,
      })
      .where(and(sameOp, eq(devices.status, DeviceStatus.creating)))
      .returning({ id: devices.id })
    if (failed.length === 0) return
    await services.messages.sendMessage(
      device.userId,
      MessageKind.CREATE,
      '云手机创建失败',
      `您的云手机「${device.name}」创建失败（${reason}），可在云机操作中免费更换云机。`,
      db,
    )
  })
}

/**
 * Brings the supplier in line with the phone (expiry, configuration, zone, system image) and follows a
 * reboot, zone change or system update until the supplier reports it done.
 */
export function syncDeviceJob(db: Db, services: Services): JobDefinition {
  const { supplier, clock } = services.ctx
  return perDeviceJob(db, SYNC_JOB, OPERATION_TIMEOUT_MS, async (device, timedOut) => {
    if (!device.supplierInstanceId || device.status === DeviceStatus.released) return
    const instanceId = device.supplierInstanceId
    const state = await supplier.state(instanceId)
    if (!state || state.status === 'released' || state.status === 'failed') return

    if (state.expireAt.getTime() !== device.expireAt.getTime()) {
      await supplier.renew(instanceId, device.expireAt)
    }
    // Renewed after expire-devices stopped it (or its stop landed after the renewal): started again,
    // and followed from the next state on.
    const live = device.status === DeviceStatus.running || device.status === DeviceStatus.rebooting
    if (state.status === 'suspended' && live) {
      await supplier.resume(instanceId)
      return nextPoll(clock.now(), null)
    }
    if (state.goodId !== device.goodId) await supplier.changeConfig(instanceId, device.goodId)

    let waiting = false
    if (device.status === DeviceStatus.rebooting) {
      if (state.status === 'rebooting') waiting = true
      else {
        await db
          .update(devices)
          .set({ status: DeviceStatus.running, coverUpdatedAt: clock.now() })
          .where(and(eq(devices.id, device.id), eq(devices.status, DeviceStatus.rebooting)))
      }
    }
    if (device.busyOp === 'changeZone') {
      if (state.op === 'changeZone') waiting = true
      else if (state.zoneId !== device.zoneId) {
        if (state.status === 'running') await supplier.changeZone(instanceId, device.zoneId)
        waiting = true
      } else await finishBusy(db, device, { coverUpdatedAt: clock.now() })
    }
    if (device.busyOp === 'systemUpdate') {
      const latest = supplier.latestImageVersion()
      if (state.op === 'systemUpdate') waiting = true
      else if (state.imageVersion !== latest) {
        if (state.status === 'running') await supplier.systemUpdate(instanceId)
        waiting = true
      } else await finishBusy(db, device, { imageVersion: latest, coverUpdatedAt: clock.now() })
    }
    if (!waiting) return
    if (!timedOut) return nextPoll(clock.now(), state.readyAt)
    // The supplier never finished: let the phone be used (or replaced) again, and say why.
    await db
      .update(devices)
      .set({
        busyOp: null,
        failReason: device.busyOp ? `${BUSY_NAMES[device.busyOp]}超时，请重试或联系客服` : null,
        ...(device.status === DeviceStatus.rebooting ? { status: DeviceStatus.running } : {}),
      })
      .where(and(eq(devices.id, device.id), eq(devices.opSeq, device.opSeq)))
  })
}

function finishBusy(db: Db, device: DeviceRow, changes: Partial<DeviceRow>) {
  return db
    .update(devices)
    .set({ ...changes, busyOp: null })
    .where(and(eq(devices.id, device.id), eq(devices.busyOp, device.busyOp!)))
}
