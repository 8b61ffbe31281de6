import {
  and,
  asc,
  eq,
  gt,
  inArray,
  isNotNull,
  lt,
  lte,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm'
import { DeviceStatus, RETENTION_MS } from '#domain/device-lifecycle'
import type { SuspendOutcome } from '../adapters/supplier/supplier-adapter'
import type { Db } from '../db/client'
import { devices } from '../db/schema'
import { chinaDateTime } from '../domain/china-time'
import { SYNC_JOB } from '../services/devices'
import { MessageKind } from '../services/engagement'
import type { Services } from '../services'
import { enqueueJobs } from '../job-queue'
import type { JobDefinition } from './scheduler'

export const EXPIRE_JOB = 'expire-devices'
/** The reminder goes out this long before expiry, once per device and expiry time. */
export const REMINDER_BEFORE_MS = 24 * 3600_000
/**
 * Phones changed per transaction: one conditional update of the batch (rows locked FOR UPDATE SKIP
 * LOCKED, so a concurrent run takes other phones) and one insert of its messages. A transaction of 500
 * holds its row locks for tens of milliseconds.
 */
export const BATCH = 500
/** Expired phones stopped per supplier call batch (ACEP powers off 200 a call). */
export const SUSPEND_BATCH = 1000
/**
 * Each step runs batches until it is caught up or has spent this long, so a run stays well inside its
 * 30 s period even after downtime left a backlog (drained over the next runs). A day of a million
 * phones expiring is ~350 a run for each step.
 */
export const STEP_BUDGET_MS = 5_000
/** Supplier release calls in flight at once (one instance each; a remote API answers in ~100 ms). */
const RELEASE_CONCURRENCY = 8
/**
 * A stopped phone's sync job runs this long after the stop was sent, once the supplier call has long
 * ended (retries included): a renewal that raced the stop finds its phone started again, even when this
 * process died before it could look.
 */
export const SUSPEND_RECHECK_MS = 2 * 60_000

const LIVE = [DeviceStatus.running, DeviceStatus.rebooting]
/**
 * The predicates of the partial indexes of migration 0035, written as literals so the planner proves
 * the query is covered by the index (a bound parameter would not be).
 */
const LIVE_SQL = sql`${devices.status} in ${sql.raw(`(${LIVE.join(', ')})`)}`
const NOT_REMINDED = sql`${devices.remindedForExpireAt} is distinct from ${devices.expireAt}`
const NOT_STOPPED = sql`${devices.stoppedForExpireAt} is distinct from ${devices.expireAt}`

/**
 * Every 30 s: reminds 24 h before expiry, expires live phones at expireAt (with the renewal reminder
 * message), stops (suspends) the supplier instances of expired phones, releases expired ones
 * RETENTION_MS later (stock back, supplier instance released). Each change is a conditional update of
 * a batch, so a repeated or concurrent run changes nothing twice.
 */
export function expireDevicesJob(
  db: Db,
  services: Services,
  /** A test that asserts what one run does gives it no budget (Infinity): a loaded machine is slow. */
  stepBudgetMs = STEP_BUDGET_MS,
): JobDefinition {
  const { supplier, log } = services.ctx

  /** Runs `batch` until it handles fewer than `size` phones or the step's budget is spent. */
  async function drain(size: number, batch: () => Promise<number>) {
    const started = performance.now()
    let total = 0
    for (;;) {
      const n = await batch()
      total += n
      if (n < size || performance.now() - started >= stepBudgetMs) return total
    }
  }

  /**
   * The condition "one of the first `limit` phones matching `where`", earliest expiry first, locked for
   * this transaction (others skip them). `= any(array(…))` runs the subquery once: as `in (…)` the
   * planner may rerun it inside a join and the update then takes more than `limit` phones.
   */
  const lockDue = (tx: Db, where: SQL | undefined, limit = BATCH) =>
    sql`${devices.id} = any(array(${tx
      .select({ id: devices.id })
      .from(devices)
      .where(where)
      .orderBy(asc(devices.expireAt))
      .limit(limit)
      .for('update', { skipLocked: true })}))`

  function remind(now: Date) {
    const due = and(
      LIVE_SQL,
      NOT_REMINDED,
      gt(devices.expireAt, now),
      lte(devices.expireAt, new Date(now.getTime() + REMINDER_BEFORE_MS)),
      // A phone bought for a day or less is not reminded the moment it is created.
      lt(devices.createdAt, sql`${devices.expireAt} - interval '24 hours'`),
    )
    return drain(BATCH, () =>
      db.transaction(async (tx) => {
        const marked = await tx
          .update(devices)
          .set({ remindedForExpireAt: sql`${devices.expireAt}` })
          .where(and(lockDue(tx, due), due))
          .returning({ userId: devices.userId, name: devices.name, expireAt: devices.expireAt })
        if (marked.length === 0) return 0
        await services.messages.sendMessages(
          MessageKind.RENEWAL,
          marked.map((device) => ({
            userId: device.userId,
            title: '云手机即将到期',
            content: `您的云手机「${device.name}」将于${chinaDateTime(device.expireAt.getTime())}到期，请及时续费，以免影响使用。`,
          })),
          tx,
        )
        return marked.length
      }),
    )
  }

  async function expire(now: Date) {
    const due = and(LIVE_SQL, lte(devices.expireAt, now))
    // read outside the batch transactions (on PGlite, a query on db inside one waits for it forever)
    const { renewalReminderMsg } = await services.commonConfig.commonConfig()
    return drain(BATCH, () =>
      db.transaction(async (tx) => {
        const expired = await tx
          .update(devices)
          .set({ status: DeviceStatus.expired })
          .where(and(lockDue(tx, due), due))
          .returning({ userId: devices.userId, name: devices.name })
        if (expired.length === 0) return 0
        await services.messages.sendMessages(
          MessageKind.RENEWAL,
          expired.map((device) => ({
            userId: device.userId,
            title: '云手机已到期',
            content: `「${device.name}」${renewalReminderMsg}`,
          })),
          tx,
        )
        return expired.length
      }),
    )
  }

  /**
   * Stops the instance of every expired phone, after the expiry committed and outside any transaction.
   * Expired phones not yet marked stopped for their expiry (stoppedForExpireAt) are the record of what
   * to stop, so a stop that failed or never went out (a crash after the expiry committed) is sent on a
   * later run; expiry never waits for it. A phone renewed meanwhile is started again here, and by the
   * sync job enqueued before the stop (the renewal's own sync job may have run before the stop landed).
   */
  async function suspendExpired(now: Date) {
    const started = performance.now()
    /** Phones the supplier refused this run: not asked again until the next run. */
    const refused: number[] = []
    let total = 0
    while (performance.now() - started < stepBudgetMs) {
      const due = await db
        .select({
          id: devices.id,
          instanceId: devices.supplierInstanceId,
          expireAt: devices.expireAt,
          planVersion: devices.planVersion,
        })
        .from(devices)
        .where(
          and(
            eq(devices.status, DeviceStatus.expired),
            isNotNull(devices.supplierInstanceId),
            NOT_STOPPED,
            refused.length ? notInArray(devices.id, refused) : undefined,
          ),
        )
        .orderBy(asc(devices.expireAt))
        .limit(SUSPEND_BATCH)
      if (due.length === 0) break
      await stop(now, due, refused)
      total += due.length
      if (due.length < SUSPEND_BATCH) break
    }
    return total
  }

  async function stop(
    now: Date,
    due: { id: number; instanceId: string | null; expireAt: Date; planVersion: number }[],
    refused: number[],
  ) {
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
    const stopped: { id: number; pv: number }[] = []
    for (const d of due) {
      const outcome = outcomes.get(d.instanceId!)
      if (outcome?.ok) stopped.push({ id: d.id, pv: d.planVersion })
      else {
        refused.push(d.id)
        log.warn(
          { deviceId: d.id, instanceId: d.instanceId, err: outcome?.error },
          'expired phone not stopped at the supplier; asked again next run',
        )
      }
    }
    // Marked for the expiry it was stopped for, unless the phone changed meanwhile (a renewal moves its
    // plan version): renewed and expired again, it is stopped again.
    if (stopped.length > 0) {
      await db.execute(sql`
        update ${devices} set ${sql.identifier(devices.stoppedForExpireAt.name)} = ${devices.expireAt}
        from jsonb_to_recordset(${JSON.stringify(stopped)}::jsonb) as v(id integer, pv integer)
        where ${devices.id} = v.id and ${devices.planVersion} = v.pv
          and ${devices.status} = ${DeviceStatus.expired}`)
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

  function release(now: Date) {
    const due = and(
      eq(devices.status, DeviceStatus.expired),
      lte(devices.expireAt, new Date(now.getTime() - RETENTION_MS)),
    )
    return drain(BATCH, () =>
      db.transaction(async (tx) => {
        const released = await tx
          .update(devices)
          .set({ status: DeviceStatus.released, releasedAt: now, busyOp: null })
          .where(and(lockDue(tx, due), due))
          .returning({ goodId: devices.goodId, zoneId: devices.zoneId })
        const stock = new Map<string, { goodId: number; zoneId: number; n: number }>()
        for (const { goodId, zoneId } of released) {
          const key = `${goodId}:${zoneId}`
          const slot = stock.get(key) ?? { goodId, zoneId, n: 0 }
          slot.n++
          stock.set(key, slot)
        }
        for (const { goodId, zoneId, n } of stock.values()) {
          await services.goods.returnStock(tx, goodId, zoneId, n)
        }
        return released.length
      }),
    )
  }

  /** Released phones whose supplier instances are not yet released (also after a crash in between). */
  function releaseInstances() {
    return drain(BATCH, async () => {
      const due = await db
        .select({
          id: devices.id,
          supplierInstanceId: devices.supplierInstanceId,
          pendingInstanceId: devices.pendingInstanceId,
        })
        .from(devices)
        .where(
          and(
            eq(devices.status, DeviceStatus.released),
            eq(devices.supplierReleased, false),
            or(isNotNull(devices.supplierInstanceId), isNotNull(devices.pendingInstanceId)),
          ),
        )
        .limit(BATCH)
      const done: number[] = []
      let next = 0
      const worker = async () => {
        while (next < due.length) {
          const device = due[next++]
          try {
            if (device.pendingInstanceId) await supplier.release(device.pendingInstanceId)
            if (device.supplierInstanceId) await supplier.release(device.supplierInstanceId)
            done.push(device.id)
          } catch (error) {
            log.warn(
              { deviceId: device.id, err: error },
              'instance not released; asked again later',
            )
          }
        }
      }
      await Promise.all(Array.from({ length: RELEASE_CONCURRENCY }, worker))
      if (done.length > 0) {
        await db.update(devices).set({ supplierReleased: true }).where(inArray(devices.id, done))
      }
      // A batch the supplier refused entirely is not asked again in this run.
      return done.length === 0 ? 0 : due.length
    })
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
