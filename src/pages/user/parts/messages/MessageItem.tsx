import { View, Text } from '@tarojs/components'
import { timeAgo } from '@/domain/formatters'
import styles from './MessageItem.module.scss'

export interface MessageView {
  id: number
  title: string
  content: string
  read: boolean
  createdAt: number
}

export interface MessageItemProps {
  message: MessageView
  expanded: boolean
  onToggle: (message: MessageView) => void
}

/** One message: title, relative time and an unread dot; tapping shows the whole content. */
export default function MessageItem({ message, expanded, onToggle }: MessageItemProps) {
  return (
    <View
      className={styles.item}
      role="button"
      aria-expanded={expanded}
      onClick={() => onToggle(message)}
    >
      <View className={styles.head}>
        {!message.read && (
          <View className={styles.dot}>
            <Text className="sr-only">未读</Text>
          </View>
        )}
        <Text className={styles.title}>{message.title}</Text>
        <Text className={styles.time}>{timeAgo(message.createdAt, Date.now())}</Text>
      </View>
      <Text className={expanded ? styles.content : styles.preview}>{message.content}</Text>
    </View>
  )
}
