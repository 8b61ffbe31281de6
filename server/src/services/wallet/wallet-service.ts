import { and, eq, gte, lt, sql } from 'drizzle-orm'
import { OrderStatus, PayMethod } from '#domain/order-status'
import { BusinessType } from '#domain/enums'
import { DAY_MS, videoUpgradeQuote } from '#domain/pricing'
import { ResultCode } from '#domain/result-codes'
import type { OrderInfo } from '../../contract/order'
import type {
  AccountBalance,
  AgentBalanceRechargeBody,
  BeanLedgerEntry,
  BeanLedgerQuery,
  CreateRechargeOrderBody,
  CreateTimeToMonthOrderBody,
  RechargePackages,
  TimeToMonthQuote,
  TimeToMonthResult,
} from '../../contract/wallet'
import type { Db } from '../../db/client'
import {
  epochMs,
  jsonRecord,
  newestFirstJsonPage,
  pagedJson,
  sqlText,
} from '../../db/page-with-total'
import { preparedOn } from '../../db/prepared'
import { beanLedger, goods, goodsPrices, orders, users } from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import { normalisePage } from '../../domain/paging'
import type { BeanReason, BeanService } from './bean-service'
import type { ServiceContext } from '../context'
import type { DeviceLifecycleService, OwnedDevice } from '../devices/device-lifecycle'
import { againIfRacedByPlacedOrder } from '../orders/order-at-once'
import { isCompany } from '../orders/buyer-standing'
import { emptyDraft } from '../orders/order-draft'
import { packageOrder } from '../orders/order-request'
import { refuseWhilePlanOrderOpen } from '../orders/plan-orders'
import { RECHARGE_PACKAGES, rechargeDraft, type RechargeDetail } from './recharge-packages'
import { insertOrder, type OrderRow } from '../orders/order-insert'
import { balanceOf, COMPANY_ACCOUNT, credit, debit } from './ledger'
import type { OrderService } from '../orders/order-service'

/**
 * One bean is worth one fen (1 元 = 100 豆), the rate bean payments (pay method 3) already use, so beans
 * bought here pay for orders at the price they were bought for.
 */
export const FEN_PER_BEAN = 1
export { RECHARGE_PACKAGES, type RechargeDetail }
/** A time-to-month order adds this many days. */
export const MONTH_DAYS = 30

export const beanReasonLabels: Record<BeanReason, string> = {
  order: '订单支付',
  recharge: '云豆充值',
  refund: '订单退款',
  grant: '系统赠送',
  timeToMonth: '云豆转包月',
}

/** Fulfilment of a paid recharge order, in its transaction: the package's beans and bonus, to the payer. */
export async function creditRecharge(beans: BeanService, tx: Db, order: OrderRow) {
  const { recharge } = order.detail as unknown as RechargeDetail
  const remark =
    recharge.bonus > 0
      ? `充值${recharge.beans}云豆，赠送${recharge.bonus}云豆`
      : `充值${recharge.beans}云豆`
  await beans.credit(tx, order.buyerId ?? order.userId, recharge.beans + recharge.bonus, {
    reason: 'recharge',
    orderId: order.id,
    remark,
  })
}

export interface AccountEntry {
  reason: 'recharge' | 'order' | 'refund'
  orderId: number
}

/** A company's account balance up by `amount` fen, with its ledger row, in the caller's transaction. */
export async function creditAccount(
  tx: Db,
  now: Date,
  userId: number,
  amount: number,
  entry: AccountEntry,
) {
  await credit(tx, COMPANY_ACCOUNT, userId, amount, entry, now)
}

/** Takes `amount` fen (never below zero, however many at once), or throws 1025. */
export async function debitAccount(
  tx: Db,
  now: Date,
  userId: number,
  amount: number,
  entry: AccountEntry,
) {
  await debit(tx, COMPANY_ACCOUNT, userId, amount, entry, now)
}

/**
 * A page of the caller's bean ledger, newest first, optionally from and until a time, as one JSON array,
 * with its total: one row, even past the last page.
 */
