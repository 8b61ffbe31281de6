import { and, asc, eq, gt, inArray, isNotNull, lt, lte, or, sql } from 'drizzle-orm'
import { DeviceStatus, RETENTION_MS } from '#domain/device-lifecycle'
import type { SuspendOutcome } from '../adapters/supplier/supplier-adapter'
import type { Db } from '../db/client'
import { devices } from '../db/schema'
import { chinaDateTime } from '../domain/china-time'
import { SYNC_JOB } from '../services/fleet-service'
import { MessageKind } from '../services/message-service'
import type { Services } from '../services'
import { enqueueJobs } from './queue'
import type { JobDefinition } from './scheduler'

export const EXPIRE_JOB = 'expire-devices'
/** The reminder goes out this long before expiry, once per device and expiry time. */
export const REMINDER_BEFORE_MS = 24 * 3600_000
/** Phones handled per step and run, so one run stays short with a large fleet. */
const BATCH = 200
/** Expired phones stopped per run: a few of the supplier's list calls (ACEP powers off 200 a call). */
const SUSPEND_BATCH = 1000
/**
 * A stopped phone's sync job runs this long after the stop was sent, once the supplier call has long
 * ended (retries included): a renewal that raced the stop finds its phone started again, even when this
 * process died before it could look.
 */
export const SUSPEND_RECHECK_MS = 2 * 60_000

const LIVE = [DeviceStatus.running, DeviceStatus.rebooting]

/**
 * Every 30 s: reminds 24 h before expiry, expires live phones at expireAt (with the renewal reminder
 * message), stops (suspends) the supplier instances of expired phones, releases expired ones
 * RETENTION_MS later (stock back, supplier instance released). Each change is a conditional update, so
 * a repeated or concurrent run changes nothing twice.
 */
