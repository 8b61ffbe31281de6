import { View, Text } from '@tarojs/components'
import { Collapse } from '@nutui/nutui-react-taro'
import { FAQ } from './faq'
import styles from '../index.module.scss'

/** 常见问题, one answer open at a time. */
export default function FaqList() {
  return (
    <View className={styles.card}>
      <Text className={styles.cardTitle}>常见问题</Text>
      <Collapse accordion>
        {FAQ.map((item, index) => (
          <Collapse.Item key={item.question} name={String(index)} title={item.question}>
            <Text className={styles.answer}>{item.answer}</Text>
          </Collapse.Item>
        ))}
      </Collapse>
    </View>
  )
}
