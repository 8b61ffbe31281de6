import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import styles from './index.module.scss'

interface PageTabsProps {
  titles: readonly string[]
  value: number
  onChange: (index: number) => void
}

/**
 * A page's own tab bar (a form and its histories). NutUI's Tabs measures itself with a selector
 * query on every render, which these simple equal-width tabs do not need. A tab opens at its top.
 */
export default function PageTabs({ titles, value, onChange }: PageTabsProps) {
  const open = (index: number) => {
    onChange(index)
    void Taro.pageScrollTo({ scrollTop: 0, duration: 0 }).catch(() => undefined)
  }
  return (
    <View className={styles.tabs} role="tablist">
      {titles.map((title, i) => (
        <View
          key={title}
          role="tab"
          aria-selected={i === value}
          className={i === value ? styles.tabActive : styles.tab}
          onClick={() => open(i)}
        >
          {title}
        </View>
      ))}
    </View>
  )
}
