/** 通用配置: the texts the user site shows, checked by the server's rules before they are sent. */
import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { ProForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components'
import { Typography } from 'antd'
import {
  COMMON_CONFIG_FIELDS,
  validateCommonConfig,
  validateText,
  type CommonConfigEdit,
  type CommonConfigField,
} from '#domain/console/settings-edits'
import type { AdminCommonConfig } from '#console-contract/settings'
import { adminApi } from '../../../api'
import { saveChecked, type MutationOptions } from './settings-refusal'

export default function CommonConfigForm({
  row,
  editable,
  mutationOptions,
}: {
  row: AdminCommonConfig
  editable: boolean
  mutationOptions: MutationOptions
}) {
  const save = useMutation({
    mutationFn: (edit: CommonConfigEdit) =>
      adminApi.editCommonConfig({ version: row.version, ...edit }),
    ...mutationOptions,
  })
  const [why, setWhy] = useState<string | null>(null)
  const rule = (key: CommonConfigField) => ({
    validator: async (_rule: unknown, value: unknown) => {
      const { label, max } = COMMON_CONFIG_FIELDS[key]
      const broken = validateText(label, value ?? '', max)
      if (broken) throw new Error(broken)
    },
  })
  return (
    <ProForm<CommonConfigEdit>
      disabled={!editable}
      initialValues={{
        renewalReminderMsg: row.renewalReminderMsg,
        customerServicePhone: row.customerServicePhone,
        customerServiceHours: row.customerServiceHours,
      }}
      submitter={
        editable
          ? { searchConfig: { submitText: '保存通用配置' }, resetButtonProps: { children: '还原' } }
          : false
      }
      onValuesChange={() => setWhy(null)}
      onFinish={async (values) => {
        const edit: CommonConfigEdit = {
          renewalReminderMsg: values.renewalReminderMsg,
          customerServicePhone: values.customerServicePhone,
          customerServiceHours: values.customerServiceHours,
        }
        return saveChecked(edit, validateCommonConfig(edit), save.mutateAsync, setWhy)
      }}
    >
      <ProFormTextArea
        name="renewalReminderMsg"
        label={COMMON_CONFIG_FIELDS.renewalReminderMsg.label}
        extra="云手机到期后用户端提示续费的文字（单行）"
        fieldProps={{
          maxLength: COMMON_CONFIG_FIELDS.renewalReminderMsg.max,
          showCount: true,
          rows: 2,
        }}
        rules={[rule('renewalReminderMsg')]}
      />
      <ProFormText
        name="customerServicePhone"
        label={COMMON_CONFIG_FIELDS.customerServicePhone.label}
        extra="「联系客服」页显示的客服热线"
        fieldProps={{ maxLength: COMMON_CONFIG_FIELDS.customerServicePhone.max }}
        rules={[rule('customerServicePhone')]}
      />
      <ProFormText
        name="customerServiceHours"
        label={COMMON_CONFIG_FIELDS.customerServiceHours.label}
        extra="「联系客服」页显示的服务时间"
        fieldProps={{ maxLength: COMMON_CONFIG_FIELDS.customerServiceHours.max }}
        rules={[rule('customerServiceHours')]}
      />
      <ProForm.Item label="客户端版本">
        <Typography.Text>{row.appVersion}</Typography.Text>
        <Typography.Text type="secondary">（由服务器版本决定，不能修改）</Typography.Text>
      </ProForm.Item>
      {why && (
        <Typography.Paragraph type="danger" role="alert">
          {why}
        </Typography.Paragraph>
      )}
    </ProForm>
  )
}
