import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import {
  PaymentNotificationError,
  PaymentProviderRefusal,
  type RefundState,
} from '../../adapters/payment/payment-provider'
import type { PaymentProviders } from '../../adapters/payment/payment-providers'
import type { Db } from '../../db/client'
import { payments, refunds } from '../../db/schema'
import { enqueueJob } from '../../job-queue'
import type { ServiceContext } from '../context'

export const SEND_REFUND_JOB = 'send-refund'

/** Payments settled in our own ledgers: their refunds are credits there, not provider refunds. */
export const LEDGER_PAYMENT_PROVIDERS: readonly string[] = ['beans', 'accountBalance']

/** A refund not final this long after it was last sent or asked about is sent or asked about again. */
export const REFUND_RECHECK_MS = 60_000

/**
 * A refund still not final this long after it was requested is logged once as an error for an
 * operator (it is still sent or asked about every REFUND_RECHECK_MS). Longer than the slowest
 * ordinary refund: WeChat Pay's to a bank card take 1–3 working days, more over a holiday.
 */
export const REFUND_STUCK_MS = 7 * 24 * 3600_000

/** True once per refund: the first look at it after it became REFUND_STUCK_MS old. */
export function refundJustStuck(
  refund: { createdAt: Date; checkedAt: Date | null },
  now: Date,
): boolean {
  const stuckAt = refund.createdAt.getTime() + REFUND_STUCK_MS
  return (
    now.getTime() >= stuckAt && (refund.checkedAt === null || refund.checkedAt.getTime() < stuckAt)
  )
}

type PaymentRow = typeof payments.$inferSelect
type RefundRow = typeof refunds.$inferSelect
export type RefundNotificationOutcome = 'succeeded' | 'failed' | 'duplicate'

/** One refund per payment, named after its trade: a retry can never become a second refund. */
export const refundNoFor = (payment: Pick<PaymentRow, 'tradeNo'>) => `R${payment.tradeNo}`

/**
 * In the caller's transaction: the payment's money goes back through its provider. The refund is
 * recorded (once per payment, whoever asks again) and its sending queued, so it exists exactly when
 * the decision to refund was committed; the payment reads `refunding` until the provider confirms.
 */
export async function requestRefund(tx: Db, now: Date, payment: PaymentRow, reason: string) {
  const [created] = await tx
    .insert(refunds)
    .values({
      refundNo: refundNoFor(payment),
      orderId: payment.orderId,
      paymentId: payment.id,
      provider: payment.provider,
      amount: payment.amount,
      reason: reason.slice(0, 200),
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: refunds.id })
  await tx
    .update(payments)
    .set({ status: 'refunding', settledAt: now })
    .where(eq(payments.id, payment.id))
  if (created) {
    await enqueueJob(
      tx,
      now,
      SEND_REFUND_JOB,
      { refundId: created.id },
      { uniqueKey: `send-refund:${created.id}` },
    )
  }
}

/**
 * Refunds through the provider that took the payment (refunds.provider, copied from the payment): sent by a job, finished by the provider's signed notification
 * or, when that never comes, by asking (reconcile). A refund is requested → succeeded | failed; a
 * failed one is logged as an error for an operator, since the money is still with the provider.
 */
