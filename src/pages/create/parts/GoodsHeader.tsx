import { View, Text } from '@tarojs/components'
import type { Goods } from '@/types/api'
import styles from './parts.module.scss'

/** Level, name and configuration of a goods, in the level's theme colour. */
export default function GoodsHeader({ goods }: { goods: Goods }) {
  return (
    <View className={styles.header} style={{ background: goods.themeColor }}>
      <Text className={styles.level}>{goods.levelName}</Text>
      <Text className={styles.title}>{goods.name}</Text>
      <Text>{goods.configName}</Text>
      <View className={styles.specs}>
        <Text>{goods.androidVersionLabel}</Text>
        <Text>{goods.imageTypeLabel}</Text>
        <Text>单次最多{goods.maxPerOrder}台</Text>
      </View>
    </View>
  )
}
