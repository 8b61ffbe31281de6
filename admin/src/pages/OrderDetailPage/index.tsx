/**
 * One order (/admin/orders/<id>): the order, the phones it made, every payment attempt with its provider
 * and trade number, and its refunds. 退款 (finance only, and only when the server says the order may be
 * refunded) asks for a reason in a dialog that names the consequence: the money back the way it came and
 * what happens to the phones.
 */
import { useRef } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ModalForm, ProDescriptions, ProFormTextArea } from '@ant-design/pro-components'
import { Alert, Button, Space, Table, Typography } from 'antd'
import { deviceStatusLabels, type DeviceStatus } from '#domain/device-lifecycle'
import { nextFollowDelay } from '#domain/flux'
import { formatYuan } from '#domain/formatters'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import {
  orderInFlux,
  orderKindLabels,
  orderStatusText,
  OrderStatus,
  PayMethod,
  payMethodLabels,
  type OrderKind,
} from '#domain/order-status'
import { OperatorCode } from '#domain/result-codes'
import type { AdminOrderDetail } from '#console-contract/orders'
import { adminApi } from '../../api'
import { navigate } from '../../router'
import { CONSOLE_PATHS } from '../../paths'
import { beijingOrDash, inBeijing } from '../../components/beijing-time'
import { DetailUnavailable } from '../../components/detail-parts'
import { DeviceLink, GoodsLink, UserLink, userColumn } from '../../components/record-links'

// Empty tables say so in body text: antd's own faint placeholder colour fails axe's contrast rule.
const time = beijingOrDash

const PAYMENT_STATUS: Record<string, string> = {
  pending: '待支付',
  paid: '已支付',
  cancelled: '已取消',
  failed: '支付失败',
  closed: '已关闭',
  refunding: '退款中',
  refunded: '已退款',
}
const REFUND_STATUS: Record<string, string> = {
  requested: '退款中',
  succeeded: '退款成功',
  failed: '退款失败',
}
/** The payment record's provider: a pay method's own name, or the sandbox's. */
const PROVIDERS: Record<string, string> = {
  beans: payMethodLabels[PayMethod.beans],
  accountBalance: payMethodLabels[PayMethod.accountBalance],
  sandbox: '沙箱支付',
  alipay: payMethodLabels[PayMethod.alipay],
  wechatpay: payMethodLabels[PayMethod.wechatPay],
}

