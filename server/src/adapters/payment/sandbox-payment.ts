import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { payMethodLabels } from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { sandboxPayRefunds, sandboxPayTrades } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import type { Clock } from '../../clock'
import {
  PaymentProviderRefusal,
  PaymentSignatureError,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
  type RefundNotice,
  type RefundRequest,
  type RefundState,
  type TradeState,
} from './payment-provider'

/** Default secret for development and tests; production refuses it (config.ts). */
export const SANDBOX_PAY_DEV_SECRET = 'sandbox-pay-dev-secret'
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature'
export const SANDBOX_CHECKOUT_PATH = '/vmcloud/api/sandbox/pay/checkout'
export const SANDBOX_NOTIFY_PATH = '/vmcloud/api/pay/notify/sandbox'
export const SANDBOX_REFUND_NOTIFY_PATH = '/vmcloud/api/pay/notify/sandbox/refund'

const TRADE_STATUSES = ['paid', 'cancelled', 'failed'] as const
const REFUND_STATUSES = ['succeeded', 'failed'] as const

export interface SandboxPaySettings {
  secret: string
  /** How long after the buyer's choice (or a refund request) the signed notification is sent. */
  delayMs: number
}

/** Sends a signed notification to our callback (the routes plugin does it with app.inject); the HTTP status. */
export type SandboxDeliver = (path: string, body: string, signature: string) => Promise<number>

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

const refuse = (msg: string) => new BizError(ResultCode.SHOW_ERROR_TIPS, msg)

