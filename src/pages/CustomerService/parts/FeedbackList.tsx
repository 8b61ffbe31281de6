import { useCallback } from 'react'
import { View, Text } from '@tarojs/components'
import { Tag } from '@nutui/nutui-react-taro'
import { listFeedback } from '@/api/common'
import { formatDateTime } from '@/domain/formatters'
import PagedList from '@/components/PagedList'
import type { FeedbackTicket } from '@/types/api'
import { FEEDBACK_STATUS } from './feedback-rules'
import styles from '../index.module.scss'

/** 我的反馈: the user's tickets, newest first, with status and any reply. */
export default function FeedbackList({ reloadKey }: { reloadKey: number }) {
  const load = useCallback((page: number, rows: number) => listFeedback(page, rows), [])
  return (
    <PagedList<FeedbackTicket>
      className={styles.feedbackList}
      load={load}
      reloadKey={reloadKey}
      keyOf={(ticket) => ticket.id}
      emptyText="暂无反馈记录"
      renderItem={(ticket) => {
        const status = FEEDBACK_STATUS[ticket.status] ?? FEEDBACK_STATUS[0]
        return (
          <View className={styles.ticket}>
            <View className={styles.ticketHead}>
              <Text className={styles.muted}>{formatDateTime(ticket.createdAt)}</Text>
              <Tag type={status.type} plain>
                {status.label}
              </Tag>
            </View>
            <Text className={styles.ticketContent}>{ticket.content}</Text>
            {ticket.reply && <Text className={styles.reply}>客服回复：{ticket.reply}</Text>}
          </View>
        )
      }}
    />
  )
}