/** What refunding this order does, in the words of the confirmation dialog. */
function consequence(detail: AdminOrderDetail): string {
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

const refundOpen = (detail: AdminOrderDetail) =>
  detail.refunds.some((refund) => refund.status === 'requested')

function BackButton() {
  return <Button onClick={() => navigate(CONSOLE_PATHS.orders)}>返回订单列表</Button>
}

export default function OrderDetailPage({ id, role }: { id: number; role: OperatorRole }) {
  const queryClient = useQueryClient()
  const key = ['order', id] as const
  // while the order changes by itself (paid and not yet delivered, a refund on its way back), it is
  // read again after 1 s, then half as long again while nothing changed (at most 5 s), as the app's
  // screens follow the server (docs/cloud-phones.md)
  const followed = useRef<{ data: AdminOrderDetail | undefined; delay: number | null }>({
    data: undefined,
    delay: null,
  })
  const detail = useQuery({
    queryKey: key,
    queryFn: () => adminApi.order(id),
    meta: { inlineError: true },
    refetchInterval: (query) => {
      const data = query.state.data
      if (!data || !orderInFlux(data.order.status, refundOpen(data))) {
        followed.current = { data, delay: null }
        return false
      }
      // react-query keeps the same object when an answer is unchanged
      const changed = followed.current.data !== data
      const delay = nextFollowDelay(followed.current.delay, changed)
      followed.current = { data, delay }
      return delay
    },
  })
  const refund = useMutation({
    mutationFn: (reason: string) => adminApi.refundOrder(id, reason),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data)
      void queryClient.invalidateQueries({ queryKey: ['orders'] })
    },
    // a refusal (another operator refunded it first…) is shown; the page then reads the order again
    onError: () => void queryClient.invalidateQueries({ queryKey: key }),
  })

  if (detail.isPending || detail.isError) {
    return (
      <DetailUnavailable
        query={detail}
        notFoundCode={OperatorCode.ORDER_NOT_FOUND}
        notFound="订单不存在"
        failed="无法读取该订单"
        back={<BackButton />}
      />
    )
  }

  const { order, phones, payments, refunds, refundRefusal } = detail.data
  const mayRefund = mayDo(role, 'refundOrders')
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>
        <BackButton />
        {mayRefund && refundRefusal === null && (
          <ModalForm<{ reason: string }>
            title={`退款订单 ${order.orderNo}？`}
            width={520}
            trigger={
              <Button danger type="primary">
                退款
              </Button>
            }
            modalProps={{
              destroyOnClose: true,
              okText: '确认退款',
              okButtonProps: { danger: true },
            }}
            onFinish={async ({ reason }) => {
              try {
                await refund.mutateAsync(reason)
                return true
              } catch {
                return false
              }
            }}
          >
            <Typography.Paragraph type="danger">{consequence(detail.data)}</Typography.Paragraph>
            <ProFormTextArea
              name="reason"
              label="退款原因（记入退款单和操作日志）"
              fieldProps={{ maxLength: 200, showCount: true }}
              rules={[{ required: true, whitespace: true, message: '请填写退款原因' }]}
            />
          </ModalForm>
        )}
      </Space>
      {mayRefund && refundRefusal !== null && (
        <Alert type="info" showIcon message={`不能退款：${refundRefusal}`} />
      )}
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
            render: () => orderStatusText(order.status as OrderStatus, refundOpen(detail.data)),
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
      <Typography.Title level={5}>支付记录</Typography.Title>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={payments}
        locale={{ emptyText: <Typography.Text>没有支付记录</Typography.Text> }}
        columns={[
          { title: '交易号', dataIndex: 'tradeNo' },
          {
            title: '渠道',
            dataIndex: 'provider',
            render: (provider: string) => PROVIDERS[provider] ?? provider,
          },
          {
            title: '支付方式',
            dataIndex: 'payMethod',
            render: (method: number) => payMethodLabels[method as PayMethod] ?? method,
          },
          userColumn('付款用户', (row: AdminOrderDetail['payments'][number]) => ({
            id: row.payerId,
            mobile: row.payerMobile,
            name: row.payerName,
          })),
          { title: '金额', dataIndex: 'amount', render: formatYuan },
          {
            title: '状态',
            dataIndex: 'status',
            render: (status: string) => PAYMENT_STATUS[status] ?? status,
          },
          { title: inBeijing('发起时间'), dataIndex: 'createdAt', render: time },
          { title: inBeijing('结束时间'), dataIndex: 'settledAt', render: time },
        ]}
      />
      <Typography.Title level={5}>退款记录</Typography.Title>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={refunds}
        locale={{
          emptyText: (
            <Typography.Text>
              没有经支付渠道的退款（云豆、账户余额退款直接记入用户余额）
            </Typography.Text>
          ),
        }}
        columns={[
          { title: '退款单号', dataIndex: 'refundNo' },
          {
            title: '渠道',
            dataIndex: 'provider',
            render: (provider: string) => PROVIDERS[provider] ?? provider,
          },
          { title: '金额', dataIndex: 'amount', render: formatYuan },
          { title: '原因', dataIndex: 'reason' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (status: string) => REFUND_STATUS[status] ?? status,
          },
          { title: '尝试次数', dataIndex: 'attempts' },
          { title: '最近错误', dataIndex: 'lastError', render: (error) => error ?? '—' },
          { title: inBeijing('申请时间'), dataIndex: 'createdAt', render: time },
          { title: inBeijing('完成时间'), dataIndex: 'settledAt', render: time },
        ]}
      />
      <Typography.Title level={5}>云手机</Typography.Title>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={phones}
        locale={{ emptyText: <Typography.Text>该订单没有创建云手机</Typography.Text> }}
        columns={[
          {
            title: '名称',
            dataIndex: 'name',
            render: (name: string, row) => <DeviceLink id={row.id} name={name} />,
          },
          userColumn('所属用户', (row: AdminOrderDetail['phones'][number]) => ({
            id: row.userId,
            mobile: row.userMobile,
            name: row.userName,
          })),
          {
            title: '状态',
            dataIndex: 'status',
            render: (status: number) => deviceStatusLabels[status as DeviceStatus] ?? status,
          },
          { title: inBeijing('到期时间'), dataIndex: 'expireAt', render: time },
        ]}
      />
    </Space>
  )
}
