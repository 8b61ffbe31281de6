/** Order states and pay methods (docs/cloud-phones.md "Orders", "Payment"). */
import { PaymentMethod, paymentMethodLabels } from './enums'

export const OrderStatus = {
  unpaid: 0,
  paid: 1,
  completed: 2,
  cancelled: 3,
  timedOut: 4,
  refunded: 5,
} as const
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus]

export const orderStatusLabels: Record<OrderStatus, string> = {
  0: '待支付',
  1: '已支付',
  2: '已完成',
  3: '已取消',
  4: '已超时',
  5: '已退款',
}

/** An unpaid order may be paid this long after it is created. */
export const PAY_WINDOW_MS = 15 * 60_000

const FINAL_STATUSES: readonly number[] = [
  OrderStatus.completed,
  OrderStatus.cancelled,
  OrderStatus.timedOut,
  OrderStatus.refunded,
]

/** No further transition happens (paid is still being fulfilled). */
export function isFinal(status: number): boolean {
  return FINAL_STATUSES.includes(status)
}

/** Payable while unpaid and before the deadline (the deadline itself is too late). */
export function canPay(order: { status: number; payDeadline: number }, now: number): boolean {
  return order.status === OrderStatus.unpaid && now < order.payDeadline
}

const pad2 = (n: number) => String(n).padStart(2, '0')

/** Time left to pay as 'mm:ss' (seconds rounded up, so 00:00 means it is over). */
export function payCountdown(payDeadline: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((payDeadline - now) / 1000))
  return `${pad2(Math.floor(seconds / 60))}:${pad2(seconds % 60)}`
}

/** SPEC payment method plus paying with cloud beans and (company users) the account balance. */
export const PayMethod = { ...PaymentMethod, beans: 3, accountBalance: 4 } as const
export type PayMethod = (typeof PayMethod)[keyof typeof PayMethod]

export const payMethodLabels: Record<PayMethod, string> = {
  ...paymentMethodLabels,
  3: '云豆',
  4: '账户余额',
}

export function isPayMethod(value: number): value is PayMethod {
  return Object.values(PayMethod).includes(value as PayMethod)
}
