import { useCallback, useState } from 'react'
import Taro, { useLoad, useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { listMessages, readMessages } from '@/api/message'
import PagedList from '@/components/PagedList'
import { toastError, toastSuccess } from '@/runtime/feedback'
import MessageItem, { type MessageView } from './parts/messages/MessageItem'
import { categoryOf } from './parts/messages/message-categories'
import styles from './messageList.module.scss'

/** Messages of one category (`type` query), newest first; opening one marks it read. */
export default function MessageList() {
  const { unread } = useStores()
  const { params } = useRouter()
  const category = categoryOf(params.type)
  const [expanded, setExpanded] = useState<number>()
  const [readIds, setReadIds] = useState<Set<number>>(new Set())
  const [reloadKey, setReloadKey] = useState(0)

  useLoad(() => {
    if (category) Taro.setNavigationBarTitle({ title: category.label })
  })

  const load = useCallback(
    (page: number, rows: number) => listMessages(page, category?.type, rows),
    [category?.type],
  )

  const toggle = (message: MessageView) => {
    setExpanded(expanded === message.id ? undefined : message.id)
    if (message.read || readIds.has(message.id)) return
    setReadIds((ids) => new Set(ids).add(message.id))
    readMessages({ ids: [message.id] })
      .then(() => unread.refresh())
      .catch(() => undefined) // best effort: if it fails the message is unread again on the next load
  }

  const readAll = async () => {
    try {
      await readMessages(category ? { type: category.type } : { all: true })
      await unread.refresh()
      toastSuccess('已全部标为已读')
      setReloadKey((k) => k + 1)
    } catch (error) {
      toastError(error)
    }
  }

  return (
    <View className={styles.page}>
      <View className={styles.toolbar}>
        <Button size="small" fill="none" onClick={readAll}>
          全部已读
        </Button>
      </View>
      <PagedList<MessageView>
        className={styles.list}
        load={load}
        reloadKey={reloadKey}
        keyOf={(message) => message.id}
        emptyText="暂无消息"
        renderItem={(message) => (
          <MessageItem
            message={{ ...message, read: message.read || readIds.has(message.id) }}
            expanded={expanded === message.id}
            onToggle={toggle}
          />
        )}
      />
    </View>
  )
}