function beanLedgerPage(db: Db, from: boolean, until: boolean, first: boolean) {
  const where = and(
    eq(beanLedger.userId, sql.placeholder('userId')),
    from ? gte(beanLedger.createdAt, sql.placeholder('from')) : undefined,
    until ? lt(beanLedger.createdAt, sql.placeholder('until')) : undefined,
  )
  // the order number as a subquery, not a join: the same lookup per row, and less than half the
  // planning where PostgreSQL plans each call (a later page: see pageOf)
  const orderNo = db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(eq(orders.id, beanLedger.orderId))
  // the labels as literals in the statement's text: as parameters they were ten more values to send
  // and read on every call
  const reasonText = sql.join(
    Object.entries(beanReasonLabels).map(
      ([reason, label]) => sql`when ${sqlText(reason)} then ${sqlText(label)}`,
    ),
    sql` `,
  )
  const record = jsonRecord<BeanLedgerEntry>({
    id: beanLedger.id,
    change: beanLedger.change,
    balanceAfter: beanLedger.balanceAfter,
    reason: beanLedger.reason,
    reasonText: sql`case ${beanLedger.reason} ${reasonText} else ${beanLedger.reason} end`,
    orderNo: sql`(${orderNo})`,
    remark: beanLedger.remark,
    createdAt: epochMs(beanLedger.createdAt),
  })
  return newestFirstJsonPage(db, beanLedger, where, record, first)
}

/**
 * Cloud beans as the user sees them: recharge packages and orders (paid through the payment provider,
 * credited by fulfilment), the ledger, and turning beans into 30 more days for a phone.
 */
