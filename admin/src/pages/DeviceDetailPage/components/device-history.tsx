/** A phone's histories, one tab each: the queue's jobs, backups and restores, transfers, operators' actions. */
import type { ReactNode } from 'react'
import type { TableColumnsType } from 'antd'
import type { AdminDeviceDetail } from '#console-contract/devices'
import { JOB_STATUS_LABELS, jobKindLabel } from '../../../components/device-labels'
import { beijingOrDash, inBeijing } from '../../../components/beijing-time'
import { userColumn } from '../../../components/record-links'
import { HistoryTable } from '../../../components/detail-parts'

type Detail = AdminDeviceDetail
type Row<K extends keyof Detail> = Detail[K] extends (infer R)[] ? R : never

const time = beijingOrDash

const ACTION_LABELS: Record<string, string> = {
  'device.retryProvision': '重新创建',
  'device.release': '释放',
  'device.reset': '重置',
}
const SPACE_KINDS: Record<string, string> = { backup: '备份', restore: '恢复' }
const SPACE_STATUSES: Record<string, string> = {
  running: '进行中',
  done: '已完成',
  failed: '失败',
  interrupted: '已中断',
}

const jobColumns: TableColumnsType<Row<'jobs'>> = [
  { title: '任务ID', dataIndex: 'id' },
  { title: '类型', dataIndex: 'kind', render: jobKindLabel },
  {
    title: '状态',
    dataIndex: 'status',
    render: (status: string) => JOB_STATUS_LABELS[status] ?? status,
  },
  { title: '尝试次数', dataIndex: 'attempts' },
  { title: '最近错误', dataIndex: 'lastError', render: (error: string | null) => error ?? '—' },
  { title: inBeijing('创建时间'), dataIndex: 'createdAt', render: time },
  { title: '计划执行', dataIndex: 'runAt', render: time },
]

export function tabsOf(detail: Detail): { key: string; label: string; children: ReactNode }[] {
  return [
    {
      key: 'jobs',
      label: `任务（${detail.jobs.length}）`,
      children: <HistoryTable rows={detail.jobs} empty="没有任务" columns={jobColumns} />,
    },
    {
      key: 'space',
      label: `备份与恢复（${detail.spaceTasks.length}）`,
      children: (
        <HistoryTable
          rows={detail.spaceTasks}
          empty="没有备份或恢复"
          columns={[
            {
              title: '类型',
              dataIndex: 'kind',
              render: (kind: string) => SPACE_KINDS[kind] ?? kind,
            },
            {
              title: '状态',
              dataIndex: 'status',
              render: (status: string) => SPACE_STATUSES[status] ?? status,
            },
            {
              title: '失败原因',
              dataIndex: 'failReason',
              render: (reason: string | null) => reason ?? '—',
            },
            { title: inBeijing('开始时间'), dataIndex: 'createdAt', render: time },
            { title: inBeijing('结束时间'), dataIndex: 'finishedAt', render: time },
          ]}
        />
      ),
    },
    {
      key: 'transfers',
      label: `转移（${detail.transfers.length}）`,
      children: (
        <HistoryTable
          rows={detail.transfers}
          empty="没有转移记录"
          columns={[
            { title: inBeijing('时间'), dataIndex: 'createdAt', render: time },
            userColumn('转出用户', (row: Row<'transfers'>) => ({
              id: row.fromUserId,
              mobile: row.fromMobile,
              name: row.fromName,
            })),
            userColumn('转入用户', (row: Row<'transfers'>) => ({
              id: row.toUserId,
              mobile: row.toMobile,
              name: row.toName,
            })),
          ]}
        />
      ),
    },
    {
      key: 'actions',
      label: `操作记录（${detail.actions.length}）`,
      children: (
        <HistoryTable
          rows={detail.actions}
          empty="没有操作记录"
          columns={[
            { title: inBeijing('时间'), dataIndex: 'at', render: time },
            {
              title: '操作员',
              dataIndex: 'operatorName',
              render: (name: string | null) => name ?? '命令行',
            },
            {
              title: '操作',
              dataIndex: 'action',
              render: (action: string) => ACTION_LABELS[action] ?? action,
            },
            {
              title: '原因',
              dataIndex: 'after',
              render: (after: unknown) => {
                const reason = (after as { reason?: unknown } | null)?.reason
                return typeof reason === 'string' ? reason : '—'
              },
            },
          ]}
        />
      ),
    },
  ]
}
