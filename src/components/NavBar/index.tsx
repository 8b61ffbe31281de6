import type { ReactNode } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import styles from './index.module.scss'

/**
 * Height of the system status bar and the capsule-aligned bar below it (custom navigation). A browser
 * page has no status bar of its own to leave room for.
 */
function barMetrics() {
  if (process.env.TARO_ENV === 'weapp') {
    const statusBarHeight = Taro.getWindowInfo().statusBarHeight ?? 0
    const menu = Taro.getMenuButtonBoundingClientRect()
    return { statusBarHeight, barHeight: (menu.top - statusBarHeight) * 2 + menu.height }
  }
  return { statusBarHeight: 0, barHeight: 44 }
}

/** Custom navigation bar for pages with `navigationStyle: 'custom'` (Home/index, web_instance). */
export default function NavBar({ title, right }: { title: string; right?: ReactNode }) {
  const { statusBarHeight, barHeight } = barMetrics()
  return (
    <View className={styles.nav} style={{ paddingTop: `${statusBarHeight}px` }}>
      <View className={styles.bar} style={{ height: `${barHeight}px` }}>
        <Text className={styles.title}>{title}</Text>
        {right && <View className={styles.right}>{right}</View>}
      </View>
    </View>
  )
}
