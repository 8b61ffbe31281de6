import { View, Text } from '@tarojs/components'
import type { Goods, GoodsLevelGroup } from '../../../../types/api'
import { GoodsLevel } from '@/domain/enums'
import GoodsCard from './GoodsCard'
import styles from './catalogue.module.scss'

/** The level 创建云机 opens on. */
export const OPENING_LEVEL: number = GoodsLevel.enjoy

interface LevelGoodsProps {
  group: GoodsLevelGroup
  now: number
  onOpen: (goods: Goods) => void
}

/**
 * A level's description and its goods. On H5 the server also renders it, with the live catalogue,
 * into 创建云机's document (render-level-goods.tsx), so keep it to Taro's View and Text.
 */
export default function LevelGoods({ group, now, onOpen }: LevelGoodsProps) {
  return (
    <View className={styles.levelGoods}>
      {group.description && <Text className={styles.desc}>{group.description}</Text>}
      {group.goods.map((goods) => (
        <GoodsCard key={goods.goodId} goods={goods} now={now} onOpen={onOpen} />
      ))}
    </View>
  )
}
