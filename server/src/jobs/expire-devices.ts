import { and, asc, eq, gt, inArray, isNotNull, lt, lte, or, sql } from 'drizzle-orm'
import { DeviceStatus, RETENTION_MS } from '#domain/device-lifecycle'
import type { Db } from '../db/client'
import { devices } from '../db/schema'
import { chinaDateTime } from '../domain/china-time'
import { MessageKind } from '../services/message-service'
import type { Services } from '../services'
import type { JobDefinition } from './scheduler'

export const EXPIRE_JOB = 'expire-devices'
/** The reminder goes out this long before expiry, once per device and expiry time. */
export const REMINDER_BEFORE_MS = 24 * 3600_000
/** Phones handled per step and run, so one run stays short with a large fleet. */
const BATCH = 200

const LIVE = [DeviceStatus.running, DeviceStatus.rebooting]

/**
 * Every 30 s: reminds 24 h before expiry, expires live phones at expireAt (with the renewal reminder
 * message), releases expired ones RETENTION_MS later (stock back, supplier instance released). Each
 * change is a conditional update, so a repeated or concurrent run changes nothing twice.
 */
export function expireDevicesJob(db: Db, services: Services): JobDefinition {
  const { supplier } = services.ctx

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
      await release(now)
      await releaseInstances()
      await services.deviceAuth.purgeOld(now)
    },
  }
}
