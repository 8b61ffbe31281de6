import { useState } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { Badge, Button, Cell } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { getUnreadCount, readMessages } from '@/services/message'
import { url } from '@/constants/routes'
import { toastError, toastSuccess } from '@/components/feedback'
import { MESSAGE_CATEGORIES, type UnreadKey } from './messages/message-categories'
import styles from './message.module.scss'

type Counts = Partial<Record<UnreadKey | 'longAll', number>>

/** 消息中心: one entry per message category with its unread count, 全部已读 and the settings. */
export default function Message() {
  const { unread } = useStores()
  const [counts, setCounts] = useState<Counts>({})

  const refresh = () =>
    getUnreadCount()
      .then((data) => {
        setCounts(data)
        unread.refresh().catch(() => undefined)
      })
      .catch(toastError)

  useDidShow(() => {
    refresh()
  })

  const readAll = async () => {
    try {
      await readMessages({ all: true })
      toastSuccess('已全部标为已读')
      await refresh()
    } catch (error) {
      toastError(error)
    }
  }

  return (
    <View className={styles.page}>
      <Cell.Group>
        {MESSAGE_CATEGORIES.map((category) => {
          const count = counts[category.unreadKey] ?? 0
          return (
            <Cell
              key={category.type}
              title={category.label}
              description={category.description}
              clickable
              onClick={() => Taro.navigateTo({ url: url('messageList', { type: category.type }) })}
              extra={count > 0 ? <Badge value={count} max={99} /> : undefined}
            />
          )
        })}
      </Cell.Group>
      <Cell.Group>
        <Cell
          title="消息设置"
          clickable
          onClick={() => Taro.navigateTo({ url: url('messageSet') })}
        />
      </Cell.Group>
      <View className={styles.footer}>
        <Button block disabled={!counts.longAll} onClick={readAll}>
          全部已读
        </Button>
      </View>
    </View>
  )
}
