import { and, eq } from 'drizzle-orm'
import { orderKindLabels, OrderStatus, PayMethod } from '#domain/order-status'
import type { Db } from '../../db/client'
import { orders, payments } from '../../db/schema'
import type { BeanService } from '../wallet/bean-service'
import { MessageKind, type MessageService } from '../engagement/message-service'
import type { OrderRow } from './order-insert'
import { LEDGER_PAYMENT_PROVIDERS, requestRefund } from '../payments/refund-service'
import { creditAccount } from '../wallet/wallet-service'

/**
 * A paid order ends 已退款 and its money goes back the way it came, in the caller's transaction (which
 * holds the order row): each paid provider payment through its provider's refund (requestRefund: once
 * per payment), beans and the account balance credited to their ledgers as 'refund'. The payer is told.
 * Used when delivery is refused (fulfilment-service.ts) and by a finance operator (admin-orders.ts); what
 * the order delivered is the caller's to take back first.
 */
export async function refundPaidOrder(
  tx: Db,
  deps: { now: Date; beans: BeanService; messages: MessageService },
  order: OrderRow,
  reason: string,
  message: string,
): Promise<void> {
  const { now } = deps
  const payer = order.buyerId ?? order.userId
  await tx
    .update(orders)
    .set({
      status: OrderStatus.refunded,
      closedAt: now,
      detail: { ...order.detail, refundReason: reason },
    })
    .where(eq(orders.id, order.id))
  const paid = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.status, 'paid')))
  for (const payment of paid) {
    if (!LEDGER_PAYMENT_PROVIDERS.includes(payment.provider)) {
      await requestRefund(tx, now, payment, reason)
      continue
    }
    await tx
      .update(payments)
      .set({ status: 'refunded', settledAt: now })
      .where(eq(payments.id, payment.id))
  }
  if (order.payMethod === PayMethod.accountBalance) {
    await creditAccount(tx, now, payer, order.amount, { reason: 'refund', orderId: order.id })
  }
  if (order.payMethod === PayMethod.beans) {
    await deps.beans.credit(tx, payer, order.amount, {
      reason: 'refund',
      orderId: order.id,
      remark: `${orderKindLabels[order.kind]}退款`,
    })
  }
  await deps.messages.sendMessage(payer, MessageKind.SYSTEM, '订单已退款', message, tx)
}
