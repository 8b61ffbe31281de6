import type { ZoneStock } from '@/types/api'
import { InventoryStatus } from '@/domain/enums'
import styles from './index.module.scss'

/** Inventory status colours: green plenty, blue normal, orange few left, grey sold out. */
export const INVENTORY_COLORS: Record<number, string> = {
  [InventoryStatus.adequate]: '#007D59',
  [InventoryStatus.normal]: '#2F5FE8',
  [InventoryStatus.nervous]: '#B34D00',
  [InventoryStatus.insufficient]: '#646A78',
}

/**
 * A zone's name with its stock status in the status colour. HTML elements, as in the catalogue's cards
 * that show it (pages/Home/parts/catalogue/LevelGoods.tsx says why).
 */
export default function ZoneStatus({ zone }: { zone: ZoneStock }) {
  return (
    <div className={styles.status}>
      <span>{zone.name}</span>
      <span style={{ color: INVENTORY_COLORS[zone.inventoryStatus] }}>{zone.statusText}</span>
    </div>
  )
}
