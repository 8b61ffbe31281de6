import { useEffect, useState } from 'react'
import { Input } from '@tarojs/components'
import { DialogBox } from '@/components/Overlay'
import styles from './index.module.scss'

export interface PromptRequest {
  title: string
  /** the input's accessible name and placeholder */
  label: string
  placeholder?: string
  initial?: string
  maxLength?: number
  /** null when the value is fine, else the message shown (the dialog stays open) */
  validate: (value: string) => string | null
  /** runs the change; a rejection is shown and keeps the dialog open */
  onConfirm: (value: string) => Promise<unknown>
}

/** One text field in a dialog: rename, open a URL, uninstall an app, name a group. */
export default function PromptDialog({
  request,
  onClose,
}: {
  request: PromptRequest | null
  onClose: () => void
}) {
  const [value, setValue] = useState('')
  useEffect(() => setValue(request?.initial ?? ''), [request])

  // a rejection's message shows inside the dialog (DialogBox), never as a toast over its buttons
  const confirm = async () => {
    if (!request) return
    const problem = request.validate(value)
    if (problem) throw new Error(problem)
    await request.onConfirm(value.trim())
  }

  return (
    <DialogBox
      visible={request !== null}
      title={request?.title}
      cancelText="取消"
      onConfirm={confirm}
      onClose={onClose}
    >
      <Input
        className={styles.promptInput}
        value={value}
        onInput={(event) => setValue(event.detail.value)}
        maxlength={request?.maxLength}
        placeholder={request?.placeholder ?? request?.label}
        aria-label={request?.label}
        focus
      />
    </DialogBox>
  )
}
