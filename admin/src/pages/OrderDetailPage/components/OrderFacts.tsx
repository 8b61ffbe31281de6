/** An order's facts: its user and payer, goods, kind, status, pay method, amounts and times. */
import { ProDescriptions } from '@ant-design/pro-components'
import { formatYuan } from '#domain/formatters'
import {
  orderKindLabels,
  orderStatusText,
  payMethodLabels,
  type OrderKind,
  type OrderStatus,
  type PayMethod,
} from '#domain/order-status'
import type { AdminOrderDetail } from '#console-contract/orders'
import { beijingOrDash, inBeijing } from '../../../components/beijing-time'
import { GoodsLink, UserLink } from '../../../components/record-links'
import { refundOpen } from './order-refund'

const time = beijingOrDash

export default function OrderFacts({ detail }: { detail: AdminOrderDetail }) {
  const { order } = detail
  return (
    <ProDescriptions
      title={`订单 ${order.orderNo}`}
      column={3}
      bordered
      size="small"
      dataSource={order}
      columns={[
        { title: '订单ID', dataIndex: 'id' },
        {
          title: '用户',
          dataIndex: 'userId',
          render: () => (
            <UserLink id={order.userId} mobile={order.userMobile} name={order.userName} />
          ),
        },
        {
          title: '付款人',
          dataIndex: 'buyerId',
          render: () =>
            order.buyerId === null ? (
              '下单用户'
            ) : (
              <UserLink id={order.buyerId} mobile={order.buyerMobile} name={order.buyerName} />
            ),
        },
        {
          title: '商品',
          dataIndex: 'goodId',
          render: () =>
            order.goodId === null ? (
              '—'
            ) : (
              <GoodsLink name={order.goodsName} days={order.goodTime} />
            ),
        },
        {
          title: '类型',
          dataIndex: 'kind',
          render: () => orderKindLabels[order.kind as OrderKind] ?? order.kind,
        },
        {
          title: '状态',
          dataIndex: 'status',
          render: () => orderStatusText(order.status as OrderStatus, refundOpen(detail)),
        },
        {
          title: '支付方式',
          dataIndex: 'payMethod',
          render: () =>
            order.payMethod === null ? '—' : payMethodLabels[order.payMethod as PayMethod],
        },
        { title: '金额', dataIndex: 'amount', render: () => formatYuan(order.amount) },
        {
          title: '原价',
          dataIndex: 'originalAmount',
          render: () => formatYuan(order.originalAmount),
        },
        { title: '数量', dataIndex: 'quantity' },
        {
          title: inBeijing('创建时间'),
          dataIndex: 'createdAt',
          render: () => time(order.createdAt),
        },
        { title: inBeijing('支付时间'), dataIndex: 'paidAt', render: () => time(order.paidAt) },
        {
          title: inBeijing('完成时间'),
          dataIndex: 'completedAt',
          render: () => time(order.completedAt),
        },
        {
          title: inBeijing('关闭时间'),
          dataIndex: 'closedAt',
          render: () => time(order.closedAt),
        },
        {
          title: '退款原因',
          dataIndex: 'refundReason',
          render: () => order.refundReason ?? '—',
        },
        { title: '备注', dataIndex: 'remark', render: () => order.remark ?? '—' },
      ]}
    />
  )
}
