import { createHash } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import {
  AUTO_RENEW_REFUSALS,
  autoRenewPayLabels,
  isAutoRenewPayMethod,
  shortBalanceRefusal,
  type AutoRenewPayMethod,
} from '#domain/auto-renew'
import { durationLabel } from '#domain/catalogue'
import { DeviceStatus } from '#domain/device-lifecycle'
import { formatYuan } from '#domain/formatters'
import { OrderStatus, PayMethod } from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import { intArray, rowsOf } from '../../db/id-arrays'
import { deviceAutoRenew, devices, orders, users } from '../../db/schema'
import { isBizError } from '../../domain/biz-error'
import type { GoodsService } from '../catalogue/goods-service'
import type { ServiceContext } from '../context'
import { MessageKind, type MessageService } from '../engagement/message-service'
import type { FulfilmentService } from '../orders/fulfilment-service'
import { isCompany } from '../orders/buyer-standing'
import type { OrderReads } from '../orders/order-reads'
import type { OrderService } from '../orders/order-service'
import { renewOrder } from '../orders/order-request'
import {
  openPlanOrders,
  planOrderOpenRefusal,
  PLAN_MOVED_REFUSAL,
  type PlanVersions,
} from '../orders/plan-orders'
import type { PaymentService } from '../payments/payment-service'
import type { BeanService } from '../wallet/bean-service'
import { balanceOf, COMPANY_ACCOUNT } from '../wallet/ledger'

/** Phones claimed per statement; a claim's phones of one owner, duration and pay method make one order. */
export const CLAIM_BATCH = 1_000
/** A claimed phone is its claimer's this long; after it (the claimer died), another run may claim it. */
export const CLAIM_MS = 10 * 60_000
/** A phone whose renewal failed is tried again after this (a short balance is not retried every run). */
export const RETRY_MS = 60 * 60_000
const DAY_MS = 86_400_000

/** A due phone as a claim returns it. */
export interface DuePhone {
  deviceId: number
  userId: number
  name: string
  days: number
  payMethod: AutoRenewPayMethod
  goodId: number
  expireAt: Date
  planVersion: number
  notifiedForExpireAt: Date | null
}

/** What one batch did. */
export interface AutoRenewBatch {
  claimed: number
  renewed: number
  failed: number
  /** Orders made (one per owner, duration and pay method of the batch). */
  orders: number
}

const LIVE_SQL = sql.raw(`(${DeviceStatus.running}, ${DeviceStatus.rebooting})`)

/**
 * 自动续费's work, run by the auto-renew job (jobs/auto-renew.ts): claims the phones due (running,
 * expiring within the operator's AUTO_RENEW_DAYS_BEFORE days, set by their current owner), prices each
 * against its plan now, and renews them through the same order, payment and delivery as 续费: one open
 * plan order per phone, paid from beans or the company balance in one transaction (never below zero),
 * delivered or refunded. What is refused is recorded on the phone's row as its failure.
 */
