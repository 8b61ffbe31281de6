import { useState } from 'react'
import { View, Text, Textarea } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import FormRow from '@/components/FormRow'
import { submitFeedback } from '@/api/common'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import { CONTACT_MAX, FEEDBACK_MAX, checkFeedback } from './feedback-rules'
import styles from '../index.module.scss'

/** 意见反馈: 5–500 characters with a counter and an optional contact. */
export default function FeedbackForm({ onSent }: { onSent: () => void }) {
  const [content, setContent] = useState('')
  const [contact, setContact] = useState('')
  const [sending, setSending] = useState(false)

  const send = async () => {
    const problem = checkFeedback(content, contact)
    if (problem) return toast(problem)
    setSending(true)
    try {
      await submitFeedback({
        content: content.trim(),
        ...(contact.trim() ? { contact: contact.trim() } : {}),
      })
      toastSuccess('反馈已提交')
      setContent('')
      setContact('')
      onSent()
    } catch (error) {
      toastError(error)
    } finally {
      setSending(false)
    }
  }

  return (
    <View className={styles.card}>
      <Text className={styles.cardTitle}>意见反馈</Text>
      <Textarea
        className={styles.textarea}
        value={content}
        onInput={(e) => setContent(e.detail.value)}
        maxlength={FEEDBACK_MAX}
        placeholder="请描述您遇到的问题或建议（5-500字）"
        aria-label="反馈内容"
      />
      <Text className={styles.counter}>
        {[...content].length}/{FEEDBACK_MAX}
      </Text>
      <FormRow
        label="联系方式"
        hideLabel
        maxLength={CONTACT_MAX}
        placeholder="联系方式（选填，手机号或微信号）"
        value={contact}
        onChange={setContact}
      />
      <Button type="primary" block loading={sending} onClick={send} className={styles.submit}>
        提交反馈
      </Button>
    </View>
  )
}
