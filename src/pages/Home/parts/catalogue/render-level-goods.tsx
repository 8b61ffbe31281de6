/**
 * Server side: the opening level of 创建云机 as HTML, for the page's document (the page's
 * largest paint is the catalogue, which otherwise waits for the app's scripts and the goods list).
 * scripts/lib/level-goods-renderer.mjs bundles this for Node with the build's class names; the server
 * fills in the live catalogue.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import type { GoodsLevelGroup } from '@/types/api'
import LevelGoods, { OPENING_LEVEL } from './LevelGoods'

/** Null when the opening level has no goods on sale: the page then says so itself. */
export function renderOpeningLevel(levels: GoodsLevelGroup[], now: number): string | null {
  const group = levels.find((candidate) => candidate.level === OPENING_LEVEL)
  if (!group?.goods.length) return null
  return renderToStaticMarkup(<LevelGoods group={group} now={now} onOpen={() => undefined} />)
}