export function expireDevicesJob(db: Db, services: Services): JobDefinition {
  const { supplier, log } = services.ctx
  /**
   * Instances this process has stopped, as `instanceId@expireAt`, so they are not asked again every
   * run. Lost with the process: a new one asks again (suspend is idempotent), which is also how a stop
   * that never went out (a crash after the expiry committed) is sent.
   */
  const stopped = new Set<string>()

  async function remind(now: Date) {
    const due = await db
      .select()
      .from(devices)
      .where(
        and(
          inArray(devices.status, LIVE),
          gt(devices.expireAt, now),
          lte(devices.expireAt, new Date(now.getTime() + REMINDER_BEFORE_MS)),
          // A phone bought for a day or less is not reminded the moment it is created.
          lt(devices.createdAt, sql`${devices.expireAt} - interval '24 hours'`),
          or(
            sql`${devices.remindedForExpireAt} is null`,
            sql`${devices.remindedForExpireAt} <> ${devices.expireAt}`,
          ),
        ),
      )
      .orderBy(asc(devices.expireAt))
      .limit(BATCH)
    for (const device of due) {
      await db.transaction(async (tx) => {
        const marked = await tx
          .update(devices)
          .set({ remindedForExpireAt: device.expireAt })
          .where(and(eq(devices.id, device.id), eq(devices.expireAt, device.expireAt)))
          .returning({ id: devices.id })
        if (marked.length === 0) return
        await services.messages.sendMessage(
          device.userId,
          MessageKind.RENEWAL,
          '云手机即将到期',
          `您的云手机「${device.name}」将于${chinaDateTime(device.expireAt.getTime())}到期，请及时续费，以免影响使用。`,
          tx,
        )
      })
    }
  }

  async function expire(now: Date) {
    const due = await db
      .select()
      .from(devices)
      .where(and(inArray(devices.status, LIVE), lte(devices.expireAt, now)))
      .orderBy(asc(devices.expireAt))
      .limit(BATCH)
    if (due.length === 0) return
    const { renewalReminderMsg } = await services.catalog.commonConfig()
    for (const device of due) {
      await db.transaction(async (tx) => {
        const expired = await tx
          .update(devices)
          .set({ status: DeviceStatus.expired })
          .where(
            and(
              eq(devices.id, device.id),
              inArray(devices.status, LIVE),
              lte(devices.expireAt, now),
            ),
          )
          .returning({ id: devices.id })
        if (expired.length === 0) return
        await services.messages.sendMessage(
          device.userId,
          MessageKind.RENEWAL,
          '云手机已到期',
          `「${device.name}」${renewalReminderMsg}`,
          tx,
        )
      })
    }
  }

  /**
   * Stops the instance of every expired phone, after the expiry committed and outside any transaction.
   * Expired phones are the record of what to stop, so a stop that failed or never went out is sent on a
   * later run; expiry never waits for it. A phone renewed meanwhile is started again here, and by the
   * sync job enqueued before the stop (the renewal's own sync job may have run before the stop landed).
   */
  async function suspendExpired(now: Date) {
    const expired = await db
      .select({
        id: devices.id,
        instanceId: devices.supplierInstanceId,
        expireAt: devices.expireAt,
      })
      .from(devices)
      .where(and(eq(devices.status, DeviceStatus.expired), isNotNull(devices.supplierInstanceId)))
      .orderBy(asc(devices.expireAt))
    const key = (d: (typeof expired)[number]) => `${d.instanceId}@${d.expireAt.getTime()}`
    const current = new Set(expired.map(key))
    for (const known of stopped) if (!current.has(known)) stopped.delete(known)
    const due = expired.filter((d) => !stopped.has(key(d))).slice(0, SUSPEND_BATCH)
    if (due.length === 0) return
    await enqueueJobs(
      db,
      now,
      due.map((d) => ({
        kind: SYNC_JOB,
        payload: { deviceId: d.id, since: now.getTime() },
        runAt: new Date(now.getTime() + SUSPEND_RECHECK_MS),
        uniqueKey: `${SYNC_JOB}:${d.id}:suspended@${d.expireAt.getTime()}`,
      })),
    )
    let outcomes: Map<string, SuspendOutcome>
    try {
      outcomes = await supplier.suspend(due.map((d) => d.instanceId!))
    } catch (error) {
      // The supplier could not be asked at all: every phone is asked again next run.
      outcomes = new Map(due.map((d) => [d.instanceId!, { ok: false, error }]))
    }
    for (const d of due) {
      const outcome = outcomes.get(d.instanceId!)
      if (outcome?.ok) stopped.add(key(d))
      else {
        log.warn(
          { deviceId: d.id, instanceId: d.instanceId, err: outcome?.error },
          'expired phone not stopped at the supplier; asked again next run',
        )
      }
    }
    const renewed = await db
      .select({ id: devices.id, instanceId: devices.supplierInstanceId })
      .from(devices)
      .where(
        and(
          inArray(
            devices.id,
            due.map((d) => d.id),
          ),
          inArray(devices.status, LIVE),
        ),
      )
    for (const d of renewed) {
      if (!d.instanceId) continue
      await supplier.resume(d.instanceId).catch((error: unknown) => {
        log.warn(
          { deviceId: d.id, err: error },
          'renewed phone not started again; its sync job tries again',
        )
      })
    }
  }

  async function release(now: Date) {
    const due = await db
      .select()
      .from(devices)
      .where(
        and(
          eq(devices.status, DeviceStatus.expired),
          lte(devices.expireAt, new Date(now.getTime() - RETENTION_MS)),
        ),
      )
      .orderBy(asc(devices.expireAt))
      .limit(BATCH)
    for (const device of due) {
      await db.transaction(async (tx) => {
        const released = await tx
          .update(devices)
          .set({ status: DeviceStatus.released, releasedAt: now, busyOp: null })
          .where(
            and(
              eq(devices.id, device.id),
              eq(devices.status, DeviceStatus.expired),
              eq(devices.expireAt, device.expireAt),
            ),
          )
          .returning({ id: devices.id })
        if (released.length === 0) return
        await services.goods.returnStock(tx, device.goodId, device.zoneId, 1)
      })
    }
  }

  /** Released phones whose supplier instances are not yet released (also after a crash in between). */
  async function releaseInstances() {
    const due = await db
      .select()
      .from(devices)
      .where(
        and(
          eq(devices.status, DeviceStatus.released),
          eq(devices.supplierReleased, false),
          or(isNotNull(devices.supplierInstanceId), isNotNull(devices.pendingInstanceId)),
        ),
      )
      .limit(BATCH)
    for (const device of due) {
      if (device.pendingInstanceId) await supplier.release(device.pendingInstanceId)
      if (device.supplierInstanceId) await supplier.release(device.supplierInstanceId)
      await db.update(devices).set({ supplierReleased: true }).where(eq(devices.id, device.id))
    }
  }

  return {
    kind: EXPIRE_JOB,
    everyMs: 30_000,
    async run(_payload, now) {
      await remind(now)
      await expire(now)
      await suspendExpired(now)
      await release(now)
      await releaseInstances()
      await services.deviceAuth.purgeOld(now)
    },
  }
}
