import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import {
  PaymentSignatureError,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
} from './payment-provider'

/** Default secret for development and tests; production refuses it (config.ts). */
export const SANDBOX_PAY_DEV_SECRET = 'sandbox-pay-dev-secret'
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature'
export const SANDBOX_CHECKOUT_PATH = '/vmcloud/api/sandbox/pay/checkout'
export const SANDBOX_NOTIFY_PATH = '/vmcloud/api/pay/notify/sandbox'

const STATUSES = ['paid', 'cancelled', 'failed'] as const

/**
 * A stand-in for a real payment provider: its checkout page is served by our own server, and the
 * buyer's choice there comes back as an HMAC-SHA256-signed notification to our callback route, sent
 * asynchronously after `delayMs` like a real provider's would be.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox'
  readonly isSandbox = true
  /** Pending sends, each with the resolver that settles it if it is dropped. */
  private readonly timers = new Map<NodeJS.Timeout, () => void>()
  private readonly inFlight = new Set<Promise<void>>()

  constructor(
    private readonly secret: string = SANDBOX_PAY_DEV_SECRET,
    readonly delayMs = 300,
  ) {}

  async createPayment(request: PaymentRequest): Promise<PaymentStart> {
    return {
      checkoutUrl: `${SANDBOX_CHECKOUT_PATH}?tradeNo=${encodeURIComponent(request.tradeNo)}`,
    }
  }

  sign(rawBody: string): string {
    return createHmac('sha256', this.secret).update(rawBody).digest('hex')
  }

  /** The notification the sandbox sends for a buyer's choice on the checkout page. */
  notification(tradeNo: string, status: PaymentNotice['status'], amount: number, now: number) {
    const body = JSON.stringify({
      tradeNo,
      status,
      amount,
      ts: now,
      nonce: randomBytes(8).toString('hex'),
    })
    return { body, signature: this.sign(body) }
  }

  verifyNotification(headers: Record<string, unknown>, rawBody: string): PaymentNotice {
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
    const { tradeNo, status, amount } = payload
    if (
      typeof tradeNo !== 'string' ||
      !STATUSES.includes(status as PaymentNotice['status']) ||
      !Number.isInteger(amount)
    ) {
      throw new PaymentSignatureError('通知字段不完整')
    }
    return { tradeNo, status: status as PaymentNotice['status'], amount: amount as number, payload }
  }

  /** Runs `send` after the delay without making the caller wait (the buyer's browser moves on). */
  schedule(send: () => Promise<void>, onError: (error: unknown) => void): void {
    let done!: () => void
    const finished = new Promise<void>((resolve) => (done = resolve))
    this.inFlight.add(finished)
    void finished.then(() => this.inFlight.delete(finished))
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      send().catch(onError).finally(done)
    }, this.delayMs)
    this.timers.set(timer, done)
  }

  /** Resolves once every scheduled notification has been sent (tests and shutdown wait on it). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight])
  }

  /** Drops notifications not yet sent (server shutdown) and waits for those being sent. */
  async close(): Promise<void> {
    for (const [timer, settle] of this.timers) {
      clearTimeout(timer)
      settle()
    }
    this.timers.clear()
    await this.settled()
  }
}