export class AutoRenewRun {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly orders: OrderService,
    private readonly orderReads: OrderReads,
    private readonly payments: PaymentService,
    private readonly fulfilment: FulfilmentService,
    private readonly beans: BeanService,
    private readonly goods: GoodsService,
    private readonly messages: MessageService,
  ) {}

  /**
   * Up to `limit` due phones, earliest expiry first, claimed in one statement: their rows are locked
   * (a concurrent claim skips them) and their retry time moved CLAIM_MS on, so no other run takes
   * them while this one works.
   */
  async claim(now: Date, limit = CLAIM_BATCH): Promise<DuePhone[]> {
    const at = now.toISOString()
    const until = new Date(now.getTime() + this.ctx.settings.autoRenewDaysBefore * DAY_MS)
    const claimUntil = new Date(now.getTime() + CLAIM_MS).toISOString()
    const dueDevice = sql`d.status in ${LIVE_SQL} and d.expire_at > ${at}::timestamptz
      and d.expire_at <= ${until.toISOString()}::timestamptz`
    const dueSetting = sql`r.device_id = d.id and r.user_id = d.user_id
      and (r.retry_at is null or r.retry_at <= ${at}::timestamptz)`
    // The due phones are read along the expiry index, each one's setting looked up by its key: the
    // lateral's LIMIT keeps the planner from hashing the whole settings table instead (query-plans test).
    // The phones' rows are locked above the join, so a claim locks only the phones it takes and a
    // concurrent one takes the next ones (locked in the lateral, a plan that sorts after the join
    // locked every due phone's setting and left the other claim none). A phone claimed by a run
    // that committed since this statement began is left out by the update's own recheck of retry_at.
    const result = await this.ctx.db.execute(sql`
      update device_auto_renew r set retry_at = ${claimUntil}::timestamptz
      from devices d
      where ${dueDevice} and ${dueSetting}
        and r.device_id = any(array(
          select d.id from devices d
          cross join lateral (select 1 from device_auto_renew r where ${dueSetting}
            limit 1) setting
          where ${dueDevice}
          order by d.expire_at limit ${limit}
          for update of d skip locked))
      returning r.device_id, r.user_id, d.name, r.days, r.pay_method, d.good_id, d.expire_at,
        d.plan_version, r.notified_for_expire_at`)
    const rows = rowsOf<Record<string, unknown>>(result)
    return rows
      .map((row) => ({
        deviceId: Number(row.device_id),
        userId: Number(row.user_id),
        name: String(row.name),
        days: Number(row.days),
        payMethod: Number(row.pay_method) as AutoRenewPayMethod,
        goodId: Number(row.good_id),
        expireAt: new Date(row.expire_at as string),
        planVersion: Number(row.plan_version),
        notifiedForExpireAt:
          row.notified_for_expire_at == null
            ? null
            : new Date(row.notified_for_expire_at as string),
      }))
      .sort((a, b) => a.expireAt.getTime() - b.expireAt.getTime() || a.deviceId - b.deviceId)
  }

  /** Claims one batch and renews it; `claimed` below the batch size means nothing more is due now. */
  async runBatch(now = this.ctx.clock.now(), limit = CLAIM_BATCH): Promise<AutoRenewBatch> {
    const claimed = await this.claim(now, limit)
    const outcome: AutoRenewBatch = { claimed: claimed.length, renewed: 0, failed: 0, orders: 0 }
    const groups = new Map<string, DuePhone[]>()
    for (const phone of claimed) {
      if (!isAutoRenewPayMethod(phone.payMethod)) continue
      const key = `${phone.userId}:${phone.days}:${phone.payMethod}`
      const group = groups.get(key)
      if (group) group.push(phone)
      else groups.set(key, [phone])
    }
    for (const group of groups.values()) {
      const done = await this.renewGroup(group)
      outcome.renewed += done.renewed
      outcome.failed += done.failed
      outcome.orders += done.orders
    }
    return outcome
  }

  /** One owner's phones of one duration and pay method: one renewal order for all that can be paid. */
  private async renewGroup(group: DuePhone[]) {
    const { db } = this.ctx
    const { userId, days, payMethod } = group[0]
    const failures = new Map<string, DuePhone[]>()
    const fail = (reason: string, phones: DuePhone[]) => {
      if (phones.length) failures.set(reason, [...(failures.get(reason) ?? []), ...phones])
    }
    const outcome = { renewed: 0, failed: 0, orders: 0 }
    const finish = async () => {
      for (const [reason, phones] of failures) await this.recordFailure(phones, reason)
      outcome.failed = [...failures.values()].reduce((n, phones) => n + phones.length, 0)
      return outcome
    }

    const [owner] = await db
      .select({ frozen: users.frozen })
      .from(users)
      .where(eq(users.id, userId))
    if (!owner || owner.frozen) {
      fail(AUTO_RENEW_REFUSALS.frozen, group)
      return finish()
    }
    if (payMethod === PayMethod.accountBalance && !(await isCompany(db, userId))) {
      fail(AUTO_RENEW_REFUSALS.notCompany, group)
      return finish()
    }
    // the plan-order rule: a phone with an order not yet delivered is left to it, its number named;
    // an unpaid order of this job's own is a run's that died before paying it (the claim says no run
    // works on these phones now), closed so it holds nothing
    let open = await openPlanOrders(
      db,
      group.map((phone) => phone.deviceId),
    )
    if (await this.closeStalled(userId, [...open.values()])) {
      open = await openPlanOrders(
        db,
        group.map((phone) => phone.deviceId),
      )
    }
    let candidates: DuePhone[] = []
    for (const phone of group) {
      const order = open.get(phone.deviceId)
      if (order) fail(planOrderOpenRefusal(order), [phone])
      else candidates.push(phone)
    }
    // priced against each phone's plan now: its goods' row of the chosen duration
    let priceId: number | null = null
    const priced: DuePhone[] = []
    for (const phone of candidates) {
      const price = await this.goods.priceFor(phone.goodId, days, db)
      if (!price) fail(AUTO_RENEW_REFUSALS.noSuchDuration, [phone])
      else {
        priceId ??= price.priceId
        priced.push(phone)
      }
    }
    candidates = priced
    if (candidates.length === 0 || priceId === null) return finish()

    let draft
    try {
      draft = await this.orders.draft(userId, {
        kind: 'renew',
        priceId,
        deviceIds: candidates.map((phone) => phone.deviceId),
      })
    } catch (error) {
      if (!isBizError(error)) throw error
      fail(error.message, candidates)
      return finish()
    }
    // as many as the balance pays for, the earliest expiry first; the rest are told it is short
    const balance =
      payMethod === PayMethod.beans
        ? await this.beans.balance(userId, db)
        : await balanceOf(db, COMPANY_ACCOUNT, userId)
    const amountOf = new Map(draft.renewals.map((line) => [line.deviceId, line.amount]))
    let paid = 0
    let fits = 0
    while (fits < candidates.length) {
      const amount = amountOf.get(candidates[fits].deviceId) ?? 0
      if (paid + amount > balance) break
      paid += amount
      fits++
    }
    const short = candidates.slice(fits)
    if (short.length) {
      const owed = short.reduce((sum, phone) => sum + (amountOf.get(phone.deviceId) ?? 0), 0)
      await this.tellShort(userId, payMethod, short, owed)
      fail(shortBalanceRefusal(payMethod), short)
    }
    candidates = candidates.slice(0, fits)
    if (candidates.length === 0) return finish()
    const deviceIds = candidates.map((phone) => phone.deviceId)
    const amount = short.length
      ? (await this.orders.draft(userId, { kind: 'renew', priceId, deviceIds })).amount
      : draft.amount

    const planSeen: PlanVersions = Object.fromEntries(
      candidates.map((phone) => [String(phone.deviceId), phone.planVersion]),
    )
    // one order per claim: a claim after a stalled run makes its own (the stalled one was closed)
    const idempotencyKey = `auto-renew:${createHash('sha256')
      .update(JSON.stringify([days, payMethod, planSeen, this.ctx.clock.now().getTime()]))
      .digest('base64url')
      .slice(0, 40)}`
    let order
    try {
      order = await this.orders.place({
        ...renewOrder(userId, { deviceIds, priceId, expectedAmount: amount, idempotencyKey }),
        planSeen,
        remark: '自动续费',
        detail: { autoRenew: true },
      })
    } catch (error) {
      if (!isBizError(error)) throw error
      if (error.message === PLAN_MOVED_REFUSAL) {
        // renewed or changed since the claim read it: the next run looks at it afresh
        await this.release(candidates)
        return finish()
      }
      fail(error.message, candidates)
      return finish()
    }
    try {
      await this.payments.createPayment(userId, { orderNo: order.orderNo, payMethod }, '127.0.0.1')
    } catch (error) {
      if (!isBizError(error)) throw error
      // spent since the balance was read: nothing was taken, and the order is not left open
      await this.orders.cancel(userId, order.orderNo).catch(() => undefined)
      const isShort =
        error.code === ResultCode.CLOUD_BEANS_INSUFFICIENT ||
        error.code === ResultCode.INSUFFICIENT_ACCOUNT_BALANCE
      fail(isShort ? shortBalanceRefusal(payMethod) : error.message, candidates)
      return finish()
    }
    outcome.orders = 1
    const { id: orderId } = await this.orderReads.ownOrder(userId, order.orderNo, db)
    // delivered now rather than when the fulfil-order job comes round (it then finds the order done)
    await this.fulfilment.fulfil(orderId)
    await this.recordRenewed(candidates, orderId)
    outcome.renewed = candidates.length
    await this.messages.sendMessage(
      userId,
      MessageKind.RENEWAL,
      '云手机已自动续费',
      `已为您的${candidates.length}台云手机（「${candidates[0].name}」${candidates.length > 1 ? '等' : ''}）自动续费${durationLabel(days)}，${autoRenewPayLabels[payMethod]}支付${formatYuan(amount)}。订单号 ${order.orderNo}`,
      db,
    )
    return finish()
  }

  /** Cancels the unpaid orders among `open` that this job made; true when it cancelled any. */
  private async closeStalled(userId: number, open: { orderNo: string; paid: boolean }[]) {
    const unpaid = [...new Set(open.filter((order) => !order.paid).map((order) => order.orderNo))]
    if (unpaid.length === 0) return false
    const stalled = await this.ctx.db
      .select({ orderNo: orders.orderNo })
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          inArray(orders.orderNo, unpaid),
          eq(orders.status, OrderStatus.unpaid),
          sql`${orders.detail}->>'autoRenew' = 'true'`,
        ),
      )
    for (const { orderNo } of stalled) {
      await this.orders.cancel(userId, orderNo).catch((error: unknown) => {
        // paid meanwhile (by its owner on the orders page): it is then delivered as any order
        if (!isBizError(error)) throw error
      })
    }
    return stalled.length > 0
  }

  /** The owner hears of a short balance once per due cycle (per phone and expiry), not every run. */
  private async tellShort(
    userId: number,
    payMethod: AutoRenewPayMethod,
    short: DuePhone[],
    owed: number,
  ) {
    const untold = short.filter(
      (phone) => phone.notifiedForExpireAt?.getTime() !== phone.expireAt.getTime(),
    )
    if (untold.length === 0) return
    await this.ctx.db.transaction(async (tx) => {
      await tx
        .update(deviceAutoRenew)
        .set({
          notifiedForExpireAt: sql`(select ${devices.expireAt} from ${devices} where ${devices.id} = ${deviceAutoRenew.deviceId})`,
        })
        .where(sql`${deviceAutoRenew.deviceId} = any(${intArray(untold.map((p) => p.deviceId))})`)
      const first = short[0]
      const what = payMethod === PayMethod.beans ? '充值云豆' : '为企业账户充值'
      await this.messages.sendMessage(
        userId,
        MessageKind.RENEWAL,
        '自动续费未成功',
        `您有${short.length}台云手机（「${first.name}」${short.length > 1 ? '等' : ''}）自动续费未成功：${shortBalanceRefusal(payMethod)}，还需${formatYuan(owed)}。请及时${what}或手动续费，以免云手机到期后数据丢失。`,
        tx,
      )
    })
  }

  private async recordFailure(phones: DuePhone[], reason: string) {
    const now = this.ctx.clock.now()
    await this.ctx.db
      .update(deviceAutoRenew)
      .set({
        failure: reason,
        failedAt: now,
        failedForExpireAt: sql`(select ${devices.expireAt} from ${devices} where ${devices.id} = ${deviceAutoRenew.deviceId})`,
        retryAt: new Date(now.getTime() + RETRY_MS),
        updatedAt: now,
      })
      .where(sql`${deviceAutoRenew.deviceId} = any(${intArray(phones.map((p) => p.deviceId))})`)
  }

  private async recordRenewed(phones: DuePhone[], orderId: number) {
    const now = this.ctx.clock.now()
    await this.ctx.db
      .update(deviceAutoRenew)
      .set({
        failure: null,
        failedAt: null,
        failedForExpireAt: null,
        retryAt: null,
        lastOrderId: orderId,
        renewedAt: now,
        updatedAt: now,
      })
      .where(sql`${deviceAutoRenew.deviceId} = any(${intArray(phones.map((p) => p.deviceId))})`)
  }

  /** Gives claimed phones back at once (their plan moved): the next run reads them again. */
  private async release(phones: DuePhone[]) {
    await this.ctx.db
      .update(deviceAutoRenew)
      .set({ retryAt: null })
      .where(sql`${deviceAutoRenew.deviceId} = any(${intArray(phones.map((p) => p.deviceId))})`)
  }
}
