export const FEEDBACK_MIN = 5
export const FEEDBACK_MAX = 500
export const CONTACT_MAX = 64

/** Why the feedback cannot be sent yet (content 5–500 characters, contact optional), or null. */
export function checkFeedback(content: string, contact: string): string | null {
  const length = [...content.trim()].length
  if (length === 0) return '请输入反馈内容'
  if (length < FEEDBACK_MIN) return `反馈内容至少${FEEDBACK_MIN}个字`
  if (length > FEEDBACK_MAX) return `反馈内容不能超过${FEEDBACK_MAX}个字`
  if (contact.trim().length > CONTACT_MAX) return `联系方式不能超过${CONTACT_MAX}个字`
  return null
}

/** Ticket status of GET /customer/feedback/list. */
export const FEEDBACK_STATUS: Record<
  number,
  { label: string; type: 'warning' | 'success' | 'default' }
> = {
  0: { label: '待处理', type: 'warning' },
  1: { label: '已回复', type: 'success' },
  2: { label: '已关闭', type: 'default' },
}
