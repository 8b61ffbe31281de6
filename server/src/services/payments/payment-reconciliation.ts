import { and, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm'
import { OrderStatus } from '#domain/order-status'
import {
  PaymentProviderRefusal,
  type PaymentProvider,
  type TradeState,
} from '../../adapters/payment/payment-provider'
import type { PaymentProviders } from '../../adapters/payment/payment-providers'
import { orders, payments } from '../../db/schema'
import type { ServiceContext } from '../context'
import type { OrderRow } from '../orders/order-insert'
import type { PaymentRow, PaymentSettlementService } from './payment-settlement'

/** A pending trade is asked about once this old (its notification is late), then again each time. */
export const TRADE_QUERY_AFTER_MS = 60_000

/**
 * A trade the provider says it has no record of is over only this long after its own expiry at the
 * provider (time_expire, the order's pay deadline). Before that "no record" proves nothing: WeChat Pay
 * may not find a trade it has just made (its ORDER_NOT_EXIST right after ordering or paying), answers a
 * close of an out_trade_no it does not find with 204 all the same, and Alipay opens a WAP trade only
 * when the buyer opens the link, which works until time_expire. The minutes past expiry cover clocks
 * and a trade paid just before it showing late.
 */
export const NO_TRADE_AFTER_EXPIRY_MS = 5 * 60_000

/**
 * Reconciliation: what the providers know of our trades and we may not. The reconcile-payments job asks
 * each trade's provider about trades pending here too long, settles the ones it says ended exactly as
 * their notifications would have been (payment-settlement.ts), and closes at the provider the ones whose
 * order can no longer be paid, so no money can arrive late. A trade the provider has no record of stays
 * pending, and is asked about again, until NO_TRADE_AFTER_EXPIRY_MS past its expiry: money that comes
 * for it meanwhile is found and refunded, even with its notification lost. Refunds are reconciled by
 * refund-service.ts.
 */
export class PaymentReconciliationService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly providers: PaymentProviders,
    private readonly settlement: PaymentSettlementService,
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
    const provider = this.providers.running(payment.provider)
    let state = await this.ask(provider, payment.tradeNo, payable)
    if (!state) {
      // No record at the provider: over only once the trade could no longer take money there.
      if (now.getTime() < order.payDeadline.getTime() + NO_TRADE_AFTER_EXPIRY_MS) return false
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

  /**
   * The trade as its provider holds it, closed there first when its order is past paying; null when the
   * provider has no record of it (PaymentProviderRefusal from the query and from the close). A trade it
   * has not recorded yet is closed all the same where the provider honours that.
   */
  private async ask(
    provider: PaymentProvider,
    tradeNo: string,
    payable: boolean,
  ): Promise<TradeState | null> {
    const noRecord = (error: unknown) => {
      if (error instanceof PaymentProviderRefusal) return null
      throw error
    }
    const state = await provider.queryTrade(tradeNo).catch(noRecord)
    if (payable || (state && state.status !== 'pending')) return state
    return provider.closeTrade(tradeNo).catch(noRecord)
  }
}

const noTrade = { status: 'closed', providerTradeId: null, paidAt: null } as const