/**
 * A stand-in for a real payment provider that keeps its own books (sandbox_pay_trades and
 * sandbox_pay_refunds) the way the provider would on its side: its checkout page is served by our own
 * server, the buyer's choice is written there first and then reported by an HMAC-SHA256-signed
 * notification sent `delayMs` later, refunds are accepted at once and reported when they finish.
 * A notification lost with the process (kill -9 before the timer fires) is not resent; what the books
 * say is still there for queryTrade / queryRefund, as with a real provider.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox'
  readonly isSandbox = true
  readonly delayMs: number
  private readonly secret: string
  private deliver: SandboxDeliver | null = null
  /** Notifications not yet sent, each with its send; the promise settles when it is sent or dropped. */
  private readonly pending = new Map<NodeJS.Timeout, { send: () => Promise<void> }>()
  private readonly inFlight = new Set<Promise<void>>()

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    settings: Partial<SandboxPaySettings> = {},
  ) {
    this.secret = settings.secret ?? SANDBOX_PAY_DEV_SECRET
    this.delayMs = settings.delayMs ?? 300
  }

  /** Where notifications go; until connected (or after close) none are sent. */
  connect(deliver: SandboxDeliver | null) {
    this.deliver = deliver
  }

  async createPayment(request: PaymentRequest): Promise<PaymentStart> {
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

  /** The trade row, locked in `tx`; a pending trade past its pay window is closed first. */
  private async lockTrade(tx: Db, tradeNo: string): Promise<TradeRow | null> {
    const [row] = await tx
      .select()
      .from(sandboxPayTrades)
      .where(eq(sandboxPayTrades.tradeNo, tradeNo))
      .for('update')
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
    if (!row) throw refuse('交易不存在')
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
      if (!found) throw refuse('交易不存在')
      if (found.status === 'closed') throw refuse('该笔交易已关闭，请返回应用重新支付')
      if (found.status !== 'pending') throw refuse('该笔交易已处理')
      return this.setTradeStatus(tx, found, status)
    })
    this.schedule(() =>
      this.send(SANDBOX_NOTIFY_PATH, { kind: 'trade', tradeNo, status, amount: row.amount }),
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
      this.schedule(async () => {
        const done = await this.finishRefund(row.refundNo)
        await this.send(SANDBOX_REFUND_NOTIFY_PATH, {
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

  /** A refund still processing `delayMs` after it was asked for has finished (survives restarts). */
  async queryRefund(refundNo: string): Promise<RefundState> {
    const [row] = await this.db
      .select()
      .from(sandboxPayRefunds)
      .where(eq(sandboxPayRefunds.refundNo, refundNo))
    if (!row) throw new PaymentProviderRefusal('退款不存在')
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

  sign(rawBody: string): string {
    return createHmac('sha256', this.secret).update(rawBody).digest('hex')
  }

  private signed(fields: Record<string, unknown>) {
    const body = JSON.stringify({
      ...fields,
      ts: this.clock.now().getTime(),
      nonce: randomBytes(8).toString('hex'),
    })
    return { body, signature: this.sign(body) }
  }

  /** A signed trade notification as the sandbox sends it (tests forge and replay with it). */
  notification(tradeNo: string, status: PaymentNotice['status'], amount: number) {
    return this.signed({ kind: 'trade', tradeNo, status, amount })
  }

  /** A signed refund notification as the sandbox sends it. */
  refundNotification(refundNo: string, tradeNo: string, status: string, amount: number) {
    return this.signed({ kind: 'refund', refundNo, tradeNo, status, amount })
  }

  private async send(path: string, fields: Record<string, unknown>) {
    if (!this.deliver) return
    const { body, signature } = this.signed(fields)
    const status = await this.deliver(path, body, signature)
    if (status !== 200) throw new Error(`sandbox notification to ${path} answered ${status}`)
  }

  /** The body, verified: signed with our secret, JSON, of the given kind. */
  private verified(headers: Record<string, unknown>, rawBody: string, kind: string) {
    const given = headers[SANDBOX_SIGNATURE_HEADER]
    if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) {
      throw new PaymentSignatureError('缺少签名或签名格式不正确')
    }
    const expected = Buffer.from(this.sign(rawBody), 'hex')
    if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) throw new PaymentSignatureError()
    let payload: Record<string, unknown>
    try {
      payload = JSON.parse(rawBody) as Record<string, unknown>
    } catch {
      throw new PaymentSignatureError('通知内容不是JSON')
    }
    if (payload?.kind !== kind) throw new PaymentSignatureError('通知类型不符')
    return payload
  }

  verifyNotification(headers: Record<string, unknown>, rawBody: string): PaymentNotice {
    const payload = this.verified(headers, rawBody, 'trade')
    const { tradeNo, status, amount } = payload
    if (
      typeof tradeNo !== 'string' ||
      !TRADE_STATUSES.includes(status as (typeof TRADE_STATUSES)[number]) ||
      !Number.isInteger(amount)
    ) {
      throw new PaymentSignatureError('通知字段不完整')
    }
    return { tradeNo, status: status as PaymentNotice['status'], amount: amount as number, payload }
  }

  verifyRefundNotification(headers: Record<string, unknown>, rawBody: string): RefundNotice {
    const payload = this.verified(headers, rawBody, 'refund')
    const { refundNo, tradeNo, status, amount } = payload
    if (
      typeof refundNo !== 'string' ||
      typeof tradeNo !== 'string' ||
      !REFUND_STATUSES.includes(status as (typeof REFUND_STATUSES)[number]) ||
      !Number.isInteger(amount)
    ) {
      throw new PaymentSignatureError('通知字段不完整')
    }
    return {
      refundNo,
      tradeNo,
      status: status as RefundNotice['status'],
      amount: amount as number,
      payload,
    }
  }

  /** Runs `send` after the delay without making the caller wait (the buyer's browser moves on). */
  private schedule(send: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer)
      this.run(send)
    }, this.delayMs)
    this.pending.set(timer, { send })
  }

  private run(send: () => Promise<void>) {
    const sending = send().catch((error: unknown) => {
      // Lost like a real provider's failed delivery; reconciliation asks for the state instead.
      this.onError(error)
    })
    this.inFlight.add(sending)
    void sending.finally(() => this.inFlight.delete(sending))
  }

  /** Where a failed send is reported (the routes plugin sets the app's logger). */
  onError: (error: unknown) => void = () => {}

  /** Sends every notification now instead of after the delay (tests that order events by hand). */
  async flush(): Promise<void> {
    for (const [timer, { send }] of this.pending) {
      clearTimeout(timer)
      this.pending.delete(timer)
      this.run(send)
    }
    await this.settled()
  }

  /** Resolves once every scheduled notification has been sent (tests and shutdown wait on it). */
  async settled(): Promise<void> {
    while (this.pending.size > 0 || this.inFlight.size > 0) {
      if (this.inFlight.size > 0) await Promise.all([...this.inFlight])
      else await new Promise((resolve) => setTimeout(resolve, Math.min(this.delayMs, 50)))
    }
  }

  /** Drops notifications not yet sent (a shutdown, or a process dying) and waits for those being sent. */
  async close(): Promise<void> {
    for (const timer of this.pending.keys()) clearTimeout(timer)
    this.pending.clear()
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight])
  }
}