export class WalletService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly beans: BeanService,
    private readonly orders: OrderService,
    private readonly lifecycle: DeviceLifecycleService,
  ) {}

  async packages(userId: number): Promise<RechargePackages> {
    return {
      balance: await this.beans.balance(userId, this.ctx.db),
      fenPerBean: FEN_PER_BEAN,
      packages: [...RECHARGE_PACKAGES],
    }
  }

  /**
   * An unpaid order (business type 3) for a package; paying it credits the beans once. An optional
   * couponId (a 首充券 on the first recharge) is checked, locked, spent and freed as on every order.
   */
  createRechargeOrder(userId: number, body: CreateRechargeOrderBody): Promise<OrderInfo> {
    const { detail, ...draft } = rechargeDraft(body.packageId)
    return this.orders.place(packageOrder(userId, body, draft, { detail: { ...detail } }))
  }

  async accountBalance(userId: number): Promise<AccountBalance> {
    const db = this.ctx.db
    const balance = await balanceOf(db, COMPANY_ACCOUNT, userId)
    return { balance, enabled: await isCompany(db, userId) }
  }

  /** /order/agentBalanceRecharge: an unpaid top-up order for a company user, credited on payment. */
  createAgentBalanceRecharge(userId: number, body: AgentBalanceRechargeBody): Promise<OrderInfo> {
    // Not one of SPEC's business types (no coupon applies to a top-up).
    const draft = {
      ...emptyDraft('balanceRecharge', 0),
      amount: body.amount,
      originalAmount: body.amount,
      lines: [{ label: '账户余额充值', unitPrice: body.amount, quantity: 1, amount: body.amount }],
    }
    return this.orders.place(
      packageOrder(
        userId,
        { expectedAmount: body.amount, idempotencyKey: body.idempotencyKey },
        draft,
        { companyOnly: '账户余额充值仅对企业用户开放，请先完成企业认证' },
      ),
    )
  }

  /** /wallet/beanLedger as JSON (see jsonRecord). */
  async ledgerJson(userId: number, query: BeanLedgerQuery) {
    if (
      query.startTime !== undefined &&
      query.endTime !== undefined &&
      query.endTime <= query.startTime
    ) {
      throw tip('结束日期不能早于开始日期')
    }
    const { page, rows, offset } = normalisePage(query)
    const from = query.startTime !== undefined
    const until = query.endTime !== undefined
    const first = offset === 0
    const statement = preparedOn(this.ctx.db, `bean_ledger_${+from}${+until}${+first}`, (db) =>
      beanLedgerPage(db, from, until, first),
    )
    const [found] = await statement.execute({
      userId,
      from: query.startTime === undefined ? null : new Date(query.startTime).toISOString(),
      until: query.endTime === undefined ? null : new Date(query.endTime).toISOString(),
      limit: rows,
      offset,
    })
    return pagedJson(found.records, page, rows, found.total)
  }

  /**
   * Beans for 30 more days of the phone: its goods' 30-day list price, and for the video edition its
   * fee for those days, one bean per fen.
   */
  private async monthInBeans(db: Db, device: OwnedDevice): Promise<number> {
    const [price] = await db
      .select({ goodPrice: goodsPrices.goodPrice, videoDailyFee: goods.videoDailyFee })
      .from(goodsPrices)
      .innerJoin(goods, eq(goods.id, goodsPrices.goodId))
      .where(and(eq(goodsPrices.goodId, device.goodId), eq(goodsPrices.goodTime, MONTH_DAYS)))
    if (!price) throw tip('该云手机的配置暂不支持云豆转包月')
    const videoFee = device.videoEdition
      ? videoUpgradeQuote(price.videoDailyFee ?? 0, MONTH_DAYS * DAY_MS)
      : 0
    return Math.ceil((price.goodPrice + videoFee) / FEN_PER_BEAN)
  }

  private newExpiry(device: OwnedDevice): number {
    return Math.max(device.expireAt, this.ctx.clock.now().getTime()) + MONTH_DAYS * DAY_MS
  }

  async timeToMonthQuote(userId: number, deviceId: number): Promise<TimeToMonthQuote> {
    const db = this.ctx.db
    const [device] = await this.lifecycle.ownedDevices(db, userId, [deviceId])
    return {
      deviceId,
      days: MONTH_DAYS,
      beans: await this.monthInBeans(db, device),
      balance: await this.beans.balance(userId, this.ctx.db),
      expireAt: device.expireAt,
      newExpireAt: this.newExpiry(device),
    }
  }

  /**
   * /order/createTimeToMonthOrder: one transaction takes the beans (1015 when short, nothing changed),
   * extends the phone by 30 days and records a completed order (pay method 3) the ledger row points at.
   * The same idempotency key returns the first result instead of spending twice.
   */
  async createTimeToMonthOrder(
    userId: number,
    body: CreateTimeToMonthOrderBody,
  ): Promise<TimeToMonthResult> {
    return againIfRacedByPlacedOrder(() =>
      this.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select id from ${users} where id = ${userId} for no key update`)
        const [existing] = await tx
          .select()
          .from(orders)
          .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, body.idempotencyKey)))
        if (existing) {
          if (existing.kind !== 'timeToMonth') throw tip('请求重复，请刷新后重试')
          const done = existing.detail as { beans: number; newExpireAt: number }
          return {
            orderNo: existing.orderNo,
            deviceId: existing.deviceIds[0],
            beans: done.beans,
            balance: await this.beans.balance(userId, tx),
            newExpireAt: done.newExpireAt,
          }
        }
        const [device] = await this.lifecycle.ownedDevices(tx, userId, [body.deviceId])
        await refuseWhilePlanOrderOpen(tx, [device.deviceId])
        const beans = await this.monthInBeans(tx, device)
        if (beans !== body.expectedBeans) {
          throw new BizError(ResultCode.ORDER_PRICE_INCONSISTENT, '所需云豆已变化，请刷新后重试')
        }
        const now = this.ctx.clock.now()
        const newExpireAt = this.newExpiry(device)
        const order = await insertOrder(
          tx,
          {
            userId,
            businessType: BusinessType.cloudMachine,
            kind: 'timeToMonth',
            status: OrderStatus.completed,
            amount: beans * FEN_PER_BEAN,
            originalAmount: beans * FEN_PER_BEAN,
            quantity: 1,
            goodId: device.goodId,
            goodTime: MONTH_DAYS,
            zoneId: device.zoneId,
            deviceIds: [device.deviceId],
            payMethod: PayMethod.beans,
            payDeadline: now,
            idempotencyKey: body.idempotencyKey,
            detail: { beans, newExpireAt, lines: [], renewals: [] },
            createdAt: now,
            paidAt: now,
            completedAt: now,
          },
          now,
        )
        const balance = await this.beans.debit(tx, userId, beans, {
          reason: 'timeToMonth',
          orderId: order.id,
          remark: `云手机 ${device.deviceId} 转包月${MONTH_DAYS}天`,
        })
        await this.lifecycle.extendDevices(tx, [{ deviceId: device.deviceId, newExpireAt }])
        return { orderNo: order.orderNo, deviceId: device.deviceId, beans, balance, newExpireAt }
      }),
    )
  }
}
