/** Refunding an order: when a refund is open, and what a refund does in the words of its dialog. */
import { formatYuan } from '#domain/formatters'
import { OrderStatus, PayMethod } from '#domain/order-status'
import type { AdminOrderDetail } from '#console-contract/orders'

/** What refunding this order does, in the words of the confirmation dialog. */
export function consequence(detail: AdminOrderDetail): string {
  const { order, phones } = detail
  const via =
    order.payMethod === PayMethod.beans
      ? '退回用户的云豆余额'
      : order.payMethod === PayMethod.accountBalance
        ? '退回用户的账户余额'
        : '通过原支付渠道原路退回'
  const value =
    order.status === OrderStatus.paid
      ? '订单尚未交付，将不再交付。'
      : phones.length > 0
        ? `该订单创建的 ${phones.length} 台云手机将立即释放，数据不可恢复，用户将无法再使用。`
        : ''
  return `将全额退款 ${formatYuan(order.amount)}，${via}；${value}订单变为“已退款”，此操作不可撤销。`
}

export const refundOpen = (detail: AdminOrderDetail) =>
  detail.refunds.some((refund) => refund.status === 'requested')
