/**
 * Alipay's wire conventions the adapter and its tests share: amounts as yuan strings with two decimals,
 * times as Beijing wall-clock text, trade statuses, and which refusals are final.
 */
import type { TradeState } from '../payment-provider'

/** Fen → Alipay's yuan text ("12.05"), by string arithmetic: no float ever touches the amount. */
export function fenToYuanText(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`not an amount in fen: ${fen}`)
  const digits = String(fen).padStart(3, '0')
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`
}

/** Alipay's yuan text → fen; null unless it is a plain non-negative amount with at most 2 decimals. */
export function yuanTextToFen(text: unknown): number | null {
  if (typeof text !== 'string') return null
  const match = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

const BEIJING_OFFSET_MS = 8 * 3600_000

/** 'yyyy-MM-dd HH:mm:ss' in Beijing time (Alipay's time_expire, gmt_*), seconds rounded down. */
export function beijingTime(date: Date): string {
  return new Date(date.getTime() + BEIJING_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')
}

/** Alipay's 'yyyy-MM-dd HH:mm:ss' Beijing time; null when it is not one. */
export function parseBeijingTime(text: unknown): Date | null {
  if (typeof text !== 'string' || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text)) return null
  const time = Date.parse(`${text.replace(' ', 'T')}+08:00`)
  return Number.isNaN(time) ? null : new Date(time)
}

/**
 * trade_status → our word. TRADE_CLOSED is "no money held": closed unpaid (window passed, or closed by
 * us) or paid and then refunded in full (that notification carries refund_fee and gmt_refund); either
 * way nothing is there to deliver against. TRADE_FINISHED is paid and past its refund period.
 */
export const TRADE_STATUSES: Record<string, TradeState['status']> = {
  WAIT_BUYER_PAY: 'pending',
  TRADE_SUCCESS: 'paid',
  TRADE_FINISHED: 'paid',
  TRADE_CLOSED: 'closed',
}

/**
 * Business refusals (code 40004) that asking again can change: Alipay's own failure, the merchant
 * account short of money for a refund, a frozen trade. Every other ACQ.* sub_code is final.
 */
const PASSING_SUB_CODES = new Set([
  'ACQ.SYSTEM_ERROR',
  'ACQ.SELLER_BALANCE_NOT_ENOUGH',
  'ACQ.REASON_TRADE_BEEN_FREEZEN',
])

/** An answer other than 10000: final (PaymentProviderRefusal) only for a business ACQ.* sub_code. */
export function isFinalRefusal(code: string, subCode: string | undefined): boolean {
  return code === '40004' && !!subCode?.startsWith('ACQ.') && !PASSING_SUB_CODES.has(subCode)
}
