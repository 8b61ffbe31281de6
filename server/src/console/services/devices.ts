/**
 * The console's 云手机 and 任务 pages: find phones, one phone with its history, create a failed phone again,
 * factory-reset or release a phone, and put failed or stuck jobs back in the queue. Every change writes its audit row in the
 * same transaction.
 */
import { and, count, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { OperatorCode } from '#domain/result-codes'
import type {
  AdminDeviceDetail,
  AdminDevicePage,
  AdminDeviceRow,
  AdminJobPage,
  AdminJobRow,
  DeviceSearchQuery,
  JobSearchQuery,
} from '../contract/devices'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import {
  devices,
  deviceTransfers,
  goods,
  jobs,
  operatorAudit,
  operators,
  orders,
  spaceTasks,
  users,
  zones,
} from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { normalisePage, toPaged } from '../../domain/paging'
import type { ServiceContext } from '../../services/context'
import type { DeviceLifecycleService } from '../../services/devices'
import type { GoodsService } from '../../services/catalogue'
import { MessageKind, type MessageService } from '../../services/engagement'
import type { Actor } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'
import { refuseWhilePlanOrderOpen } from '../../services/orders'

/** How many of each history list the phone's page shows. */
export const HISTORY = 50
/**
 * A running job whose lease ran out this long ago is stuck: a live scheduler takes an expired lease within
 * seconds (jobs/scheduler.ts), so no worker is taking it (none runs, or each dies on it).
 */
export const STUCK_AFTER_MS = 10 * 60_000
const FULL_NUMBER = /^1\d{10}$/
const MAX_SERIAL = 2147483647

const ms = (date: Date | null) => date?.getTime() ?? null

const rowColumns = {
  device: devices,
  mobile: users.mobilePhone,
  userName: users.name,
  goodsName: goods.name,
  zoneName: zones.name,
}
type Found = {
  device: typeof devices.$inferSelect
  mobile: string | null
  userName: string
  goodsName: string
  zoneName: string
}

const deviceRow = ({ device, mobile, userName, goodsName, zoneName }: Found): AdminDeviceRow => ({
  id: device.id,
  name: device.name,
  userId: device.userId,
  mobile,
  userName,
  status: device.status,
  busyOp: device.busyOp,
  goodId: device.goodId,
  goodsName,
  level: device.level,
  zoneId: device.zoneId,
  zoneName,
  supplierInstanceId: device.supplierInstanceId,
  failReason: device.failReason,
  expireAt: device.expireAt.getTime(),
  releasedAt: ms(device.releasedAt),
  createdAt: device.createdAt.getTime(),
})

/** What a job works on, read from its payload (the queue's payloads carry one id each). */
function jobTarget(payload: unknown): { target: string | null; deviceId: number | null } {
  const fields = (payload ?? {}) as Record<string, unknown>
  const id = (key: string) => (Number.isInteger(fields[key]) ? (fields[key] as number) : null)
  const deviceId = id('deviceId')
  if (deviceId !== null) return { target: `云手机 ${deviceId}`, deviceId }
  const named: [string, string][] = [
    ['orderId', '订单'],
    ['refundId', '退款'],
    ['taskId', '备份任务'],
    ['operatorMessageId', '消息'],
  ]
  for (const [key, label] of named) {
    const value = id(key)
    if (value !== null) return { target: `${label} ${value}`, deviceId: null }
  }
  return { target: null, deviceId: null }
}

/** Failed, or running on a lease that ran out more than STUCK_AFTER_MS ago. */
const retryableWhere = (now: Date): SQL =>
  or(
    eq(jobs.status, 'failed'),
    and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, new Date(now.getTime() - STUCK_AFTER_MS))),
  )!

const isRetryable = (job: typeof jobs.$inferSelect, now: Date) =>
  job.status === 'failed' ||
  (job.status === 'running' &&
    job.lockedUntil !== null &&
    job.lockedUntil.getTime() < now.getTime() - STUCK_AFTER_MS)

const jobRow = (job: typeof jobs.$inferSelect, now: Date): AdminJobRow => ({
  id: job.id,
  kind: job.kind,
  status: job.status,
  ...jobTarget(job.payload),
  attempts: job.attempts,
  lastError: job.lastError,
  runAt: job.runAt.getTime(),
  lockedUntil: ms(job.lockedUntil),
  createdAt: job.createdAt.getTime(),
  retryable: isRetryable(job, now),
})

