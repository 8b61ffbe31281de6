import type { ComponentProps } from 'react'
import { View } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import { ArrowRight } from '@nutui/icons-react-taro'
import styles from './index.module.scss'

/**
 * A Cell row that opens something: clickable, with the right arrow after its `extra` (NutUI 3's Cell
 * has no isLink; the arrow goes in `extra`).
 */
export default function LinkCell({ extra, ...props }: ComponentProps<typeof Cell>) {
  return (
    <Cell
      clickable
      align="center"
      {...props}
      extra={
        <View className={styles.extra}>
          {extra}
          <ArrowRight className={styles.arrow} size={12} />
        </View>
      }
    />
  )
}
