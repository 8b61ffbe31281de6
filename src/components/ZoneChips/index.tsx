import { View, Text } from '@tarojs/components'
import type { ZoneStock } from '../../../types/api'
import { InventoryStatus } from '@/domain/enums'
import styles from './index.module.scss'

/** Inventory status colours: green plenty, blue normal, orange few left, grey sold out. */
export const INVENTORY_COLORS: Record<number, string> = {
  [InventoryStatus.adequate]: '#007D59',
  [InventoryStatus.normal]: '#2F5FE8',
  [InventoryStatus.nervous]: '#B34D00',
  [InventoryStatus.insufficient]: '#646A78',
}

export const isZoneSoldOut = (zone: ZoneStock) =>
  zone.inventoryStatus === InventoryStatus.insufficient

/** A zone's name with its stock status in the status colour. */
export function ZoneStatus({ zone }: { zone: ZoneStock }) {
  return (
    <View className={styles.status}>
      <Text>{zone.name}</Text>
      <Text style={{ color: INVENTORY_COLORS[zone.inventoryStatus] }}>{zone.statusText}</Text>
    </View>
  )
}

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