export class RefundService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly providers: PaymentProviders,
  ) {}

  /**
   * Sends a refund the provider has not accepted yet, or asks about one it has; when the provider
   * answers that it has no such refund (it never took it: Alipay's empty refund query, WeChat Pay's
   * RESOURCE_NOT_EXISTS), it is sent again. Always the same refundNo, so the provider refunds it at
   * most once. A passing failure is recorded and thrown (the job retries); a refusal is final.
   */
  async advance(refundId: number): Promise<RefundRow['status'] | null> {
    const [row] = await this.ctx.db
      .select({ refund: refunds, tradeNo: payments.tradeNo })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(refunds.id, refundId))
    if (!row || row.refund.status !== 'requested') return row?.refund.status ?? null
    const { refund, tradeNo } = row
    const provider = this.providers.named(refund.provider)
    // passing: the job retries, and reconcile asks again once the provider is configured again
    if (!provider) throw new Error(`refund ${refund.refundNo} is for provider ${refund.provider}`)
    const now = this.ctx.clock.now()
    if (refundJustStuck(refund, now)) {
      this.ctx.log.error(
        { refundNo: refund.refundNo, orderId: refund.orderId, amount: refund.amount, tradeNo },
        'refund still not final a week after it was requested: an operator must look at it at the provider',
      )
    }
    let state: RefundState | null
    try {
      state = refund.sentAt ? await provider.queryRefund(refund.refundNo, tradeNo) : null
      state ??= await provider.refund({
        tradeNo,
        refundNo: refund.refundNo,
        amount: refund.amount,
        reason: refund.reason,
      })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (error instanceof PaymentProviderRefusal) {
        await this.ctx.db.transaction((tx) => this.settle(tx, refund, 'failed', message))
        return 'failed'
      }
      await this.ctx.db
        .update(refunds)
        .set({
          attempts: sql`${refunds.attempts} + 1`,
          lastError: message.slice(0, 2000),
          checkedAt: now,
        })
        .where(eq(refunds.id, refund.id))
      throw error
    }
    await this.ctx.db
      .update(refunds)
      .set({
        attempts: sql`${refunds.attempts} + 1`,
        sentAt: refund.sentAt ?? now,
        checkedAt: now,
        lastError: null,
      })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'requested')))
    const final = state.status
    if (final === 'processing') return 'requested'
    await this.ctx.db.transaction((tx) => this.settle(tx, refund, final, null))
    return final
  }

  /**
   * The named provider's signed word that a refund ended; a replay changes nothing, and only that
   * provider's refunds are found.
   */
  async handleNotification(
    providerName: string,
    headers: Record<string, unknown>,
    rawBody: string,
  ): Promise<RefundNotificationOutcome> {
    const provider = this.providers.running(providerName)
    const notice = provider.verifyRefundNotification(headers, rawBody)
    return this.ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ refund: refunds, tradeNo: payments.tradeNo })
        .from(refunds)
        .innerJoin(payments, eq(payments.id, refunds.paymentId))
        .where(and(eq(refunds.refundNo, notice.refundNo), eq(refunds.provider, provider.name)))
        .for('update', { of: refunds })
      if (!row) throw new PaymentNotificationError(404, '退款不存在')
      if (row.tradeNo !== notice.tradeNo || row.refund.amount !== notice.amount) {
        throw new PaymentNotificationError(400, '退款内容不一致')
      }
      if (row.refund.status !== 'requested') return 'duplicate'
      await this.settle(tx, row.refund, notice.status, null)
      return notice.status
    })
  }

  private async settle(
    tx: Db,
    refund: RefundRow,
    status: 'succeeded' | 'failed',
    error: string | null,
  ) {
    const now = this.ctx.clock.now()
    const [settled] = await tx
      .update(refunds)
      .set({ status, settledAt: now, lastError: error })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'requested')))
      .returning({ id: refunds.id })
    if (!settled) return
    if (status === 'succeeded') {
      await tx
        .update(payments)
        .set({ status: 'refunded', settledAt: now })
        .where(eq(payments.id, refund.paymentId))
    } else {
      this.ctx.log.error(
        { refundNo: refund.refundNo, orderId: refund.orderId, amount: refund.amount, error },
        'refund failed at the provider: the money is still there, an operator must return it',
      )
    }
  }

  /** Refunds not final and not looked at for REFUND_RECHECK_MS: sent again or asked about. */
  async reconcile(now: Date, limit = 100): Promise<number> {
    const cutoff = new Date(now.getTime() - REFUND_RECHECK_MS)
    const due = await this.ctx.db
      .select({ id: refunds.id })
      .from(refunds)
      .where(
        and(
          eq(refunds.status, 'requested'),
          inArray(refunds.provider, this.providers.names),
          or(isNull(refunds.checkedAt), lte(refunds.checkedAt, cutoff)),
          lte(refunds.createdAt, cutoff),
        ),
      )
      .orderBy(sql`coalesce(${refunds.checkedAt}, ${refunds.createdAt})`)
      .limit(limit)
    let finished = 0
    for (const { id } of due) {
      try {
        if ((await this.advance(id)) !== 'requested') finished++
      } catch (error) {
        this.ctx.log.warn({ err: error, refundId: id }, 'refund still not final; asked again later')
      }
    }
    return finished
  }
}
