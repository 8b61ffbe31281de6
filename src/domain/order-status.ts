/** Order states and pay methods (docs/cloud-phones.md "Orders", "Payment"). */
import { PaymentMethod, paymentMethodLabels } from './enums'
import { OrderStatus } from './order-states'

export { OrderStatus, isFinal } from './order-states'

export const orderStatusLabels: Record<OrderStatus, string> = {
  0: '待支付',
  1: '已支付',
  2: '已完成',
  3: '已取消',
  4: '已超时',
  5: '已退款',
}

/**
 * An order's state as one word with its refunds: a refunded order whose money is still on its way
 * back through the provider reads 退款中 until the provider confirms (then 已退款), as its payment and
 * refund rows do.
 */
export const orderStatusText = (status: OrderStatus, refundOpen: boolean): string =>
  status === OrderStatus.refunded && refundOpen ? '退款中' : orderStatusLabels[status]

/** The order still changes by itself: paid and not yet delivered, or a refund on its way back. */
export const orderInFlux = (status: number, refundOpen: boolean): boolean =>
  status === OrderStatus.paid || refundOpen

/** What an order is for (docs/cloud-phones.md "Orders"). */
export const ORDER_KINDS = [
  'new',
  'renew',
  'upgrade',
  'video',
  'activationCode',
  'beanRecharge',
  'timeToMonth',
  'balanceRecharge',
  'cloudSpace',
] as const
export type OrderKind = (typeof ORDER_KINDS)[number]

export const orderKindLabels: Record<OrderKind, string> = {
  new: '购买云手机',
  renew: '云手机续费',
  upgrade: '云手机升降配',
  video: '升级视频定制版',
  activationCode: '购买激活码',
  beanRecharge: '云豆充值',
  timeToMonth: '云豆转包月',
  balanceRecharge: '账户余额充值',
  cloudSpace: '购买云空间',
}

/** What was bought, in one line: '购买云手机 畅享版 4核4G 1个月 ×2' (ledger rows, order lists). */
export function describeOrder(order: {
  kind: OrderKind
  goodsName?: string | null
  durationLabel?: string | null
  quantity: number
}): string {
  const text = [orderKindLabels[order.kind], order.goodsName, order.durationLabel]
    .filter(Boolean)
    .join(' ')
  return order.quantity > 1 ? `${text} ×${order.quantity}` : text
}

/** An unpaid order may be paid this long after it is created. */
export const PAY_WINDOW_MS = 15 * 60_000

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
