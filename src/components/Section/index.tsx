import type { ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import styles from './index.module.scss'

/** A titled white block of a form page. */
export default function Section(props: { title: string; children: ReactNode; extra?: ReactNode }) {
  return (
    <View className={styles.section}>
      <View className={styles.head}>
        <Text className={styles.title}>{props.title}</Text>
        {props.extra}
      </View>
      {props.children}
    </View>
  )
}
