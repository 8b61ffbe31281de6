/** 发放: a template to pasted numbers, or to a segment (new users, phones about to expire) of N days. */
import { useState } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import {
  ModalForm,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormTextArea,
} from '@ant-design/pro-components'
import { App } from 'antd'
import type {
  CouponTemplateRow,
  IssueCouponBody,
  IssueCouponResult,
} from '#console-contract/coupons'
import { adminApi } from '../../../api'
import { COUPON_TEMPLATES_KEY } from './coupon-templates-key'

interface IssueForm {
  kind: 'numbers' | 'newUsers' | 'expiringPhones'
  numbers?: string
  days?: number
}

const newRequestId = () => crypto.randomUUID()

export default function IssueDialog({ template }: { template: CouponTemplateRow }) {
  const queryClient = useQueryClient()
  const { message, modal } = App.useApp()
  // One id per opening of the dialog: pressing 发放 again (or a retried call) gives nobody a second coupon.
  const [requestId, setRequestId] = useState(newRequestId)
  const issue = useMutation({
    mutationFn: (body: IssueCouponBody) => adminApi.issueCoupon(template.id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: COUPON_TEMPLATES_KEY }),
  })
  return (
    <ModalForm<IssueForm>
      title={`发放「${template.name}」`}
      width={520}
      trigger={<a>发放</a>}
      initialValues={{ kind: 'numbers', days: 7 }}
      onOpenChange={(open) => {
        if (open) setRequestId(newRequestId())
      }}
      modalProps={{ destroyOnClose: true, okText: '发放' }}
      onFinish={async (form) => {
        const target: IssueCouponBody['target'] =
          form.kind === 'numbers'
            ? {
                kind: 'numbers',
                numbers: (form.numbers ?? '').split(/\s+/).filter((line) => line !== ''),
              }
            : { kind: form.kind, days: form.days ?? 1 }
        let result: IssueCouponResult
        try {
          result = await issue.mutateAsync({ requestId, target })
        } catch {
          return false // the refusal's message is shown; the dialog stays
        }
        // the dialog closes; how many got it stays on screen, and the numbers without an account
        // in a notice the operator closes
        const issued = `「${template.name}」已发放 ${result.issued} 人`
        if (result.unknownNumbers.length > 0) {
          modal.info({
            title: issued,
            content: `以下号码没有账号，未发放：${result.unknownNumbers.join('、')}`,
            okText: '知道了',
          })
        } else {
          void message.success(issued)
        }
        return true
      }}
    >
      <ProFormRadio.Group
        name="kind"
        label="发放对象"
        options={[
          { value: 'numbers', label: '手机号' },
          { value: 'newUsers', label: '新用户' },
          { value: 'expiringPhones', label: '云手机即将到期的用户' },
        ]}
      />
      <IssueTargetFields />
    </ModalForm>
  )
}

/** The numbers box, or the N days of the segment. */
function IssueTargetFields() {
  return (
    <ProFormDependency name={['kind']}>
      {(values) =>
        (values.kind as IssueForm['kind']) === 'numbers' ? (
          <ProFormTextArea
            name="numbers"
            label="手机号（每行一个）"
            fieldProps={{ rows: 6 }}
            rules={[{ required: true, whitespace: true, message: '请填写手机号' }]}
          />
        ) : (
          <ProFormDigit
            name="days"
            label={values.kind === 'newUsers' ? '最近几天注册' : '几天内到期'}
            min={1}
            max={365}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true, message: '请填写天数' }]}
          />
        )
      }
    </ProFormDependency>
  )
}