/**
 * The filters of a phone search; null when nothing can match (a user id past the serial's range). Each
 * reads an index: a number users_mobile_phone_key then devices_user_status_idx, a user id
 * devices_user_status_idx, a phone id the primary key, an instance devices_supplier_instance_idx, a
 * status devices_status_expire_idx.
 */
export function deviceSearchWhere(query: DeviceSearchQuery): SQL | undefined | null {
  const filters: SQL[] = []
  const user = query.user?.trim()
  if (user) {
    if (FULL_NUMBER.test(user)) {
      filters.push(
        eq(
          devices.userId,
          sql`(select ${users.id} from ${users} where ${users.mobilePhone} = ${user})`,
        ),
      )
    } else if (Number(user) <= MAX_SERIAL) filters.push(eq(devices.userId, Number(user)))
    else return null
  }
  if (query.deviceId !== undefined) filters.push(eq(devices.id, query.deviceId))
  if (query.instanceId !== undefined) {
    filters.push(eq(devices.supplierInstanceId, query.instanceId.trim()))
  }
  if (query.status !== undefined) filters.push(eq(devices.status, query.status))
  return filters.length ? and(...filters) : undefined
}

/** A phone's jobs: the expression of jobs_device_idx. */
export const jobsOfDevice = (deviceId: number): SQL =>
  sql`(${jobs.payload}->>'deviceId') = ${String(deviceId)}`

/** A transfer's two users, each by number and nickname, in the history's own query. */
const fromUsers = alias(users, 'from_users')
const toUsers = alias(users, 'to_users')

