/**
 * 任务 (every role reads; retryJobs retries): the queue's failed jobs (attempts used up) and stuck ones
 * (running, their lease ran out long ago), newest first. 重试 puts a job back to run now with its attempts
 * at 0; a phone's job links to the phone's page.
 */
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import { Popconfirm, Typography } from 'antd'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import type { AdminJobRow, JobSearchQuery } from '#console-contract/devices'
import { adminApi } from '../../api'
import { CONSOLE_PATHS } from '../../paths'
import { JOB_KIND_LABELS, JOB_STATUS_LABELS, jobKindLabel } from '../../components/device-labels'
import ConsoleLink from '../../components/ConsoleLink'
import { beijingTime, inBeijing } from '../../components/beijing-time'

interface SearchForm {
  state?: 'failed' | 'stuck'
  kind?: string
}

const STATES = { failed: { text: '失败' }, stuck: { text: '卡住' } }

export default function JobsPage({ role }: { role: OperatorRole }) {
  const queryClient = useQueryClient()
  const [params, setParams] = useState<JobSearchQuery>({ page: 1, rows: 20 })
  const found = useQuery({
    queryKey: ['jobs', params],
    queryFn: () => adminApi.jobs(params),
    placeholderData: keepPreviousData,
  })
  const retry = useMutation({
    mutationFn: (id: number) => adminApi.retryJob(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['jobs'] }),
  })
  const mayRetry = mayDo(role, 'retryJobs')

  const columns: ProColumns<AdminJobRow>[] = [
    { title: '任务ID', dataIndex: 'id', search: false, width: 90 },
    {
      title: '状态',
      dataIndex: 'state',
      valueType: 'select',
      valueEnum: STATES,
      hideInTable: true,
    },
    {
      title: '类型',
      dataIndex: 'kind',
      valueType: 'select',
      valueEnum: Object.fromEntries(
        Object.entries(JOB_KIND_LABELS).map(([kind, text]) => [kind, { text }]),
      ),
      render: (_, row) => jobKindLabel(row.kind),
    },
    {
      title: '对象',
      dataIndex: 'target',
      search: false,
      render: (_, row) =>
        row.deviceId !== null ? (
          <ConsoleLink to={`${CONSOLE_PATHS.devices}/${row.deviceId}`}>{row.target}</ConsoleLink>
        ) : (
          (row.target ?? '—')
        ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      search: false,
      render: (_, row) =>
        row.status === 'running'
          ? '卡住（租约已过期）'
          : (JOB_STATUS_LABELS[row.status] ?? row.status),
    },
    { title: '尝试次数', dataIndex: 'attempts', search: false, width: 90 },
    {
      title: '最近错误',
      dataIndex: 'lastError',
      search: false,
      ellipsis: true,
      render: (_, row) => row.lastError ?? '—',
    },
    {
      title: inBeijing('创建时间'),
      dataIndex: 'createdAt',
      search: false,
      render: (_, row) => beijingTime(row.createdAt),
    },
    {
      title: inBeijing('最近计划执行'),
      dataIndex: 'runAt',
      search: false,
      render: (_, row) => beijingTime(row.runAt),
    },
    ...(mayRetry
      ? [
          {
            title: '操作',
            valueType: 'option',
            render: (_, row) =>
              row.retryable ? (
                <Popconfirm
                  key="retry"
                  title={`重试任务 ${row.id}？`}
                  description="任务将立即重新执行，尝试次数从 0 开始计算。"
                  okText="重试"
                  cancelText="取消"
                  onConfirm={() => retry.mutateAsync(row.id).catch(() => undefined)}
                >
                  <a href="#retry" onClick={(event) => event.preventDefault()}>
                    重试
                  </a>
                </Popconfirm>
              ) : null,
          } satisfies ProColumns<AdminJobRow>,
        ]
      : []),
  ]

  return (
    <ProTable<AdminJobRow, SearchForm>
      rowKey="id"
      headerTitle="失败与卡住的任务"
      columns={columns}
      dataSource={found.data?.records}
      loading={found.isFetching}
      search={{ labelWidth: 'auto', searchText: '搜索', resetText: '重置' }}
      onSubmit={(form) =>
        setParams({ state: form.state, kind: form.kind, page: 1, rows: params.rows })
      }
      onReset={() => setParams({ page: 1, rows: params.rows })}
      options={{ reload: () => void found.refetch(), density: false, setting: false }}
      // in body text: antd's own faint placeholder colour (#bfbfbf, 1.83:1) fails axe's contrast rule
      locale={{ emptyText: <Typography.Text>没有失败或卡住的任务</Typography.Text> }}
      pagination={{
        current: params.page,
        pageSize: params.rows,
        total: found.data?.total ?? 0,
        showSizeChanger: true,
        onChange: (page, rows) =>
          setParams({ ...params, page: rows === params.rows ? page : 1, rows }),
      }}
    />
  )
}
