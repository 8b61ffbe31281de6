/** An activity's 编辑 dialog: title, summary, its time window in 北京时间 and on/off. */
import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import {
  ModalForm,
  ProFormDateTimePicker,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components'
import { Button, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import {
  ACTIVITY_SUMMARY_MAX,
  ACTIVITY_TITLE_MAX,
  validateActivityEdit,
  type ActivityEdit,
} from '#domain/console/settings-edits'
import type { AdminActivity } from '#console-contract/settings'
import { adminApi } from '../../../api'
import { beijingWallClock, fromBeijingWallClock } from '../../../components/beijing-time'
import { saveChecked, type MutationOptions } from './settings-refusal'

interface ActivityForm {
  title: string
  summary: string
  startsAt: Dayjs | null
  endsAt: Dayjs | null
  enabled: boolean
}

export default function ActivityEditor({
  row,
  mutationOptions,
}: {
  row: AdminActivity
  mutationOptions: MutationOptions
}) {
  const save = useMutation({
    mutationFn: (edit: ActivityEdit) =>
      adminApi.editActivity(row.id, { version: row.version, ...edit }),
    ...mutationOptions,
  })
  const [why, setWhy] = useState<string | null>(null)
  return (
    <ModalForm<ActivityForm>
      title={`编辑活动：${row.title}`}
      width={520}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`编辑活动 ${row.title}`}>
          编辑
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存', onCancel: () => setWhy(null) }}
      // the pickers' values as they are (ProForm's default turns them into 'YYYY-MM-DD HH:mm:ss' text)
      dateFormatter={false}
      initialValues={{
        title: row.title,
        summary: row.summary,
        startsAt: dayjs(beijingWallClock(row.startsAt)),
        endsAt: dayjs(beijingWallClock(row.endsAt)),
        enabled: row.enabled,
      }}
      onValuesChange={() => setWhy(null)}
      onFinish={async (values) => {
        const edit: ActivityEdit = {
          title: values.title ?? '',
          summary: values.summary ?? '',
          startsAt: values.startsAt ? fromBeijingWallClock(values.startsAt.toDate()) : 0,
          endsAt: values.endsAt ? fromBeijingWallClock(values.endsAt.toDate()) : 0,
          enabled: values.enabled,
        }
        return saveChecked(edit, validateActivityEdit(edit), save.mutateAsync, setWhy)
      }}
    >
      <ProFormText
        name="title"
        label="活动标题"
        fieldProps={{ maxLength: ACTIVITY_TITLE_MAX, showCount: true }}
        rules={[{ required: true, message: '请输入活动标题' }]}
      />
      <ProFormText
        name="summary"
        label="活动简介"
        extra="活动列表和活动页标题下的一行字；改了秒杀价时记得一起改"
        fieldProps={{ maxLength: ACTIVITY_SUMMARY_MAX, showCount: true }}
        rules={[{ required: true, message: '请输入活动简介' }]}
      />
      <ProFormDateTimePicker
        name="startsAt"
        label="开始时间（北京时间）"
        rules={[{ required: true, message: '请选择开始时间' }]}
      />
      <ProFormDateTimePicker
        name="endsAt"
        label="结束时间（北京时间）"
        extra="结束后用户端不再列出该活动，秒杀停止下单"
        rules={[{ required: true, message: '请选择结束时间' }]}
      />
      <ProFormSwitch
        name="enabled"
        label="上线"
        extra="下线后用户端不再显示该活动，秒杀停止下单；已下的订单不受影响"
      />
      {why && (
        <Typography.Text type="danger" role="alert">
          {why}
        </Typography.Text>
      )}
    </ModalForm>
  )
}
