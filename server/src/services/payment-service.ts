import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { OrderStatus, PayMethod, payMethodLabels } from '../../../src/domain/order-status'
import { ResultCode } from '../../../src/domain/result-codes'
import {
  PaymentNotificationError,
  type PaymentNotice,
  type PaymentProvider,
} from '../adapters/payment/payment-provider'
import type { CreatePaymentBody, CreatePaymentResult, SandboxAction } from '../contract/payment'
import type { Db } from '../db/client'
import { orders, paymentNotifications, payments } from '../db/schema'
import { BizError } from '../domain/biz-error'
import type { BeanService } from './bean-service'
import type { ServiceContext } from './context'
import { spendOrderCoupon } from './coupon-service'
import { enqueueFulfilment } from './fulfilment-service'
import { markSeckillPaid } from './seckill-units'
import { debitAccount } from './wallet-service'
import type { OrderRow, OrderService } from './order-service'

export type PaymentRow = typeof payments.$inferSelect
export type NotificationOutcome = 'paid' | 'refunded' | 'cancelled' | 'failed' | 'duplicate'

const refuse = (msg: string) => new BizError(ResultCode.SHOW_ERROR_TIPS, msg)

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
  if (!/^\/(?![/\\])[^\s\\]*$/.test(url)) throw refuse('返回地址须为本应用内的页面路径')
  return url
}

const newTradeNo = () =>
  `T${Date.now().toString(36).toUpperCase()}${randomBytes(16).toString('hex')}`

/**
 * Paying orders: with beans at once, or through the payment provider, whose signed notification marks
 * the order paid (once per trade) and queues its fulfilment in the same transaction.
 */
export class PaymentService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly provider: PaymentProvider,
    private readonly orders: OrderService,
    private readonly beans: BeanService,
  ) {}

  async createPayment(userId: number, body: CreatePaymentBody): Promise<CreatePaymentResult> {
    let order: OrderRow
    if (body.link) order = await this.orders.byLink(body.link)
    else if (body.orderNo) order = await this.orders.ownOrder(userId, body.orderNo)
    else throw refuse('缺少参数 orderNo')
    const now = this.ctx.clock.now()
    const refusal = payRefusal(order, now.getTime())
    if (refusal) throw refuse(refusal)
    if (order.kind === 'beanRecharge' && body.payMethod === PayMethod.beans) {
      throw refuse('云豆充值请使用微信支付或支付宝')
    }
    if (body.payMethod === PayMethod.accountBalance) {
      if (order.kind === 'balanceRecharge') throw refuse('账户余额充值请使用微信支付或支付宝')
      if (!(await this.orders.pricing.isCompany(this.ctx.db, userId))) {
        throw refuse('账户余额支付仅对企业用户开放')
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
        if (stillRefused) throw refuse(stillRefused)
        if (method === PayMethod.beans) {
          await this.beans.debit(tx, userId, locked.amount, {
            reason: 'order',
            orderId: locked.id,
            remark: `订单 ${locked.orderNo}`,
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
        paid: true,
      }
    }
    const start = await this.provider.createPayment({
      tradeNo,
      orderNo: order.orderNo,
      amount: order.amount,
      payMethod: body.payMethod,
      returnUrl,
    })
    await this.ctx.db.insert(payments).values({ ...record, provider: this.provider.name })
    return {
      tradeNo,
      orderNo: order.orderNo,
      payMethod: body.payMethod,
      checkoutUrl: start.checkoutUrl,
      paid: false,
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
   * A provider's notification, verified first (PaymentNotificationError otherwise). The trade is acted
   * upon once: a replay finds its earlier record and changes nothing. Money for an order that is no
   * longer payable (cancelled, timed out, paid by another trade) is recorded as refunded, not fulfilled.
   */
  async handleNotification(
    headers: Record<string, unknown>,
    rawBody: string,
  ): Promise<NotificationOutcome> {
    const notice = this.provider.verifyNotification(headers, rawBody)
    return this.ctx.db.transaction(async (tx) => {
      const [payment] = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.tradeNo, notice.tradeNo), eq(payments.provider, this.provider.name)))
        .for('update')
      if (!payment) throw new PaymentNotificationError(404, '交易不存在')
      if (payment.amount !== notice.amount) throw new PaymentNotificationError(400, '金额不一致')
      const now = this.ctx.clock.now()
      const [first] = await tx
        .insert(paymentNotifications)
        .values({
          provider: this.provider.name,
          tradeNo: notice.tradeNo,
          event: notice.status,
          outcome: 'pending',
          payload: notice.payload,
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: paymentNotifications.id })
      if (!first) return 'duplicate'
      const outcome = await this.apply(tx, payment, notice)
      await tx
        .update(payments)
        .set({ status: outcome, settledAt: now })
        .where(eq(payments.id, payment.id))
      await tx
        .update(paymentNotifications)
        .set({ outcome })
        .where(eq(paymentNotifications.id, first.id))
      if (outcome === 'refunded') {
        this.ctx.log.warn(
          { tradeNo: payment.tradeNo, orderId: payment.orderId },
          'payment for an order that is no longer payable: recorded as refunded',
        )
      }
      return outcome
    })
  }

  private async apply(
    tx: Db,
    payment: PaymentRow,
    notice: PaymentNotice,
  ): Promise<Exclude<NotificationOutcome, 'duplicate'>> {
    if (notice.status !== 'paid') return notice.status
    const order = await this.orders.lock(tx, payment.orderId)
    if (order && order.status === OrderStatus.unpaid) {
      // The buyer paid at the provider before the deadline job ran: the money is real, honour it.
      await this.markPaid(tx, order, payment.payerId, payment.payMethod)
      return 'paid'
    }
    return 'refunded'
  }

  /** What the sandbox checkout page shows for a trade. */
  async checkoutView(tradeNo: string) {
    const [row] = await this.ctx.db
      .select({ payment: payments, order: orders })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(eq(payments.tradeNo, tradeNo))
    if (!row) throw refuse('交易不存在')
    return {
      tradeNo,
      orderNo: row.order.orderNo,
      amount: row.payment.amount,
      payMethodText: payMethodLabels[row.payment.payMethod as 1 | 2] ?? '',
      status: row.payment.status,
      returnUrl: row.payment.returnUrl,
    }
  }

  /** The sandbox provider acting on the buyer's choice: the signed notification it will send. */
  async sandboxChoice(tradeNo: string, action: SandboxAction) {
    const view = await this.checkoutView(tradeNo)
    if (view.status !== 'pending') throw refuse('该笔交易已处理')
    const status: PaymentNotice['status'] =
      action === 'pay' ? 'paid' : action === 'cancel' ? 'cancelled' : 'failed'
    return { ...view, status }
  }
}
