/**
 * A stand-in for a real payment provider that keeps its own books (sandbox_pay_trades and
 * sandbox_pay_refunds) the way the provider would on its side: its checkout page is served by our own
 * server, the buyer's choice is written there first and then reported by a signed notification
 * (protocol.ts) sent `delayMs` later (outbox.ts); refunds are accepted at once and reported when they
 * finish. A notification lost with the process (kill -9 before the timer fires) is not resent; what the
 * books say is still there for queryTrade / queryRefund, as with a real provider.
 */
import { randomBytes } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { PayMethod, payMethodLabels } from '#domain/order-status'
import type { Db } from '../../../db/client'
import { sandboxPayRefunds, sandboxPayTrades } from '../../../db/schema'
import { tip } from '../../../domain/biz-error'
import type { Clock } from '../../../clock'
import {
  notifyPath,
  PaymentProviderRefusal,
  type NotifyReply,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
  type RefundNotice,
  type RefundRequest,
  type RefundState,
  type TradeState,
} from '../payment-provider'
import { SandboxOutbox } from './outbox'
import {
  SANDBOX_CHECKOUT_PATH,
  signedNotice,
  verifyRefundNotice,
  verifyTradeNotice,
} from './protocol'

export interface SandboxPaySettings {
  /** Key of the notifications' HMAC signature. */
  secret: string
  /** How long after the buyer's choice (or a refund request) the signed notification is sent. */
  delayMs: number
  /** Default 'sandbox'; two sandboxes at once (tests) need two names. */
  name?: string
  /** The pay methods it collects; default both. It knows only its own methods' trades. */
  methods?: readonly number[]
}

type TradeRow = typeof sandboxPayTrades.$inferSelect
type RefundRow = typeof sandboxPayRefunds.$inferSelect

const trade = (row: TradeRow): TradeState => ({
  tradeNo: row.tradeNo,
  status: row.status as TradeState['status'],
  amount: row.amount,
  providerTradeId: row.status === 'paid' ? row.providerTradeId : null,
  paidAt: row.paidAt,
})

const refundState = (row: RefundRow): RefundState => ({
  refundNo: row.refundNo,
  tradeNo: row.tradeNo,
  status: row.status as RefundState['status'],
  amount: row.amount,
})

