import { View, Text } from '@tarojs/components'
import type { Goods } from '../../../../types/api'
import { ZoneStatus } from '@/components/ZoneChips'
import { fenToYuan } from '@/domain/formatters'
import { goodsBadges, priceFrom } from './price-from'
import styles from './catalogue.module.scss'

interface GoodsCardProps {
  goods: Goods
  now: number
  onOpen: (goods: Goods) => void
}

/** One configuration: what it is, what it costs from, and how much stock each zone has. */
export default function GoodsCard({ goods, now, onOpen }: GoodsCardProps) {
  const from = priceFrom(goods.prices, now)
  return (
    <View
      className={styles.card}
      style={{ borderTopColor: goods.themeColor }}
      role="button"
      onClick={() => onOpen(goods)}
    >
      <View className={styles.head}>
        <Text className={styles.name}>{goods.name}</Text>
        <View className={styles.badges}>
          {goodsBadges(goods.prices).map((badge) => (
            <Text key={badge} className={styles.badge}>
              {badge}
            </Text>
          ))}
        </View>
      </View>
      <Text className={styles.config}>{goods.configName}</Text>
      <View className={styles.tags}>
        <Text className={styles.tag}>{goods.androidVersionLabel}</Text>
        <Text className={styles.tag}>{goods.imageTypeLabel}</Text>
      </View>
      {from && (
        // each text one string: the server's rendering of this card (render-level-goods.tsx) has one
        // text node where JSX pieces make several, and Chromium spaces "¥" + "29.90" apart from "¥29.90"
        <View className={styles.price}>
          <Text className={styles.current}>{`¥${fenToYuan(from.current)}`}</Text>
          <Text>{`/${from.price.durationLabel} 起`}</Text>
          {from.old !== null && <Text className={styles.old}>{`¥${fenToYuan(from.old)}`}</Text>}
        </View>
      )}
      <View className={styles.zones}>
        {goods.zones.map((zone) => (
          <ZoneStatus key={zone.zoneId} zone={zone} />
        ))}
      </View>
    </View>
  )
}
