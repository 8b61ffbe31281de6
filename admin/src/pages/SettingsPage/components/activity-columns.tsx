/** 活动与秒杀's table: each activity's kind, time window, state and (for an editor) its 编辑. */
import type { ProColumns } from '@ant-design/pro-components'
import { Badge } from 'antd'
import type { AdminActivity } from '#console-contract/settings'
import { beijingMinute, inBeijing } from '../../../components/beijing-time'
import ActivityEditor from './ActivityEditor'
import type { MutationOptions } from './settings-refusal'

const ACTIVITY_KIND_LABELS: Record<AdminActivity['kind'], string> = {
  seckill: '限时秒杀',
  info: '图文活动',
}

function activityState(row: AdminActivity, now: number) {
  if (!row.enabled) return <Badge status="default" text="已下线" />
  if (now < row.startsAt) return <Badge status="warning" text="未开始" />
  if (now >= row.endsAt) return <Badge status="default" text="已结束" />
  return <Badge status="success" text="进行中" />
}
export function activityColumns(
  editable: boolean,
  mutationOptions: MutationOptions,
): ProColumns<AdminActivity>[] {
  const now = Date.now()
  return [
    { title: 'ID', dataIndex: 'id', width: 60 },
    { title: '标题', dataIndex: 'title' },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 100,
      render: (_, row) => ACTIVITY_KIND_LABELS[row.kind],
    },
    {
      title: inBeijing('开始时间'),
      key: 'startsAt',
      render: (_, row) => beijingMinute(row.startsAt),
    },
    {
      title: inBeijing('结束时间'),
      key: 'endsAt',
      render: (_, row) => beijingMinute(row.endsAt),
    },
    { title: '状态', key: 'state', render: (_, row) => activityState(row, now) },
    {
      title: '操作',
      valueType: 'option',
      hideInTable: !editable,
      render: (_, row) => [
        <ActivityEditor key="edit" row={row} mutationOptions={mutationOptions} />,
      ],
    },
  ]
}
