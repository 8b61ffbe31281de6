/**
 * A record page's action asked in a dialog: what it does (the children, above) and the operator's reason,
 * which the log records. A refusal keeps the dialog open for a correction.
 */
import type { ReactNode } from 'react'
import { ModalForm, ProFormTextArea } from '@ant-design/pro-components'

export default function ReasonDialog({
  title,
  trigger,
  okText,
  width = 480,
  danger = true,
  afterClose,
  reasonLabel = '原因（记入操作日志）',
  reasonMissing = '请填写原因',
  submit,
  children,
}: {
  title: string
  trigger: JSX.Element
  okText: string
  width?: number
  danger?: boolean
  afterClose?: () => void
  reasonLabel?: string
  reasonMissing?: string
  submit: (reason: string) => Promise<unknown>
  children: ReactNode
}) {
  return (
    <ModalForm<{ reason: string }>
      title={title}
      width={width}
      trigger={trigger}
      modalProps={{ destroyOnClose: true, okText, okButtonProps: { danger }, afterClose }}
      onFinish={async ({ reason }) => {
        try {
          await submit(reason)
          return true
        } catch {
          return false // the refusal shows; the dialog stays for a correction
        }
      }}
    >
      {children}
      <ProFormTextArea
        name="reason"
        label={reasonLabel}
        fieldProps={{ maxLength: 200, showCount: true }}
        rules={[{ required: true, whitespace: true, message: reasonMissing }]}
      />
    </ModalForm>
  )
}
