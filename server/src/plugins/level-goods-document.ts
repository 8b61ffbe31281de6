import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { GoodsLevelGroup } from '../contract/goods'
import { ROUTES } from '#constants/routes'
import {
  LEVEL_GOODS_SLOT,
  levelGoodsRenderer,
  prerenderedTemplate,
} from '../../../shared/prerendered.mjs'
import type { KeptBody } from './compression'

export const CREATE_PAGE = `/${ROUTES.create.path}`

interface Renderer {
  renderOpeningLevel(levels: GoodsLevelGroup[], now: number): string | null
}

/**
 * 创建云机's document with the opening level of the live catalogue in it (the page's largest
 * paint is the catalogue, which otherwise waits for the app's scripts and then the goods list). The
 * H5 build leaves a template, the page prerendered around the catalogue, and the page's own
 * components bundled for Node (scripts/prerender-h5.mjs); the catalogue is the goods list the API
 * sends at that moment. Null when the build has neither (built without Chromium): the page then
 * gets index.html like any other.
 */
export function levelGoodsDocument(
  h5Dist: string,
  goodsListJson: () => Promise<Buffer>,
  now: () => number,
): (() => Promise<KeptBody | null>) | null {
  const templateFile = prerenderedTemplate(h5Dist, CREATE_PAGE)
  const rendererFile = levelGoodsRenderer(h5Dist)
  if (!fs.existsSync(templateFile) || !fs.existsSync(rendererFile)) return null
  const [before, after, ...more] = fs
    .readFileSync(templateFile, 'utf8')
    .split(`<!--${LEVEL_GOODS_SLOT}-->`)
  if (after === undefined || more.length > 0)
    throw new Error(`${templateFile}: one <!--${LEVEL_GOODS_SLOT}--> expected`)
  const renderer = createRequire(__filename)(rendererFile) as Renderer
  // The goods service serialises one list per stock-status and activity state and hands out the
  // same buffer while that state lasts: one document per such list.
  const made = new WeakMap<Buffer, KeptBody | null>()
  return async () => {
    const json = await goodsListJson()
    let document = made.get(json)
    if (document === undefined) {
      const levels = JSON.parse(json.toString('utf8')) as GoodsLevelGroup[]
      const markup = renderer.renderOpeningLevel(levels, now())
      document = markup === null ? null : { plain: Buffer.from(before + markup + after) }
      made.set(json, document)
    }
    return document
  }
}
