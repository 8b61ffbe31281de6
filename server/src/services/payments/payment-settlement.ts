import { and, eq } from 'drizzle-orm'
import { OrderStatus } from '#domain/order-status'
import {
  PaymentNotificationError,
  type PaymentNotice,
} from '../../adapters/payment/payment-provider'
import type { PaymentProviders } from '../../adapters/payment/payment-providers'
import type { Db } from '../../db/client'
import { orders, paymentNotifications, payments } from '../../db/schema'
import type { ServiceContext } from '../context'
import { spendOrderCoupon } from '../coupons/coupon-service'
import { enqueueFulfilment } from '../orders/fulfilment-service'
import type { OrderRow } from '../orders/order-insert'
import type { OrderReads } from '../orders/order-reads'
import { requestRefund } from './refund-service'
import { markSeckillPaid } from '../orders/seckill-units'

/*
 * Settlement: what a provider's word on a trade does to its order, whether the word is a verified
 * notification (the callback routes) or a query's answer (payment-reconciliation.ts). Each trade is
 * acted upon once: paid marks an unpaid order paid and queues its fulfilment (markPaid, which paying
 * with beans or the balance uses too); closed, cancelled and failed end the trade. Money for an order
 * that can no longer take it (payRefusal), or that arrives after the trade was settled closed
 * (paidAfterClosing), goes back through the provider's refund, never to fulfilment.
 */

export type PaymentRow = typeof payments.$inferSelect
/** `acknowledged`: a genuine notification that asks nothing of us (nothing written). */
export type NotificationOutcome =
  PaymentNotice['status'] | 'refunding' | 'duplicate' | 'acknowledged'

/** Why an order cannot be paid now, or null when it can. */
export function payRefusal(order: OrderRow, now: number): string | null {
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

/** Unpaid → paid and the fulfilment job, in the caller's transaction; false when no longer unpaid. */
export async function markPaid(
  tx: Db,
  now: Date,
  order: OrderRow,
  payerId: number,
  payMethod: number,
): Promise<boolean> {
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

/** Settles the providers' word on their trades (see the top of this file). */
export class PaymentSettlementService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly providers: PaymentProviders,
    private readonly orders: OrderReads,
  ) {}

  /**
   * A notification to the named provider's callback, verified by that provider first
   * (PaymentNotificationError otherwise, 404 for a provider not running here), then settled.
   */
  async handleNotification(
    providerName: string,
    headers: Record<string, unknown>,
    rawBody: string,
  ): Promise<NotificationOutcome> {
    const provider = this.providers.running(providerName)
    const notice = provider.verifyNotification(headers, rawBody)
    return notice ? this.settle(provider.name, notice) : 'acknowledged'
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
      await markPaid(tx, this.ctx.clock.now(), order, payment.payerId, payment.payMethod)
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
}
