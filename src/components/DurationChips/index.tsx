import { View, Text } from '@tarojs/components'
import type { GoodsPrice } from '@/types/api'
import { formatYuan } from '@/domain/formatters'
import { activityRunning, unitPrice } from '@/domain/pricing'
import styles from './index.module.scss'

interface DurationChipsProps {
  prices: GoodsPrice[]
  value?: number
  onChange: (priceId: number) => void
  now: number
}

/** Choose a duration: each chip shows the price paid now and the old price struck through. */
export default function DurationChips({ prices, value, onChange, now }: DurationChipsProps) {
  return (
    <View className={styles.chips} role="radiogroup" aria-label="选择时长">
      {prices.map((price) => {
        const selected = price.priceId === value
        const current = unitPrice(price, { firstPurchaseEligible: false, now })
        const old = Math.max(price.oldGoodPrice ?? 0, price.goodPrice)
        return (
          <View
            key={price.priceId}
            role="radio"
            aria-checked={selected}
            aria-label={price.durationLabel}
            className={`${styles.chip} ${selected ? styles.selected : ''}`}
            onClick={() => onChange(price.priceId)}
          >
            <Text className={styles.duration}>{price.durationLabel}</Text>
            <Text className={styles.price}>{formatYuan(current)}</Text>
            {old > current && <Text className={styles.old}>{formatYuan(old)}</Text>}
            {activityRunning(price, now) && <Text className={styles.badge}>活动</Text>}
          </View>
        )
      })}
    </View>
  )
}
