import { View } from '@tarojs/components'
import type { ZoneStock } from '@/types/api'
import { isZoneSoldOut } from '@/domain/goods-selection'
import ZoneStatus from '@/components/ZoneStatus'
import styles from './index.module.scss'

interface ZoneChipsProps {
  zones: ZoneStock[]
  value?: number
  onChange: (zoneId: number) => void
}

/** Choose a zone; a sold-out zone is shown but cannot be chosen. */
export default function ZoneChips({ zones, value, onChange }: ZoneChipsProps) {
  return (
    <View className={styles.chips} role="radiogroup" aria-label="选择地区">
      {zones.map((zone) => {
        const soldOut = isZoneSoldOut(zone)
        const selected = zone.zoneId === value
        return (
          <View
            key={zone.zoneId}
            role="radio"
            aria-checked={selected}
            aria-disabled={soldOut}
            aria-label={`${zone.name} ${zone.statusText}`}
            className={`${styles.chip} ${selected ? styles.selected : ''} ${soldOut ? styles.disabled : ''}`}
            onClick={() => !soldOut && onChange(zone.zoneId)}
          >
            <ZoneStatus zone={zone} />
          </View>
        )
      })}
    </View>
  )
}
