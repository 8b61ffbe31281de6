/**
 * The sandbox payment provider's wire protocol, as a real provider documents its own: where its pages
 * are (our callbacks: notifyPath in payment-provider.ts), and how a notification is signed (HMAC-SHA256 of the raw body, hex, in
 * x-sandbox-signature; the body carries a timestamp and a nonce) and verified before it is trusted.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { PaymentSignatureError, type PaymentNotice, type RefundNotice } from '../payment-provider'

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature'
export const SANDBOX_CHECKOUT_PATH = '/vmcloud/api/sandbox/pay/checkout'

const TRADE_STATUSES = ['paid', 'cancelled', 'failed'] as const
const REFUND_STATUSES = ['succeeded', 'failed'] as const

/** A notification body as sent, and its signature. */
export interface SignedNotice {
  body: string
  signature: string
}

export function sign(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex')
}

/** The fields as a notification body, stamped with the time and a nonce, and signed. */
export function signedNotice(
  secret: string,
  now: Date,
  fields: Record<string, unknown>,
): SignedNotice {
  const body = JSON.stringify({
    ...fields,
    ts: now.getTime(),
    nonce: randomBytes(8).toString('hex'),
  })
  return { body, signature: sign(secret, body) }
}

/** The body, verified: signed with the secret, JSON, of the given kind. */
function verified(secret: string, headers: Record<string, unknown>, rawBody: string, kind: string) {
  const given = headers[SANDBOX_SIGNATURE_HEADER]
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) {
    throw new PaymentSignatureError('缺少签名或签名格式不正确')
  }
  const expected = Buffer.from(sign(secret, rawBody), 'hex')
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

export function verifyTradeNotice(
  secret: string,
  headers: Record<string, unknown>,
  rawBody: string,
): PaymentNotice {
  const payload = verified(secret, headers, rawBody, 'trade')
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

export function verifyRefundNotice(
  secret: string,
  headers: Record<string, unknown>,
  rawBody: string,
): RefundNotice {
  const payload = verified(secret, headers, rawBody, 'refund')
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
