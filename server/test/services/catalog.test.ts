import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SEED_ACTIVITY_ENDS_AT } from '../../src/db/seed/catalogue'
import {
  GOODS,
  ZONES,
  commerceApp,
  createCloudOrder,
  newBuyer,
  priceOf,
  quote,
  setStock,
} from '../helpers/commerce'
import { get, post } from '../helpers/test-app'
import type { Goods, GoodsLevelGroup, Quote, ZoneStock } from '../../src/contract/goods'

test('the goods list has the five levels with colours, goods of both versions and six durations', async (t) => {
  const ta = await commerceApp(t)
  const reply = await get<GoodsLevelGroup[]>(ta.app, '/CommodityGroup/getGoodsList')
  assert.equal(reply.code, 200)
  assert.deepEqual(
    reply.data.map((l) => [l.level, l.name, l.themeColor]),
    [
      [1, '畅享版', '#2F5FE8'],
      [2, '尊享版', '#6A45F0'],
      [3, '旗舰版', '#B34D00'],
      [4, '至尊版', '#8F6B00'],
      [5, '游戏定制版', '#007D59'],
    ],
  )
  for (const level of reply.data) {
    assert.ok(level.goods.length >= 2, `level ${level.level} has several goods`)
    assert.deepEqual(new Set(level.goods.map((g) => g.androidVersion)), new Set(['B', 'H']))
    for (const goods of level.goods) {
      assert.deepEqual(
        goods.prices.map((p) => p.goodTime),
        [1, 7, 30, 90, 180, 365],
      )
      assert.equal(goods.zones.length, 4)
    }
  }
  const enjoy = reply.data[0].goods.find((g) => g.goodId === GOODS.enjoyB)!
  assert.equal(enjoy.androidVersionLabel, '安卓10/B')
  assert.equal(enjoy.imageTypeLabel, '基础镜像')
  assert.deepEqual(enjoy.permissions, ['upOrDownConfig', 'zoneChangeOpType'])
  const monthly = enjoy.prices.find((p) => p.goodTime === 30)!
  assert.equal(monthly.durationLabel, '1个月')
  assert.equal(monthly.goodPrice, 2990)
  assert.equal(monthly.firstPurchasePrice, 1500)
  assert.equal(monthly.firstCount, 1)
  const yearly = enjoy.prices.find((p) => p.goodTime === 365)!
  assert.ok(yearly.oldGoodPrice! > yearly.goodPrice, 'long terms show a struck-through price')
})

test('the goods list filters by level and android version', async (t) => {
  const ta = await commerceApp(t)
  const level3 = await get<GoodsLevelGroup[]>(ta.app, '/CommodityGroup/getGoodsList', undefined, {
    level: '3',
  })
  assert.deepEqual(
    level3.data.map((l) => l.level),
    [3],
  )
  const h = await get<GoodsLevelGroup[]>(ta.app, '/CommodityGroup/getGoodsList', undefined, {
    androidVersion: 'H',
  })
  for (const level of h.data) {
    assert.ok(level.goods.every((g) => g.androidVersion === 'H'))
  }
  const bad = await get<GoodsLevelGroup[]>(ta.app, '/CommodityGroup/getGoodsList', undefined, {
    level: '9',
  })
  assert.equal(bad.code, 400)
  assert.match(bad.msg, /level/)
})

test('goods details show the running activity and per-zone stock status', async (t) => {
  const ta = await commerceApp(t)
  const reply = await get<Goods>(ta.app, '/CommodityGroup/getGoodsDetail', undefined, {
    goodId: String(GOODS.flagshipB),
  })
  assert.equal(reply.code, 200)
  const monthly = reply.data.prices.find((p) => p.goodTime === 30)!
  assert.equal(monthly.activityRunning, true)
  assert.equal(monthly.activityPrice, 4890)
  assert.deepEqual(
    reply.data.zones.map((z) => [z.name, z.inventoryStatus, z.statusText]),
    [
      ['华东-上海', 1, '充足'],
      ['华南-广州', 1, '充足'],
      ['华北-北京', 2, '正常'],
      ['西南-成都', 3, '紧张'],
    ],
  )
  const missing = await get<Goods>(ta.app, '/CommodityGroup/getGoodsDetail', undefined, {
    goodId: '999',
  })
  assert.equal(missing.code, 1022)
  assert.equal(missing.msg, '商品不存在')
  const bad = await get<Goods>(ta.app, '/CommodityGroup/getGoodsDetail', undefined, {
    goodId: 'abc',
  })
  assert.equal(bad.code, 400)
})

