/** An order's payment records, refunds through a payment channel, and the phones it created. */
import { Table, Typography } from 'antd'
import { deviceStatusLabels, type DeviceStatus } from '#domain/device-lifecycle'
import { formatYuan } from '#domain/formatters'
import { PayMethod, payMethodLabels } from '#domain/order-status'
import type { AdminOrderDetail } from '#console-contract/orders'
import { beijingOrDash, inBeijing } from '../../../components/beijing-time'
import { DeviceLink, userColumn } from '../../../components/record-links'

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

/** The order's records below its facts, each table saying so when it has none. */
export default function OrderRecords({ detail }: { detail: AdminOrderDetail }) {
  const { phones, payments, refunds } = detail
  return (
    <>
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
    </>
  )
}
