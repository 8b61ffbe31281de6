/**
 * 修改密码 in the header, for every role: the current password, the new one and a TOTP code
 * (POST /operators/me/password). The server's refusals are shown in the form: 4007 (the current password
 * or the code is wrong) and a new password too short. Success ends the operator's other sessions.
 */
import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { ModalForm, ProFormText } from '@ant-design/pro-components'
import { Alert, Button, message } from 'antd'
import {
  OPERATOR_PASSWORD_MAX,
  OPERATOR_PASSWORD_MIN,
  OPERATOR_PASSWORD_WEAK,
} from '#domain/console/operator-roles'
import type { ChangeOperatorPasswordBody } from '#console-contract'
import { adminApi, ApiError } from './api'

interface PasswordForm extends ChangeOperatorPasswordBody {
  confirm: string
}

/** The server's answer in words: its message, or the weak-password rule for a 400 on the new password. */
function refusalText(error: unknown): string {
  if (error instanceof ApiError && error.status === 400) return OPERATOR_PASSWORD_WEAK
  return error instanceof Error ? error.message : String(error)
}

export default function OwnPassword() {
  const [refusal, setRefusal] = useState<string | null>(null)
  const change = useMutation({
    mutationFn: (body: ChangeOperatorPasswordBody) => adminApi.changePassword(body),
    meta: { inlineError: true },
  })
  return (
    <ModalForm<PasswordForm>
      title="修改密码"
      width={440}
      trigger={<Button>修改密码</Button>}
      modalProps={{ destroyOnClose: true, okText: '确认修改', afterClose: () => setRefusal(null) }}
      onFinish={async ({ currentPassword, newPassword, totp }) => {
        setRefusal(null)
        try {
          await change.mutateAsync({ currentPassword, newPassword, totp: totp.trim() })
          void message.success('密码已修改，其他设备上的登录已退出')
          return true
        } catch (error) {
          if (error instanceof ApiError && error.signedOut) return true
          setRefusal(refusalText(error))
          return false
        }
      }}
    >
      {refusal ? (
        <Alert type="error" showIcon message={refusal} style={{ marginBottom: 16 }} />
      ) : null}
      <ProFormText.Password
        name="currentPassword"
        label="当前密码"
        fieldProps={{ autoComplete: 'current-password', maxLength: OPERATOR_PASSWORD_MAX }}
        rules={[{ required: true, message: '请输入当前密码' }]}
      />
      <ProFormText.Password
        name="newPassword"
        label="新密码"
        fieldProps={{ autoComplete: 'new-password', maxLength: OPERATOR_PASSWORD_MAX }}
        rules={[
          { required: true, message: '请输入新密码' },
          { min: OPERATOR_PASSWORD_MIN, message: OPERATOR_PASSWORD_WEAK },
        ]}
      />
      <ProFormText.Password
        name="confirm"
        label="确认新密码"
        dependencies={['newPassword']}
        fieldProps={{ autoComplete: 'new-password', maxLength: OPERATOR_PASSWORD_MAX }}
        rules={[
          { required: true, message: '请再次输入新密码' },
          ({ getFieldValue }) => ({
            validator: (_, value?: string) =>
              value === getFieldValue('newPassword')
                ? Promise.resolve()
                : Promise.reject(new Error('两次输入的新密码不一致')),
          }),
        ]}
      />
      <ProFormText
        name="totp"
        label="动态码"
        placeholder="身份验证器上的 6 位数字"
        fieldProps={{ autoComplete: 'one-time-code', inputMode: 'numeric', maxLength: 6 }}
        rules={[
          { required: true, message: '请输入动态码' },
          { pattern: /^\s*\d{6}\s*$/, message: '动态码是 6 位数字' },
        ]}
      />
    </ModalForm>
  )
}
