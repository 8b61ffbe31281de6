/** A phone's 自动续费: off, or its duration, what pays, the last renewal and why the last try failed. */
import { useQuery } from '@tanstack/react-query'
import { ProDescriptions } from '@ant-design/pro-components'
import { Typography } from 'antd'
import type { AdminAutoRenewRow } from '#console-contract/auto-renew'
import { adminApi } from '../../../api'
import { AUTO_RENEW_PAY_LABELS, autoRenewDuration } from '../../../components/auto-renew-labels'
import { beijingOrDash, inBeijing } from '../../../components/beijing-time'
import { OrderLink } from '../../../components/record-links'

export default function AutoRenewFacts({ id }: { id: number }) {
  const setting = useQuery({
    queryKey: ['device', id, 'auto-renew'],
    queryFn: () => adminApi.deviceAutoRenew(id),
  })
  if (setting.isPending) return null
  if (setting.isError) return <Typography.Text type="danger">无法读取自动续费设置</Typography.Text>
  const row = setting.data
  if (!row) {
    return (
      <ProDescriptions
        title="自动续费"
        column={3}
        bordered
        size="small"
        dataSource={{}}
        columns={[{ title: '状态', render: () => '未开启' }]}
      />
    )
  }
  return (
    <ProDescriptions<AdminAutoRenewRow>
      title="自动续费"
      column={3}
      bordered
      size="small"
      dataSource={row}
      columns={[
        {
          title: '状态',
          render: () => (row.stale ? '已开启（前一位用户设置，不再续费）' : '已开启'),
        },
        { title: '续费时长', render: () => autoRenewDuration(row.days) },
        { title: '支付方式', render: () => AUTO_RENEW_PAY_LABELS[row.payMethod] ?? row.payMethod },
        { title: inBeijing('上次自动续费'), render: () => beijingOrDash(row.renewedAt) },
        {
          title: '续费订单',
          render: () =>
            row.lastOrderId ? <OrderLink id={row.lastOrderId} orderNo={row.lastOrderNo} /> : '—',
        },
        { title: '失败原因', render: () => row.failure ?? '—' },
        { title: inBeijing('失败时间'), render: () => beijingOrDash(row.failedAt) },
      ]}
    />
  )
}