export class AdminDeviceService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
    private readonly lifecycle: DeviceLifecycleService,
    private readonly goods: GoodsService,
    private readonly messages: MessageService,
  ) {}

  /** Newest phones first (deviceSearchWhere). */
  async search(query: DeviceSearchQuery): Promise<AdminDevicePage> {
    const { page, rows, offset } = normalisePage({ page: query.page, rows: query.rows ?? 20 })
    const where = deviceSearchWhere(query)
    if (where === null) return toPaged([], page, rows, 0)
    const db = this.ctx.db
    const [found, [{ total }]] = await Promise.all([
      db
        .select(rowColumns)
        .from(devices)
        .innerJoin(users, eq(users.id, devices.userId))
        .innerJoin(goods, eq(goods.id, devices.goodId))
        .innerJoin(zones, eq(zones.id, devices.zoneId))
        .where(where)
        .orderBy(desc(devices.id))
        .limit(rows)
        .offset(offset),
      db.select({ total: count() }).from(devices).where(where),
    ])
    return toPaged(found.map(deviceRow), page, rows, Number(total))
  }

  async detail(deviceId: number): Promise<AdminDeviceDetail> {
    const db = this.ctx.db
    const [found] = await db
      .select({ ...rowColumns, owner: users, orderNo: orders.orderNo })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .innerJoin(goods, eq(goods.id, devices.goodId))
      .innerJoin(zones, eq(zones.id, devices.zoneId))
      .leftJoin(orders, eq(orders.id, devices.orderId))
      .where(eq(devices.id, deviceId))
    if (!found) throw new BizError(OperatorCode.DEVICE_NOT_FOUND)
    const now = this.ctx.clock.now()
    const [jobList, tasks, transfers, actions] = await Promise.all([
      db
        .select()
        .from(jobs)
        .where(jobsOfDevice(deviceId))
        .orderBy(desc(jobs.createdAt), desc(jobs.id))
        .limit(HISTORY),
      db
        .select()
        .from(spaceTasks)
        .where(eq(spaceTasks.deviceId, deviceId))
        .orderBy(desc(spaceTasks.createdAt), desc(spaceTasks.id))
        .limit(HISTORY),
      db
        .select({
          transfer: deviceTransfers,
          fromMobile: fromUsers.mobilePhone,
          fromName: fromUsers.name,
          toMobile: toUsers.mobilePhone,
          toName: toUsers.name,
        })
        .from(deviceTransfers)
        .leftJoin(fromUsers, eq(fromUsers.id, deviceTransfers.fromUserId))
        .leftJoin(toUsers, eq(toUsers.id, deviceTransfers.toUserId))
        .where(eq(deviceTransfers.deviceId, deviceId))
        .orderBy(desc(deviceTransfers.createdAt), desc(deviceTransfers.id))
        .limit(HISTORY),
      db
        .select({ row: operatorAudit, operatorName: operators.name })
        .from(operatorAudit)
        .leftJoin(operators, eq(operators.id, operatorAudit.operatorId))
        .where(
          and(eq(operatorAudit.targetType, 'device'), eq(operatorAudit.targetId, String(deviceId))),
        )
        .orderBy(desc(operatorAudit.at), desc(operatorAudit.id))
        .limit(HISTORY),
    ])
    const { device, owner } = found
    return {
      device: {
        ...deviceRow(found),
        androidVersion: device.androidVersion,
        orderId: device.orderId,
        orderNo: found.orderNo,
        pendingInstanceId: device.pendingInstanceId,
        supplierReleased: device.supplierReleased,
        imageVersion: device.imageVersion,
        model: device.model,
      },
      owner: {
        id: owner.id,
        mobile: owner.mobilePhone,
        name: owner.name,
        frozen: owner.frozen,
      },
      jobs: jobList.map((job) => jobRow(job, now)),
      spaceTasks: tasks.map((task) => ({
        id: task.id,
        kind: task.kind,
        status: task.status,
        failReason: task.failReason,
        createdAt: task.createdAt.getTime(),
        finishedAt: ms(task.finishedAt),
      })),
      transfers: transfers.map(({ transfer, ...names }) => ({
        id: transfer.id,
        fromUserId: transfer.fromUserId,
        toUserId: transfer.toUserId,
        ...names,
        createdAt: transfer.createdAt.getTime(),
      })),
      actions: actions.map(({ row, operatorName }) => ({
        id: row.id,
        at: row.at.getTime(),
        operatorName,
        action: row.action,
        after: row.after,
      })),
    }
  }

  /**
   * A phone in 创建失败 created again: the user's free replacement of a failed phone (device-operations
   * replace), by an operator. The next operation number names a new supplier request, so however often
   * the provision job runs it asks the supplier for one instance. The phone is locked, so of two retries
   * at once the second finds it 创建中 and is refused (4051).
   */
  retryProvision(actor: Actor, deviceId: number): Promise<AdminDeviceRow> {
    return this.ctx.db.transaction(async (tx) => {
      const before = await lockedDevice(tx, deviceId)
      if (before.status !== DeviceStatus.failed) throw new BizError(OperatorCode.DEVICE_NOT_FAILED)
      const [after] = await tx
        .update(devices)
        .set({
          status: DeviceStatus.creating,
          pendingInstanceId: null,
          failReason: null,
          opSeq: sql`${devices.opSeq} + 1`,
        })
        .where(eq(devices.id, deviceId))
        .returning()
      await this.lifecycle.enqueueProvision(tx, deviceId, after.opSeq)
      await this.audit.record(tx, {
        ...actor,
        action: 'device.retryProvision',
        targetType: 'device',
        targetId: deviceId,
        before: { status: before.status, failReason: before.failReason, opSeq: before.opSeq },
        after: { status: after.status, opSeq: after.opSeq },
      })
      return this.row(tx, deviceId)
    })
  }

  /**
   * 重置: a factory reset of a running phone, as customer service does it for a user. Same instance, same
   * expiry, same rental. First the phone is claimed in one transaction: locked, it must be running with
   * no operation of its own (a zone change, replacement or system update: busyOp) and no backup or
   * restore of it running (space tasks lock the same row before they start), else 4055, and no plan
   * order open (4060, as for a release: the order was priced for the phone as it is); it becomes
   * 重启中 under the next operation number, so nothing else starts on it meanwhile, with the sync job that
   * follows it back to 运行中 as after a reboot (it also ends the claim if we stop before the end). Then
   * the supplier is asked, outside any transaction (the sandbox answers from the same database). Refused:
   * the claim is undone and nothing is recorded (4056). Accepted: the audit row and the owner's message,
   * and if the sync job saw the instance still running before the reset began, 重启中 again with a new job.
   */
  async reset(actor: Actor, deviceId: number, reason: string): Promise<AdminDeviceRow> {
    const { before, claimed } = await this.ctx.db.transaction(async (tx) => {
      const before = await lockedDevice(tx, deviceId)
      if (before.status === DeviceStatus.released) {
        throw new BizError(OperatorCode.DEVICE_RELEASED)
      }
      await refuseWhilePlanOrderOpen(tx, [deviceId], 'operator')
      const [task] = await tx
        .select({ id: spaceTasks.id })
        .from(spaceTasks)
        .where(and(eq(spaceTasks.deviceId, deviceId), eq(spaceTasks.status, 'running')))
        .limit(1)
      if (
        before.status !== DeviceStatus.running ||
        before.busyOp ||
        task ||
        !before.supplierInstanceId
      ) {
        throw new BizError(OperatorCode.DEVICE_NOT_RESETTABLE)
      }
      const [claimed] = await tx
        .update(devices)
        .set({ status: DeviceStatus.rebooting, opSeq: sql`${devices.opSeq} + 1` })
        .where(eq(devices.id, deviceId))
        .returning()
      await this.lifecycle.enqueueSync(tx, deviceId, claimed.opSeq)
      return { before, claimed }
    })
    const instanceId = before.supplierInstanceId!
    try {
      await this.ctx.supplier.reset(instanceId)
    } catch (error) {
      this.ctx.log.warn({ deviceId, err: error }, 'supplier refused a reset')
      await this.ctx.db
        .update(devices)
        .set({ status: DeviceStatus.running })
        .where(
          and(
            eq(devices.id, deviceId),
            eq(devices.opSeq, claimed.opSeq),
            eq(devices.status, DeviceStatus.rebooting),
          ),
        )
      throw new BizError(OperatorCode.DEVICE_RESET_REFUSED)
    }
    return this.ctx.db.transaction(async (tx) => {
      let after = await lockedDevice(tx, deviceId)
      if (after.opSeq === claimed.opSeq && after.status === DeviceStatus.running) {
        const [again] = await tx
          .update(devices)
          .set({ status: DeviceStatus.rebooting, opSeq: sql`${devices.opSeq} + 1` })
          .where(eq(devices.id, deviceId))
          .returning()
        await this.lifecycle.enqueueSync(tx, deviceId, again.opSeq)
        after = again
      }
      await this.audit.record(tx, {
        ...actor,
        action: 'device.reset',
        targetType: 'device',
        targetId: deviceId,
        before: { status: before.status, instanceId, opSeq: before.opSeq },
        after: { status: after.status, opSeq: after.opSeq, reason: reason.trim() },
      })
      await this.messages.sendMessage(
        before.userId,
        MessageKind.SYSTEM,
        '云手机正在重置',
        // sent when the supplier accepts the reset, before it is done: it says what is happening, not that it is over
        `客服已为您的云手机「${before.name}」发起重置：所有应用和数据将被清除，重置期间云手机暂不可用，完成后自动恢复运行，到期时间不变。`,
        tx,
      )
      return this.row(tx, deviceId)
    })
  }

  /**
   * Releases a phone as expire-devices does after the retention time: status 已释放 and its stock unit
   * back in one transaction (the user's fleet stops listing it). Refused while the phone has a renewal,
   * up/downgrade or video order not yet delivered (4060 naming it): its delivery would find the plan
   * moved and refund the whole order, every phone of a batch renewal. Then its supplier instances are released;
   * if that fails or the process dies first, expire-devices' releaseInstances does it on its next run.
   * No refund is made.
   */
  async release(actor: Actor, deviceId: number, reason: string): Promise<AdminDeviceRow> {
    const now = this.ctx.clock.now()
    const { row, device } = await this.ctx.db.transaction(async (tx) => {
      const before = await lockedDevice(tx, deviceId)
      if (before.status === DeviceStatus.released) {
        throw new BizError(OperatorCode.DEVICE_RELEASED)
      }
      await refuseWhilePlanOrderOpen(tx, [deviceId], 'operator')
      const [after] = await tx
        .update(devices)
        // the next operation number: a provisioning or sync job already under way writes nothing more
        .set({
          status: DeviceStatus.released,
          releasedAt: now,
          busyOp: null,
          opSeq: sql`${devices.opSeq} + 1`,
        })
        .where(eq(devices.id, deviceId))
        .returning()
      await this.goods.returnStock(tx, before.goodId, before.zoneId, 1)
      await this.audit.record(tx, {
        ...actor,
        action: 'device.release',
        targetType: 'device',
        targetId: deviceId,
        before: { status: before.status, expireAt: before.expireAt.getTime() },
        after: { status: after.status, reason: reason.trim() },
      })
      return { row: await this.row(tx, deviceId), device: after }
    })
    await this.releaseInstances(device).catch((error: unknown) => {
      this.ctx.log.warn(
        { deviceId, err: error },
        'released phone: supplier instance not released yet; expire-devices tries again',
      )
    })
    return row
  }

  private async releaseInstances(device: typeof devices.$inferSelect) {
    const { supplier } = this.ctx
    if (device.pendingInstanceId) await supplier.release(device.pendingInstanceId)
    if (device.supplierInstanceId) await supplier.release(device.supplierInstanceId)
    await this.ctx.db
      .update(devices)
      .set({ supplierReleased: true })
      .where(and(eq(devices.id, device.id), eq(devices.status, DeviceStatus.released)))
  }

  private async row(db: Db, deviceId: number): Promise<AdminDeviceRow> {
    const [found] = await db
      .select(rowColumns)
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .innerJoin(goods, eq(goods.id, devices.goodId))
      .innerJoin(zones, eq(zones.id, devices.zoneId))
      .where(eq(devices.id, deviceId))
    return deviceRow(found)
  }

  /** Failed and stuck jobs (both without `state`), newest first; jobs_due_idx reads them by status. */
  async jobs(query: JobSearchQuery): Promise<AdminJobPage> {
    const { page, rows, offset } = normalisePage({ page: query.page, rows: query.rows ?? 20 })
    const now = this.ctx.clock.now()
    const stuck = and(
      eq(jobs.status, 'running'),
      lt(jobs.lockedUntil, new Date(now.getTime() - STUCK_AFTER_MS)),
    )
    const state =
      query.state === 'failed'
        ? eq(jobs.status, 'failed')
        : query.state === 'stuck'
          ? stuck
          : retryableWhere(now)
    const where = and(state, query.kind === undefined ? undefined : eq(jobs.kind, query.kind))
    const db = this.ctx.db
    const [found, [{ total }]] = await Promise.all([
      db
        .select()
        .from(jobs)
        .where(where)
        .orderBy(desc(jobs.runAt), desc(jobs.id))
        .limit(rows)
        .offset(offset),
      db.select({ total: count() }).from(jobs).where(where),
    ])
    return toPaged(
      found.map((job) => jobRow(job, now)),
      page,
      rows,
      Number(total),
    )
  }

  /**
   * A failed or stuck job back in the queue to run now with its attempts at 0, as a job that asked to run
   * again is (jobs/scheduler.ts): it gets its kind's full number of attempts. Its last error stays until
   * it runs. The row is locked, so of two retries at once the second finds it pending and is refused.
   */
  retryJob(actor: Actor, jobId: number): Promise<AdminJobRow> {
    return this.ctx.db.transaction(async (tx) => {
      const now = this.ctx.clock.now()
      const [before] = await tx.select().from(jobs).where(eq(jobs.id, jobId)).for('update')
      if (!before) throw new BizError(OperatorCode.JOB_NOT_FOUND)
      if (!isRetryable(before, now)) throw new BizError(OperatorCode.JOB_NOT_RETRYABLE)
      const [after] = await tx
        .update(jobs)
        // the lease's token too: a holder still running it (stuck) writes nothing when it ends
        .set({ status: 'pending', attempts: 0, runAt: now, lockedUntil: null, leaseToken: null })
        .where(eq(jobs.id, jobId))
        .returning()
      await this.audit.record(tx, {
        ...actor,
        action: 'job.retry',
        targetType: 'job',
        targetId: jobId,
        before: { kind: before.kind, status: before.status, attempts: before.attempts },
        after: { status: after.status, attempts: after.attempts },
      })
      return jobRow(after, now)
    })
  }
}

/** The phone, locked for this transaction. */
async function lockedDevice(tx: Db, deviceId: number) {
  const [device] = await tx.select().from(devices).where(eq(devices.id, deviceId)).for('update')
  if (!device) throw new BizError(OperatorCode.DEVICE_NOT_FOUND)
  return device
}
