import { useDidShow } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Badge, Button, Cell } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { readMessages } from '@/api/message'
import { navigate } from '@/runtime/navigation'
import LinkCell from '@/components/LinkCell'
import { toastError, toastSuccess } from '@/runtime/feedback'
import { MESSAGE_CATEGORIES } from './parts/messages/message-categories'
import styles from './message.module.scss'

/** 消息中心: one entry per message category with its unread count, 全部已读 and the settings. */
function Message() {
  const { unread } = useStores()

  useDidShow(() => {
    unread.refresh()
  })

  const readAll = async () => {
    try {
      await readMessages({ all: true })
      await unread.refresh()
      toastSuccess('已全部标为已读')
    } catch (error) {
      toastError(error)
    }
  }

  return (
    <View className={styles.page}>
      <Cell.Group>
        {MESSAGE_CATEGORIES.map((category) => {
          const count = unread.byType(category.type)
          return (
            <LinkCell
              key={category.type}
              title={category.label}
              description={category.description}
              onClick={() => navigate('messageList', { type: category.type })}
              extra={count > 0 ? <Badge value={count} max={99} /> : undefined}
            />
          )
        })}
      </Cell.Group>
      <Cell.Group>
        <LinkCell title="消息设置" onClick={() => navigate('messageSet')} />
      </Cell.Group>
      <View className={styles.footer}>
        <Button block disabled={unread.total === 0} onClick={readAll}>
          全部已读
        </Button>
      </View>
    </View>
  )
}

export default observer(Message)
