import { useState } from 'react'
import { View } from '@tarojs/components'
import { Tabs } from '@nutui/nutui-react-taro'
import ContactCard from './parts/ContactCard'
import FaqList from './parts/FaqList'
import FeedbackForm from './parts/FeedbackForm'
import FeedbackList from './parts/FeedbackList'
import styles from './index.module.scss'

type Tab = 'help' | 'feedback' | 'mine'

/** 联系客服: hotline and online service with the FAQ, a feedback form, and the user's own tickets. */
export default function CustomerService() {
  const [tab, setTab] = useState<Tab>('help')
  const [reloadKey, setReloadKey] = useState(0)

  return (
    <View className={styles.page}>
      <Tabs value={tab} onChange={(value) => setTab(value as Tab)}>
        <Tabs.TabPane title="帮助与客服" value="help" />
        <Tabs.TabPane title="意见反馈" value="feedback" />
        <Tabs.TabPane title="我的反馈" value="mine" />
      </Tabs>
      {tab === 'help' && (
        <View className={styles.body}>
          <ContactCard />
          <FaqList />
        </View>
      )}
      {tab === 'feedback' && (
        <View className={styles.body}>
          <FeedbackForm
            onSent={() => {
              setReloadKey((k) => k + 1)
              setTab('mine')
            }}
          />
        </View>
      )}
      {tab === 'mine' && <FeedbackList reloadKey={reloadKey} />}
    </View>
  )
}
