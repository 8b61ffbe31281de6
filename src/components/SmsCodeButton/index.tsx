import { useEffect, useState } from 'react'
import { Button } from '@nutui/nutui-react-taro'
import { SMS_COUNTDOWN_S } from '@/constants/limits'

export interface SmsCodeButtonProps {
  /** sends the code; resolve to start the 60 s countdown, reject to allow another try at once */
  onSend: () => Promise<unknown>
  disabled?: boolean
}

/** "获取验证码" with the SPEC's 60 s resend countdown. */
export default function SmsCodeButton({ onSend, disabled }: SmsCodeButtonProps) {
  const [left, setLeft] = useState(0)
  const [sending, setSending] = useState(false)

  useEffect(() => {
    if (left <= 0) return
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000)
    return () => clearTimeout(timer)
  }, [left])

  const send = async () => {
    if (left > 0 || sending) return
    setSending(true)
    try {
      await onSend()
      setLeft(SMS_COUNTDOWN_S)
    } catch {
      // the caller already showed why; the button stays available
    } finally {
      setSending(false)
    }
  }

  return (
    <Button
      size="small"
      type="primary"
      fill="none"
      disabled={disabled || left > 0 || sending}
      onClick={send}
      aria-label="获取验证码"
    >
      {left > 0 ? `${left}s后重新获取` : sending ? '发送中' : '获取验证码'}
    </Button>
  )
}
