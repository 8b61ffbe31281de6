import type { Goods, GoodsLevelGroup } from '@/types/api'
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
 * into 创建云机's document (render-level-goods.tsx). HTML elements (plugin-html makes them view and
 * text in the mini-program): on H5 each Taro View or Text is a web component with start-up work of its
 * own, and the cards' hundred of them, rendered as the app takes over the page, showed in Lighthouse's
 * blocking time (docs/performance.md).
 */
export default function LevelGoods({ group, now, onOpen }: LevelGoodsProps) {
  return (
    <div className={styles.levelGoods}>
      {group.description && <span className={styles.desc}>{group.description}</span>}
      {group.goods.map((goods) => (
        <GoodsCard key={goods.goodId} goods={goods} now={now} onOpen={onOpen} />
      ))}
    </div>
  )
}
