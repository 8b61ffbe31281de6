import { and, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm'
import { OrderStatus } from '#domain/order-status'
import { PaymentProviderRefusal, type TradeState } from '../adapters/payment/payment-provider'
import type { PaymentProviders } from '../adapters/payment/payment-providers'
import { orders, payments } from '../db/schema'
import type { ServiceContext } from './context'
import type { OrderRow } from './order-insert'
import type { PaymentRow, PaymentSettlement } from './payment-settlement'

/** A pending trade is asked about once this old (its notification is late), then again each time. */
export const TRADE_QUERY_AFTER_MS = 60_000

/**
 * Reconciliation: what the providers know of our trades and we may not. The reconcile-payments job asks
 * each trade's provider about trades pending here too long, settles the ones it says ended exactly as
 * their notifications would have been (payment-settlement.ts), and closes at the provider the ones whose
 * order can no longer be paid, so no money can arrive late. Refunds are reconciled by refund-service.ts.
 */
export class PaymentReconciliation {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly providers: PaymentProviders,
    private readonly settlement: PaymentSettlement,
  ) {}

  /**
   * Asks about up to `limit` trades still pending here: older than TRADE_QUERY_AFTER_MS (a notification
   * lost, say with a process killed before it was sent) or of an order no longer payable. Answers how
   * many were settled.
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
    const provider = this.settlement.named(payment.provider)
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
    await this.settlement.settle(provider.name, {
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