test('the goods list shows stock as it is now and activities as they run, filters included', async (t) => {
  const ta = await commerceApp(t)
  const chengdu = async (query?: Record<string, string>) => {
    const reply = await get<GoodsLevelGroup[]>(
      ta.app,
      '/CommodityGroup/getGoodsList',
      undefined,
      query,
    )
    assert.equal(reply.code, 200)
    const goods = reply.data.flatMap((l) => l.goods).find((g) => g.goodId === GOODS.enjoyB)
    return goods?.zones.find((z) => z.zoneId === ZONES.chengdu)!.statusText
  }
  const running = async () => {
    const reply = await get<GoodsLevelGroup[]>(ta.app, '/CommodityGroup/getGoodsList')
    const goods = reply.data.flatMap((l) => l.goods).find((g) => g.goodId === GOODS.flagshipB)
    return goods!.prices.find((p) => p.goodTime === 30)!.activityRunning
  }
  assert.equal(await chengdu(), '紧张')
  assert.equal(await chengdu({ level: '1' }), '紧张')
  const buyer = await newBuyer(ta)
  for (let bought = 0; bought < 3; bought++) {
    const order = await createCloudOrder(ta, buyer, { zoneId: ZONES.chengdu })
    assert.equal(order.code, 200, order.msg)
  }
  assert.equal(await chengdu(), '售罄', 'the units the orders took')
  assert.equal(await chengdu({ level: '1' }), '售罄')
  await setStock(ta, GOODS.enjoyB, ZONES.chengdu, 60)
  assert.equal(await chengdu(), '充足', 'stock changed by an operator shows at once')
  assert.equal(await chengdu({ androidVersion: 'H' }), undefined, 'enjoyB is a B goods')

  ta.clock.advance(SEED_ACTIVITY_ENDS_AT.getTime() - ta.clock.now().getTime() - 1_000)
  assert.equal(await running(), true)
  ta.clock.advance(1_000)
  assert.equal(await running(), false, 'an activity that ended is shown as ended at once')
  const levels = await ta.app.services.goodsList.listLevels({})
  const json = await ta.app.services.goodsList.listLevelsJson({})
  assert.deepEqual(JSON.parse(json.toString('utf8')), levels, 'the cached JSON is the list')
})

test('zones show 售罄 where a goods is sold out, and a summary without goods', async (t) => {
  const ta = await commerceApp(t)
  const soldOutGoods = 404
  const zones = await get<ZoneStock[]>(ta.app, '/CommodityGroup/getZones', undefined, {
    goodId: String(soldOutGoods),
  })
  const beijing = zones.data.find((z) => z.zoneId === ZONES.beijing)!
  assert.deepEqual([beijing.inventoryStatus, beijing.statusText], [4, '售罄'])
  const all = await get<ZoneStock[]>(ta.app, '/CommodityGroup/getZones')
  assert.equal(all.data.length, 4)
  assert.ok(all.data.every((z) => z.inventoryStatus === 1))
})

test('a quote for new phones gives a visitor the first-purchase price on the first unit only', async (t) => {
  const ta = await commerceApp(t)
  const q = await quote(ta, undefined, {
    kind: 'new',
    goodId: GOODS.enjoyB,
    priceId: priceOf(GOODS.enjoyB, 30),
    quantity: 2,
  })
  assert.equal(q.total, 1500 + 2990)
  assert.deepEqual(
    q.lines.map((l) => [l.label, l.unitPrice, l.quantity]),
    [
      ['首购价', 1500, 1],
      ['原价', 2990, 1],
    ],
  )
})

test('after a first order the same quote is at the normal price', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const first = await createCloudOrder(ta, buyer)
  assert.equal(first.code, 200, first.msg)
  assert.equal(first.data.amount, 1500)
  const q = await quote(ta, buyer, {
    kind: 'new',
    goodId: GOODS.enjoyB,
    priceId: priceOf(GOODS.enjoyB, 30),
    quantity: 1,
  })
  assert.equal(q.total, 2990)
})

test('an activity price applies to every unit, and activation codes never get a first-purchase price', async (t) => {
  const ta = await commerceApp(t)
  const activity = await quote(ta, undefined, {
    kind: 'new',
    goodId: GOODS.flagshipB,
    priceId: priceOf(GOODS.flagshipB, 30),
    quantity: 3,
  })
  assert.equal(activity.total, 3 * 4890)
  assert.equal(activity.lines[0].label, '活动价')
  const codes = await quote(ta, undefined, {
    kind: 'activationCode',
    goodId: GOODS.enjoyB,
    priceId: priceOf(GOODS.enjoyB, 30),
    quantity: 2,
  })
  assert.equal(codes.total, 2 * 2990)
})

test('quotes refuse bad quantities, foreign durations, unknown goods and anonymous renewals', async (t) => {
  const ta = await commerceApp(t)
  const base = { kind: 'new', goodId: GOODS.enjoyB, priceId: priceOf(GOODS.enjoyB, 30) }
  const zero = await post<Quote>(ta.app, '/CommodityGroup/getGoodPrice', { ...base, quantity: 0 })
  assert.deepEqual([zero.code, zero.msg], [1014, '购买数量至少为1'])
  const over = await post<Quote>(ta.app, '/CommodityGroup/getGoodPrice', { ...base, quantity: 51 })
  assert.deepEqual([over.code, over.msg], [1014, '单次最多购买50台'])
  const foreign = await post<Quote>(ta.app, '/CommodityGroup/getGoodPrice', {
    ...base,
    priceId: priceOf(GOODS.flagshipB, 30),
  })
  assert.equal(foreign.code, 1016)
  const unknown = await post<Quote>(ta.app, '/CommodityGroup/getGoodPrice', {
    ...base,
    goodId: 999,
  })
  assert.equal(unknown.code, 1022)
  const missing = await post<Quote>(ta.app, '/CommodityGroup/getGoodPrice', {
    kind: 'new',
    goodId: 101,
  })
  assert.deepEqual([missing.code, missing.msg], [1080, '缺少参数 priceId'])
  const renew = await post<Quote>(ta.app, '/CommodityGroup/getGoodPrice', {
    kind: 'renew',
    deviceIds: [1],
    priceId: priceOf(GOODS.enjoyB, 30),
  })
  assert.equal(renew.code, 2017)
})
