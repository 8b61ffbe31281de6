import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Tabs } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { PROTOCOLS, protocolIndex } from './parts/protocol-content'
import styles from './protocol.module.scss'

/** 用户协议 / 隐私政策: `type` query picks the tab, otherwise the last tab read on this device. */
function Protocol() {
  const { params } = useRouter()
  const { session } = useStores()
  const stored = session.policyTabIndex
  const [index, setIndex] = useState(() =>
    params.type ? protocolIndex(params.type) : PROTOCOLS[stored] ? stored : 0,
  )
  const doc = PROTOCOLS[index]

  const select = (value: number) => {
    setIndex(value)
    session.setPolicyTabIndex(value)
  }

  return (
    <View className={styles.page}>
      <Tabs value={index} onChange={(value) => select(Number(value))}>
        {PROTOCOLS.map((item, i) => (
          <Tabs.TabPane key={item.type} title={item.tab} value={i} />
        ))}
      </Tabs>
      <View className={styles.doc}>
        <View className={styles.title} role="heading" aria-level={1}>
          {doc.title}
        </View>
        <Text className={styles.updated}>更新日期：{doc.updatedAt}</Text>
        <Text className={styles.paragraph}>{doc.intro}</Text>
        {doc.sections.map((section) => (
          <View key={section.heading} className={styles.section}>
            <Text className={styles.heading}>{section.heading}</Text>
            {section.paragraphs.map((text) => (
              <Text key={text} className={styles.paragraph}>
                {text}
              </Text>
            ))}
          </View>
        ))}
      </View>
    </View>
  )
}

export default observer(Protocol)
