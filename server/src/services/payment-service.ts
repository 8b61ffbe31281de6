import { randomBytes } from 'node:crypto'
import { and, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm'
import { describeOrder, OrderStatus, PayMethod } from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import {
  PaymentNotificationError,
  PaymentProviderRefusal,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentStart,
  type PayScene,
  type TradeState,
} from '../adapters/payment/payment-provider'
import type { PaymentProviders } from '../adapters/payment/payment-providers'
import { WechatAuthError } from '../adapters/wechat/wechat-adapter'
import type { CreatePaymentBody, CreatePaymentResult } from '../contract/payment'
import type { Db } from '../db/client'
import { orders, paymentNotifications, payments } from '../db/schema'
import { BizError, tip } from '../domain/biz-error'
import type { BeanService } from './bean-service'
import type { ServiceContext } from './context'
import { spendOrderCoupon } from './coupon-service'
import { enqueueFulfilment } from './fulfilment-service'
import { requestRefund } from './refund-service'
import { markSeckillPaid } from './seckill-units'
import { debitAccount } from './wallet-service'
import type { OrderRow } from './order-insert'
import type { OrderService } from './order-service'

export type PaymentRow = typeof payments.$inferSelect
/** `acknowledged`: a genuine notification that asks nothing of us (nothing written). */
export type NotificationOutcome =
  PaymentNotice['status'] | 'refunding' | 'duplicate' | 'acknowledged'

/** A pending trade is asked about once this old (its notification is late), then again each time. */
export const TRADE_QUERY_AFTER_MS = 60_000

/** Why an order cannot be paid now, or null when it can. */
function payRefusal(order: OrderRow, now: number): string | null {
  switch (order.status) {
    case OrderStatus.unpaid:
      return now < order.payDeadline.getTime() ? null : '订单已超时，请重新下单'
    case OrderStatus.paid:
    case OrderStatus.completed:
      return '订单已支付，请勿重复支付'
    case OrderStatus.cancelled:
      return '订单已取消，请重新下单'
    case OrderStatus.timedOut:
      return '订单已超时，请重新下单'
    default:
      return '订单已关闭'
  }
}

/** Where the checkout page sends the buyer back: an app path only, never another site. */
export function safeReturnUrl(url: string | undefined, orderNo: string): string {
  if (!url) return `/pages/pay/pay?orderNo=${orderNo}`
  if (!/^\/(?![/\\])[^\s\\]*$/.test(url)) throw tip('返回地址须为本应用内的页面路径')
  return url
}

/**
 * WeChat Pay inside WeChat (JSAPI) needs the payer's openid in the app the scene pays through. The
 * client sends a fresh code and the server exchanges it, so an openid is never taken from a client. A
 * code missing or refused is 1004 (微信账号为空, SPEC 8): the client gets a new code and asks again.
 */
export const WXCODE_MISSING_MESSAGE = '缺少微信授权，请重新进入页面后再支付'
export const WXCODE_REFUSED_MESSAGE = '微信授权已失效，请重新进入页面后再支付'

/** 31 characters: WeChat Pay's out_trade_no takes 6-32 (Alipay's 64); 88 random bits. */
const newTradeNo = () =>
  `T${Date.now().toString(36).toUpperCase()}${randomBytes(11).toString('hex')}`

/**
 * Paying orders: with beans or the account balance at once, or through the pay method's provider,
 * whose signed notification marks the order paid (once per trade) and queues its fulfilment in the
 * same transaction. Each trade is the business of the provider that opened it (payments.provider).
 *
 * Long (~400 lines) on purpose, for now: opening a trade, settling a provider's word on it and asking
 * about it (reconcile) share the trade's life rules (payRefusal, markPaid, money that arrives for an
 * order that cannot take it goes back). Splitting settlement into its own module is the next step
 * when this file grows again.
 */
export class PaymentService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly providers: PaymentProviders,
    private readonly orders: OrderService,
    private readonly beans: BeanService,
  ) {}

  /** `clientIp`: the buyer's IP as the server sees it (Fastify's request.ip, behind trustProxy). */
  async createPayment(
    userId: number,
    body: CreatePaymentBody,
    clientIp: string,
  ): Promise<CreatePaymentResult> {
    let order: OrderRow
    if (body.link) order = await this.orders.byLink(body.link, this.ctx.db)
    else if (body.orderNo) order = await this.orders.ownOrder(userId, body.orderNo, this.ctx.db)
    else throw tip('缺少参数 orderNo')
    const now = this.ctx.clock.now()
    const refusal = payRefusal(order, now.getTime())
    if (refusal) throw tip(refusal)
    if (order.kind === 'beanRecharge' && body.payMethod === PayMethod.beans) {
      throw tip('云豆充值请使用微信支付或支付宝')
    }
    if (body.payMethod === PayMethod.accountBalance) {
      if (order.kind === 'balanceRecharge') throw tip('账户余额充值请使用微信支付或支付宝')
      if (!(await this.orders.pricing.isCompany(this.ctx.db, userId))) {
        throw tip('账户余额支付仅对企业用户开放')
      }
    }
    const returnUrl = safeReturnUrl(body.returnUrl, order.orderNo)
    const tradeNo = newTradeNo()
    const record = {
      tradeNo,
      orderId: order.id,
      payerId: userId,
      payMethod: body.payMethod,
      amount: order.amount,
      returnUrl,
      createdAt: now,
    }
    if (body.payMethod === PayMethod.beans || body.payMethod === PayMethod.accountBalance) {
      const method = body.payMethod
      await this.ctx.db.transaction(async (tx) => {
        const locked = (await this.orders.lock(tx, order.id))!
        const stillRefused = payRefusal(locked, now.getTime())
        if (stillRefused) throw tip(stillRefused)
        if (method === PayMethod.beans) {
          await this.beans.debit(tx, userId, locked.amount, {
            reason: 'order',
            orderId: locked.id,
            // what was bought: the row shows the order number beside it
            remark: describeOrder(await this.orders.info(locked, userId, tx)),
          })
        } else {
          await debitAccount(tx, now, userId, locked.amount, {
            reason: 'order',
            orderId: locked.id,
          })
        }
        const provider = method === PayMethod.beans ? 'beans' : 'accountBalance'
        await tx.insert(payments).values({ ...record, provider, status: 'paid', settledAt: now })
        await this.markPaid(tx, locked, userId, method)
      })
      return {
        tradeNo,
        orderNo: order.orderNo,
        payMethod: body.payMethod,
        checkoutUrl: null,
        wxPayParams: null,
        paid: true,
      }
    }
    const scene = body.scene ?? 'browser'
    const provider = this.providers.forMethod(body.payMethod)
    let start: PaymentStart
    try {
      start = await provider.createPayment({
        tradeNo,
        orderNo: order.orderNo,
        amount: order.amount,
        payMethod: body.payMethod,
        returnUrl,
        expiresAt: order.payDeadline,
        scene,
        openId: await this.payerOpenId(body.payMethod, scene, body.wxCode),
        clientIp,
        description: `云手机订单 ${order.orderNo}`,
      })
    } catch (error) {
      // The provider's own refusal (Alipay inside WeChat, say) is said to the buyer as it is.
      if (error instanceof PaymentProviderRefusal) throw tip(error.message)
      throw error
    }
    await this.ctx.db.insert(payments).values({ ...record, provider: provider.name })
    return {
      tradeNo,
      orderNo: order.orderNo,
      payMethod: body.payMethod,
      checkoutUrl: start.checkoutUrl,
      wxPayParams: start.wxPayParams ?? null,
      paid: false,
    }
  }

  /** The payer's openid for WeChat JSAPI pay (see WXCODE_MISSING_MESSAGE); null for other payments. */
  private async payerOpenId(payMethod: number, scene: PayScene, wxCode: string | undefined) {
    if (payMethod !== PayMethod.wechatPay || scene === 'browser') return null
    if (!wxCode) throw new BizError(ResultCode.WECHAT_ACCOUNT_EMPTY, WXCODE_MISSING_MESSAGE)
    try {
      const identity =
        scene === 'miniProgram'
          ? await this.ctx.wechat.code2session(wxCode)
          : await this.ctx.wechat.oauthCode(wxCode)
      return identity.openid
    } catch (error) {
      if (!(error instanceof WechatAuthError)) throw error
      this.ctx.log.warn({ err: error.message, scene }, 'wechat code for payment rejected')
      throw new BizError(ResultCode.WECHAT_ACCOUNT_EMPTY, WXCODE_REFUSED_MESSAGE)
    }
  }

  /** Unpaid → paid and the fulfilment job, in the caller's transaction; false when no longer unpaid. */
  private async markPaid(tx: Db, order: OrderRow, payerId: number, payMethod: number) {
    const now = this.ctx.clock.now()
    const [paid] = await tx
      .update(orders)
      .set({
        status: OrderStatus.paid,
        paidAt: now,
        payMethod,
        buyerId: payerId === order.userId ? null : payerId,
        // The reserved stock now belongs to the purchase; it is no longer handed back.
        reservedQuantity: 0,
      })
      .where(and(eq(orders.id, order.id), eq(orders.status, OrderStatus.unpaid)))
      .returning({ id: orders.id })
    if (!paid) return false
    await spendOrderCoupon(tx, order.id, now)
    await markSeckillPaid(tx, order.id)
    await enqueueFulfilment(tx, now, order.id)
    return true
  }

  /**
   * A notification to the named provider's callback, verified by that provider first
   * (PaymentNotificationError otherwise, 404 for a provider not running here), then settled.
   */
  async handleNotification(
    providerName: string,
    headers: Record<string, unknown>,
    rawBody: string,
  ): Promise<NotificationOutcome> {
    const provider = this.named(providerName)
    const notice = provider.verifyNotification(headers, rawBody)
    return notice ? this.settle(provider.name, notice) : 'acknowledged'
  }

  /** The provider a callback or a payment row names; PaymentNotificationError 404 when not running. */
  named(providerName: string): PaymentProvider {
    const provider = this.providers.named(providerName)
    if (!provider) throw new PaymentNotificationError(404, '支付渠道不存在')
    return provider
  }

  /**
   * The provider's word on a trade, from its notification or from a query (reconcile): the same path,
   * acted upon once per trade — a replay, or the notification after a query, finds the earlier record
   * and changes nothing. Money for an order that is no longer payable (cancelled, timed out, paid by
   * another trade) is refunded through the provider, never fulfilled. Only `providerName`'s own trades
   * are found: one provider's word never settles another's trade.
   */
  async settle(providerName: string, notice: PaymentNotice): Promise<NotificationOutcome> {
    return this.ctx.db.transaction(async (tx) => {
      const [payment] = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.tradeNo, notice.tradeNo), eq(payments.provider, providerName)))
        .for('update')
      if (!payment) throw new PaymentNotificationError(404, '交易不存在')
      if (payment.amount !== notice.amount) throw new PaymentNotificationError(400, '金额不一致')
      const now = this.ctx.clock.now()
      const [first] = await tx
        .insert(paymentNotifications)
        .values({
          provider: providerName,
          tradeNo: notice.tradeNo,
          event: notice.status,
          outcome: 'pending',
          payload: notice.payload,
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: paymentNotifications.id })
      if (!first) return this.paidAfterClosing(tx, payment, notice, now)
      const outcome = await this.apply(tx, payment, notice)
      if (outcome !== 'refunding') {
        await tx
          .update(payments)
          .set({ status: outcome, settledAt: now })
          .where(eq(payments.id, payment.id))
      }
      await tx
        .update(paymentNotifications)
        .set({ outcome })
        .where(eq(paymentNotifications.id, first.id))
      return outcome
    })
  }

  /**
   * A trade has one notification: the first final word. Money that arrives after the trade was settled
   * closed, cancelled or failed (an Alipay link opened after its order was cancelled: Alipay opens the
   * trade only then, so there was nothing to close) is still real money, and goes back through the
   * provider. Anything else repeated changes nothing.
   */
  private async paidAfterClosing(
    tx: Db,
    payment: PaymentRow,
    notice: PaymentNotice,
    now: Date,
  ): Promise<NotificationOutcome> {
    if (notice.status !== 'paid' || !['closed', 'cancelled', 'failed'].includes(payment.status)) {
      return 'duplicate'
    }
    await requestRefund(tx, now, payment, '交易关闭后到账')
    await tx
      .update(paymentNotifications)
      .set({ event: notice.status, outcome: 'refunding', payload: notice.payload, receivedAt: now })
      .where(
        and(
          eq(paymentNotifications.provider, payment.provider),
          eq(paymentNotifications.tradeNo, payment.tradeNo),
        ),
      )
    this.ctx.log.warn(
      { tradeNo: payment.tradeNo, orderId: payment.orderId, was: payment.status },
      'money for a trade already settled closed: refunded through the provider',
    )
    return 'refunding'
  }

  private async apply(
    tx: Db,
    payment: PaymentRow,
    notice: PaymentNotice,
  ): Promise<Exclude<NotificationOutcome, 'duplicate' | 'acknowledged'>> {
    if (notice.status !== 'paid') return notice.status
    const order = (await this.orders.lock(tx, payment.orderId))!
    if (order.status === OrderStatus.unpaid) {
      // The buyer paid at the provider before the deadline job ran: the money is real, honour it.
      await this.markPaid(tx, order, payment.payerId, payment.payMethod)
      return 'paid'
    }
    const reason = payRefusal(order, this.ctx.clock.now().getTime()) ?? '订单不可支付'
    await requestRefund(tx, this.ctx.clock.now(), payment, reason)
    this.ctx.log.warn(
      { tradeNo: payment.tradeNo, orderId: payment.orderId, reason },
      'payment for an order that is no longer payable: refunded through the provider',
    )
    return 'refunding'
  }

  /**
   * Asks each trade's provider about trades still pending here: older than TRADE_QUERY_AFTER_MS (a notification
   * lost, say with a process killed before it was sent) or of an order no longer payable. A trade the
   * provider says ended is settled exactly as its notification would have been; one still pending when
   * its order can no longer be paid is closed at the provider, so no money can arrive late.
   */
  async reconcile(now: Date, limit = 100): Promise<number> {
    const cutoff = new Date(now.getTime() - TRADE_QUERY_AFTER_MS)
    const due = await this.ctx.db
      .select({ payment: payments, order: orders })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(
        and(
          eq(payments.status, 'pending'),
          // trades of a provider no longer configured wait until it is again
          inArray(payments.provider, this.providers.names),
          or(lte(payments.createdAt, cutoff), ne(orders.status, OrderStatus.unpaid)),
          or(isNull(payments.checkedAt), lte(payments.checkedAt, cutoff)),
        ),
      )
      .orderBy(sql`coalesce(${payments.checkedAt}, ${payments.createdAt})`)
      .limit(limit)
    let settled = 0
    for (const { payment, order } of due) {
      try {
        if (await this.reconcileTrade(payment, order, now)) settled++
      } catch (error) {
        this.ctx.log.warn({ err: error, tradeNo: payment.tradeNo }, 'trade query failed')
      }
      await this.ctx.db.update(payments).set({ checkedAt: now }).where(eq(payments.id, payment.id))
    }
    return settled
  }

  private async reconcileTrade(payment: PaymentRow, order: OrderRow, now: Date) {
    const payable = order.status === OrderStatus.unpaid && now < order.payDeadline
    const provider = this.named(payment.provider)
    let state: TradeState
    try {
      state = await provider.queryTrade(payment.tradeNo)
      if (state.status === 'pending' && !payable) {
        state = await provider.closeTrade(payment.tradeNo)
      }
    } catch (error) {
      // A trade the provider never opened takes no money; once its order is past paying, it is over.
      if (!(error instanceof PaymentProviderRefusal) || payable) throw error
      state = { ...noTrade, tradeNo: payment.tradeNo, amount: payment.amount }
    }
    if (state.status === 'pending') return false
    await this.settle(provider.name, {
      tradeNo: payment.tradeNo,
      status: state.status,
      amount: state.amount,
      payload: {
        source: 'query',
        status: state.status,
        providerTradeId: state.providerTradeId,
        paidAt: state.paidAt?.toISOString() ?? null,
      },
    })
    return true
  }
}

const noTrade = { status: 'closed', providerTradeId: null, paidAt: null } as const