export class SandboxPaymentProvider implements PaymentProvider {
  readonly name: string
  readonly isSandbox = true
  readonly methods: readonly number[]
  readonly notifyReply: NotifyReply | null = null
  private readonly secret: string
  private readonly delayMs: number
  /** The signed notifications on their way to our callbacks (the routes plugin connects it). */
  readonly outbox: SandboxOutbox

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    settings: SandboxPaySettings,
  ) {
    this.secret = settings.secret
    this.delayMs = settings.delayMs
    this.name = settings.name ?? 'sandbox'
    this.methods = settings.methods ?? [PayMethod.alipay, PayMethod.wechatPay]
    this.outbox = new SandboxOutbox(settings.delayMs, (fields) => this.signed(fields))
  }

  /** Its checkout page (and the mini-program's action sheet) pays as anyone: no openid, no code. */
  needsPayerOpenId(): boolean {
    return false
  }

  async createPayment(request: PaymentRequest): Promise<PaymentStart> {
    if (!this.methods.includes(request.payMethod)) {
      throw new PaymentProviderRefusal('不支持该支付方式')
    }
    await this.db
      .insert(sandboxPayTrades)
      .values({
        tradeNo: request.tradeNo,
        providerTradeId: `SBX${randomBytes(12).toString('hex')}`,
        orderNo: request.orderNo,
        amount: request.amount,
        payMethod: request.payMethod,
        returnUrl: request.returnUrl,
        status: 'pending',
        expiresAt: request.expiresAt,
        createdAt: this.clock.now(),
      })
      .onConflictDoNothing()
    return {
      checkoutUrl: `${SANDBOX_CHECKOUT_PATH}?tradeNo=${encodeURIComponent(request.tradeNo)}`,
    }
  }

  /** One of this sandbox's trades (its pay methods: two sandboxes share the books). */
  private own(tradeNo: string | typeof sandboxPayRefunds.tradeNo) {
    return and(
      eq(sandboxPayTrades.tradeNo, tradeNo),
      inArray(sandboxPayTrades.payMethod, [...this.methods]),
    )
  }

  /** The trade row, locked in `tx`; a pending trade past its pay window is closed first. */
  private async lockTrade(tx: Db, tradeNo: string): Promise<TradeRow | null> {
    const [row] = await tx.select().from(sandboxPayTrades).where(this.own(tradeNo)).for('update')
    if (!row) return null
    if (row.status === 'pending' && this.clock.now() >= row.expiresAt) {
      return this.setTradeStatus(tx, row, 'closed')
    }
    return row
  }

  private async setTradeStatus(tx: Db, row: TradeRow, status: TradeRow['status']) {
    const now = this.clock.now()
    const [updated] = await tx
      .update(sandboxPayTrades)
      .set(status === 'paid' ? { status, paidAt: now } : { status, closedAt: now })
      .where(eq(sandboxPayTrades.tradeNo, row.tradeNo))
      .returning()
    return updated
  }

  /** What the checkout page shows; BizError 交易不存在 for a trade the sandbox never issued. */
  async checkoutView(tradeNo: string) {
    const row = await this.db.transaction((tx) => this.lockTrade(tx, tradeNo))
    if (!row) throw tip('交易不存在')
    return {
      tradeNo,
      orderNo: row.orderNo,
      amount: row.amount,
      payMethodText: payMethodLabels[row.payMethod as 1 | 2] ?? '',
      status: row.status,
      returnUrl: row.returnUrl,
    }
  }

  /**
   * The buyer's choice on the checkout page, written to the sandbox's books before anything else; the
   * signed notification follows `delayMs` later.
   */
  async confirm(tradeNo: string, action: 'pay' | 'cancel' | 'fail') {
    const status = action === 'pay' ? 'paid' : action === 'cancel' ? 'cancelled' : 'failed'
    const row = await this.db.transaction(async (tx) => {
      const found = await this.lockTrade(tx, tradeNo)
      if (!found) throw tip('交易不存在')
      if (found.status === 'closed') throw tip('该笔交易已关闭，请返回应用重新支付')
      if (found.status !== 'pending') throw tip('该笔交易已处理')
      return this.setTradeStatus(tx, found, status)
    })
    this.outbox.later(() =>
      this.outbox.send(notifyPath(this.name), {
        kind: 'trade',
        tradeNo,
        status,
        amount: row.amount,
      }),
    )
    return { status, amount: row.amount, returnUrl: row.returnUrl }
  }

  async queryTrade(tradeNo: string): Promise<TradeState> {
    const row = await this.db.transaction((tx) => this.lockTrade(tx, tradeNo))
    if (!row) throw new PaymentProviderRefusal('交易不存在')
    return trade(row)
  }

  async closeTrade(tradeNo: string): Promise<TradeState> {
    const row = await this.db.transaction(async (tx) => {
      const found = await this.lockTrade(tx, tradeNo)
      if (!found || found.status !== 'pending') return found
      return this.setTradeStatus(tx, found, 'closed')
    })
    if (!row) throw new PaymentProviderRefusal('交易不存在')
    return trade(row)
  }

  async refund(request: RefundRequest): Promise<RefundState> {
    const { created, row } = await this.db.transaction(async (tx) => {
      const paid = await this.lockTrade(tx, request.tradeNo)
      if (!paid) throw new PaymentProviderRefusal('交易不存在')
      const [existing] = await tx
        .select()
        .from(sandboxPayRefunds)
        .where(eq(sandboxPayRefunds.refundNo, request.refundNo))
      if (existing) {
        if (existing.tradeNo !== request.tradeNo || existing.amount !== request.amount) {
          throw new PaymentProviderRefusal('退款单号已用于另一笔退款')
        }
        return { created: false, row: existing }
      }
      if (paid.status !== 'paid') throw new PaymentProviderRefusal('交易未支付，无法退款')
      if (!Number.isInteger(request.amount) || request.amount <= 0) {
        throw new PaymentProviderRefusal('退款金额不正确')
      }
      if (paid.refunded + request.amount > paid.amount) {
        throw new PaymentProviderRefusal('退款金额超过可退金额')
      }
      await tx
        .update(sandboxPayTrades)
        .set({ refunded: sql`${sandboxPayTrades.refunded} + ${request.amount}` })
        .where(eq(sandboxPayTrades.tradeNo, request.tradeNo))
      const [inserted] = await tx
        .insert(sandboxPayRefunds)
        .values({
          refundNo: request.refundNo,
          tradeNo: request.tradeNo,
          amount: request.amount,
          reason: request.reason.slice(0, 200),
          status: 'processing',
          createdAt: this.clock.now(),
        })
        .returning()
      return { created: true, row: inserted }
    })
    if (created) {
      this.outbox.later(async () => {
        const done = await this.finishRefund(row.refundNo)
        await this.outbox.send(notifyPath(this.name, 'refund'), {
          kind: 'refund',
          refundNo: done.refundNo,
          tradeNo: done.tradeNo,
          status: done.status,
          amount: done.amount,
        })
      })
    }
    return refundState(row)
  }

  /**
   * A refund still processing `delayMs` after it was asked for has finished (survives restarts). null
   * when this sandbox has no such refund of that trade (as WeChat Pay's RESOURCE_NOT_EXISTS).
   */
  async queryRefund(refundNo: string, tradeNo: string): Promise<RefundState | null> {
    const [found] = await this.db
      .select({ refund: sandboxPayRefunds })
      .from(sandboxPayRefunds)
      .innerJoin(sandboxPayTrades, this.own(sandboxPayRefunds.tradeNo))
      .where(and(eq(sandboxPayRefunds.refundNo, refundNo), eq(sandboxPayRefunds.tradeNo, tradeNo)))
    if (!found) return null
    const row = found.refund
    const due = row.createdAt.getTime() + this.delayMs <= this.clock.now().getTime()
    if (row.status === 'processing' && due) return refundState(await this.finishRefund(refundNo))
    return refundState(row)
  }

  private async finishRefund(refundNo: string): Promise<RefundRow> {
    await this.db
      .update(sandboxPayRefunds)
      .set({ status: 'succeeded', succeededAt: this.clock.now() })
      .where(
        sql`${sandboxPayRefunds.refundNo} = ${refundNo} and ${sandboxPayRefunds.status} = 'processing'`,
      )
    const [row] = await this.db
      .select()
      .from(sandboxPayRefunds)
      .where(eq(sandboxPayRefunds.refundNo, refundNo))
    return row
  }

  /** What the sandbox holds for a trade: paid minus refunded, fen (0 unless paid). */
  async heldFor(tradeNo: string): Promise<number> {
    const [row] = await this.db
      .select()
      .from(sandboxPayTrades)
      .where(eq(sandboxPayTrades.tradeNo, tradeNo))
    return row?.status === 'paid' ? row.amount - row.refunded : 0
  }

  /** The fields as a notification body, stamped now and signed with our secret. */
  private signed(fields: Record<string, unknown>) {
    return signedNotice(this.secret, this.clock.now(), fields)
  }

  /** A signed trade notification as the sandbox sends it (tests forge and replay with it). */
  notification(tradeNo: string, status: PaymentNotice['status'], amount: number) {
    return this.signed({ kind: 'trade', tradeNo, status, amount })
  }

  /** A signed refund notification as the sandbox sends it. */
  refundNotification(refundNo: string, tradeNo: string, status: string, amount: number) {
    return this.signed({ kind: 'refund', refundNo, tradeNo, status, amount })
  }

  verifyNotification(headers: Record<string, unknown>, rawBody: string): PaymentNotice {
    return verifyTradeNotice(this.secret, headers, rawBody)
  }

  verifyRefundNotification(headers: Record<string, unknown>, rawBody: string): RefundNotice {
    return verifyRefundNotice(this.secret, headers, rawBody)
  }
}
