/**
 * 自动续费 (every role reads): the phones whose automatic renewal failed in their current cycle, the
 * latest first, with the reason the job recorded (a short balance, an open order, a frozen account…).
 * Each phone and owner links to its page; what pays is the owner's choice, switched on the client.
 */
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import type { AdminAutoRenewRow, AutoRenewFailureQuery } from '#console-contract/auto-renew'
import { adminApi } from '../../api'
import { CONSOLE_PATHS } from '../../paths'
import ConsoleLink from '../../components/ConsoleLink'
import { UserLink } from '../../components/record-links'
import { beijingOrDash, inBeijing } from '../../components/beijing-time'
import { AUTO_RENEW_PAY_LABELS, autoRenewDuration } from '../../components/auto-renew-labels'

export default function AutoRenewPage() {
  const [params, setParams] = useState<AutoRenewFailureQuery>({ page: 1, rows: 20 })
  const found = useQuery({
    queryKey: ['auto-renew-failures', params],
    queryFn: () => adminApi.autoRenewFailures(params),
    placeholderData: keepPreviousData,
  })

  const columns: ProColumns<AdminAutoRenewRow>[] = [
    {
      title: '云手机',
      dataIndex: 'deviceName',
      render: (_, row) => (
        <ConsoleLink to={`${CONSOLE_PATHS.devices}/${row.deviceId}`}>{row.deviceName}</ConsoleLink>
      ),
    },
    {
      title: '用户',
      dataIndex: 'userName',
      render: (_, row) => <UserLink id={row.userId} mobile={row.mobile} name={row.userName} />,
    },
    { title: '续费时长', dataIndex: 'days', render: (_, row) => autoRenewDuration(row.days) },
    {
      title: '支付方式',
      dataIndex: 'payMethod',
      render: (_, row) => AUTO_RENEW_PAY_LABELS[row.payMethod] ?? row.payMethod,
    },
    { title: '失败原因', dataIndex: 'failure', ellipsis: true, render: (_, row) => row.failure },
    {
      title: inBeijing('失败时间'),
      dataIndex: 'failedAt',
      render: (_, row) => beijingOrDash(row.failedAt),
    },
    {
      title: inBeijing('到期时间'),
      dataIndex: 'expireAt',
      render: (_, row) => beijingOrDash(row.expireAt),
    },
  ]

  return (
    <ProTable<AdminAutoRenewRow>
      headerTitle="自动续费失败"
      rowKey="deviceId"
      columns={columns}
      search={false}
      options={false}
      loading={found.isFetching}
      dataSource={found.data?.records ?? []}
      pagination={{
        current: params.page,
        pageSize: params.rows,
        total: found.data?.total ?? 0,
        showSizeChanger: false,
        onChange: (page) => setParams({ ...params, page }),
      }}
    />
  )
}
