/**
 * 创建云机's document is made with the live catalogue (plugins/level-goods-document.ts): the page's
 * own components, bundled for Node as the H5 build bundles them (scripts/lib/level-goods-renderer.mjs),
 * render the goods list the API sends at that moment into the template the build leaves.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { test, type TestContext } from 'node:test'
import { eq, inArray } from 'drizzle-orm'
import { buildLevelGoodsRenderer } from '../../../scripts/lib/level-goods-renderer.mjs'
import { goods, goodsPrices, goodsStockSlots } from '../../src/db/schema'
import { REFERENCE_TTL_MS } from '../../src/services/catalogue/reference-data'
import { fenToYuan } from '#domain/formatters'
import { unitPrice } from '#domain/pricing'
import type { Goods, GoodsLevelGroup } from '../../src/contract/goods'
import { buildTestApp, type TestApp } from '../helpers/test-app'

const INDEX = '<!doctype html><div id="app"></div>'
const TEMPLATE =
  '<!doctype html><div id="prerendered"><taro-view-core class="page"><!--level-goods--></taro-view-core></div><div id="app"></div>'

async function siteWithCreateTemplate(t: TestContext) {
  const h5Dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-h5-'))
  t.after(() => fs.rmSync(h5Dist, { recursive: true, force: true }))
  fs.writeFileSync(path.join(h5Dist, 'index.html'), INDEX)
  fs.mkdirSync(path.join(h5Dist, 'prerendered/pages/Home'), { recursive: true })
  fs.writeFileSync(path.join(h5Dist, 'prerendered/pages/Home/create.template.html'), TEMPLATE)
  await buildLevelGoodsRenderer(h5Dist)
  return buildTestApp(t, { config: { h5Dist } })
}

async function createDocument(ta: TestApp, acceptEncoding = 'identity', query = '') {
  const response = await ta.app.inject({
    method: 'GET',
    url: `/pages/Home/create${query}`,
    headers: { accept: 'text/html', 'accept-encoding': acceptEncoding },
  })
  assert.equal(response.statusCode, 200)
  assert.equal(response.headers['cache-control'], 'no-cache')
  const encoding = response.headers['content-encoding']
  if (encoding === 'br') return zlib.brotliDecompressSync(response.rawPayload).toString()
  if (encoding === 'gzip') return zlib.gunzipSync(response.rawPayload).toString()
  return response.body
}

async function openingLevel(ta: TestApp) {
  const response = await ta.app.inject({
    method: 'GET',
    url: '/vmcloud/api/CommodityGroup/getGoodsList',
  })
  const levels = response.json().data as GoodsLevelGroup[]
  return levels.find((level) => level.level === 1)!
}

/** What the document shows of the catalogue: the text of each element, in order. */
const texts = (html: string) =>
  [...html.matchAll(/>([^<>]+)</g)].map((match) => match[1]).filter((text) => text.trim())

test('创建云机 arrives with the opening level of the live catalogue, as the API lists it', async (t) => {
  const ta = await siteWithCreateTemplate(t)
  const level = await openingLevel(ta)
  assert.ok(level.goods.length >= 2)
  const html = await createDocument(ta, 'gzip, deflate, br')
  assert.ok(html.startsWith('<!doctype html><div id="prerendered"><taro-view-core class="page">'))
  assert.ok(html.endsWith('</taro-view-core></div><div id="app"></div>'))
  assert.equal((html.match(/role="button"/g) ?? []).length, level.goods.length)
  const shown = texts(html)
  assert.equal(shown[0], level.description)
  for (const item of level.goods) {
    assert.ok(shown.includes(item.name), item.name)
    assert.ok(shown.includes(item.configName), item.configName)
    // from its month's price, for a visitor (no first-purchase price)
    const month = item.prices.find((price) => price.goodTime === 30)!
    const from = `¥${fenToYuan(unitPrice(month, { firstPurchaseEligible: false, now: Date.now() }))}`
    assert.ok(html.includes(`>${from}<`), `${item.name} from ${from}`)
    for (const zone of item.zones) assert.ok(shown.includes(zone.statusText))
  }
  // the build's class names for the page's CSS modules (config/css-module-names.js)
  assert.match(
    html,
    /class="catalogue-module__card___[\w-]{5}" style="border-top-color:#[0-9A-Fa-f]{6}"/,
  )
  // any query, any encoding: the same document
  assert.equal(await createDocument(ta, 'identity', '?channelCode=abc'), html)
  assert.equal(await createDocument(ta, 'gzip'), html)
})

test('a stock change shows in the next document, a price edit once the catalogue is read again', async (t) => {
  const ta = await siteWithCreateTemplate(t)
  const [first] = (await openingLevel(ta)).goods
  const { db } = ta.database
  await db.update(goodsStockSlots).set({ stock: 0 }).where(eq(goodsStockSlots.goodId, first.goodId))
  const [soldOut] = (await openingLevel(ta)).goods
  const zones = (item: Goods) => item.zones.flatMap((zone) => [zone.name, zone.statusText])
  assert.notDeepEqual(zones(soldOut), zones(first))
  // the first card ends with each zone's name and status
  const card = (html: string) => html.split('role="button"')[1]
  assert.deepEqual(
    texts(card(await createDocument(ta))).slice(-zones(soldOut).length),
    zones(soldOut),
  )

  await db
    .update(goodsPrices)
    .set({
      goodPrice: 12345,
      oldGoodPrice: null,
      firstPurchasePrice: null,
      activityId: null,
      activityPrice: null,
    })
    .where(eq(goodsPrices.goodId, first.goodId))
  assert.ok(
    !(await createDocument(ta)).includes('¥123.45'),
    'the catalogue read is kept for REFERENCE_TTL_MS',
  )
  ta.clock.advance(REFERENCE_TTL_MS)
  assert.ok(card(await createDocument(ta)).includes('>¥123.45<'))
})

test('with nothing on sale in the opening level, 创建云机 gets index.html and says so itself', async (t) => {
  const ta = await siteWithCreateTemplate(t)
  const level = await openingLevel(ta)
  await ta.database.db
    .update(goods)
    .set({ onSale: false })
    .where(
      inArray(
        goods.id,
        level.goods.map((item) => item.goodId),
      ),
    )
  ta.clock.advance(REFERENCE_TTL_MS)
  assert.equal((await openingLevel(ta)).goods.length, 0)
  assert.equal(await createDocument(ta, 'br'), INDEX)
})
