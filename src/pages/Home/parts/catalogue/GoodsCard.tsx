import type { Goods } from '@/types/api'
import ZoneStatus from '@/components/ZoneStatus'
import { formatYuan } from '@/domain/formatters'
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
    <div
      className={styles.card}
      style={{ borderTopColor: goods.themeColor }}
      role="button"
      onClick={() => onOpen(goods)}
    >
      <div className={styles.head}>
        <span className={styles.name}>{goods.name}</span>
        <div className={styles.badges}>
          {goodsBadges(goods.prices).map((badge) => (
            <span key={badge} className={styles.badge}>
              {badge}
            </span>
          ))}
        </div>
      </div>
      <span className={styles.config}>{goods.configName}</span>
      <div className={styles.tags}>
        <span className={styles.tag}>{goods.androidVersionLabel}</span>
        <span className={styles.tag}>{goods.imageTypeLabel}</span>
      </div>
      {from && (
        // each text one string: the server's rendering of this card (render-level-goods.tsx) has one
        // text node where JSX pieces make several, and Chromium drew the two a few pixels apart
        <div className={styles.price}>
          <span className={styles.current}>{formatYuan(from.current)}</span>
          <span>{`/${from.price.durationLabel} 起`}</span>
          {from.old !== null && <span className={styles.old}>{formatYuan(from.old)}</span>}
        </div>
      )}
      <div className={styles.zones}>
        {goods.zones.map((zone) => (
          <ZoneStatus key={zone.zoneId} zone={zone} />
        ))}
      </div>
    </div>
  )
}
