/**
 * 商品与价格: reading the catalogue, editing a price row, a goods on sale, a goods × zone's
 * stock — each route's roles (a table), the checkout's rules refusing bad edits, the audit row written
 * with the change, optimistic concurrency (4030), stock conservation against orders holding stock, and
 * the user site seeing an edit (this instance at once, another within REFERENCE_TTL_MS).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, desc, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode, ResultCode } from '#domain/result-codes'
import type { AuditPage } from '../../src/console/contract'
import type {
  AdminCatalogue,
  AdminGoodsRow,
  AdminPriceRow,
  AdminStockRow,
} from '../../src/console/contract/catalogue'
import type { GoodsLevelGroup } from '../../src/contract/goods'
import { goodsPrices, operatorAudit } from '../../src/db/schema'
import { ReferenceDataService, REFERENCE_TTL_MS } from '../../src/services/catalogue/reference-data'
import { adminCall, createOperator, signIn, type OperatorSession } from './helpers'
import {
  GOODS,
  ZONES,
  cancelOrder,
  commerceApp,
  createCloudOrder,
  newBuyer,
  priceOf,
  setStock,
  stockOf,
} from '../helpers/commerce'
import { get, post, type TestApp } from '../helpers/test-app'

const EDITORS: OperatorRole[] = ['admin', 'operations']

async function operator(ta: TestApp, role: OperatorRole, name = `cat-${role}`) {
  return signIn(ta, await createOperator(ta, name, role))
}

async function catalogue(ta: TestApp, as: OperatorSession): Promise<AdminCatalogue> {
  const reply = await adminCall<AdminCatalogue>(ta, 'GET', '/catalogue', { as })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

const goodsIn = (cat: AdminCatalogue, goodId: number): AdminGoodsRow => {
  const row = cat.goods.find((g) => g.id === goodId)
  assert.ok(row, `goods ${goodId} listed`)
  return row
}
const priceIn = (cat: AdminCatalogue, goodId: number, priceId: number): AdminPriceRow => {
  const row = goodsIn(cat, goodId).prices.find((p) => p.id === priceId)
  assert.ok(row, `price ${priceId} listed`)
  return row
}
const stockIn = (cat: AdminCatalogue, goodId: number, zoneId: number): AdminStockRow => {
  const row = goodsIn(cat, goodId).stock.find((s) => s.zoneId === zoneId)
  assert.ok(row)
  return row
}

/** The edit body of a price row as read, with `changes` on top. */
const priceBody = (row: AdminPriceRow, changes: Partial<AdminPriceRow> = {}) => {
  const { id: _id, goodTime: _t, activityId: _a, ...body } = { ...row, ...changes }
  return body
}

const editPrice = (ta: TestApp, as: OperatorSession, id: number, body: unknown) =>
  adminCall<AdminPriceRow>(ta, 'POST', `/catalogue/prices/${id}`, { as, body })
const editStock = (
  ta: TestApp,
  as: OperatorSession,
  goodId: number,
  zoneId: number,
  body: unknown,
) => adminCall<AdminStockRow>(ta, 'POST', `/catalogue/stock/${goodId}/${zoneId}`, { as, body })

async function listedPrice(ta: TestApp, goodId: number, priceId: number) {
  const reply = await get<GoodsLevelGroup[]>(ta.app, '/CommodityGroup/getGoodsList')
  assert.equal(reply.code, 200, reply.msg)
  const found = reply.data
    .flatMap((level) => level.goods)
    .find((g) => g.goodId === goodId)
    ?.prices.find((p) => p.priceId === priceId)
  return found?.goodPrice ?? null
}

test('each role on each catalogue route: admitted where editCatalogue/view say, 4003 elsewhere', async (t) => {
  const ta = await commerceApp(t)
  const problems: string[] = []
  for (const role of OPERATOR_ROLES) {
    const as = await operator(ta, role)
    const cat = await catalogue(ta, as) // view: every role
    const price = priceIn(cat, GOODS.enjoyB, priceOf(GOODS.enjoyB, 30))
    const good = goodsIn(cat, GOODS.enjoyBigB)
    const stock = stockIn(cat, GOODS.enjoyB, ZONES.beijing)
    const calls = [
      editPrice(ta, as, price.id, priceBody(price, { goodPrice: price.goodPrice + 10 })),
      adminCall(ta, 'POST', `/catalogue/goods/${good.id}/on-sale`, {
        as,
        body: { version: good.version, onSale: !good.onSale },
      }),
      editStock(ta, as, GOODS.enjoyB, ZONES.beijing, { version: stock.version, free: 7 }),
      adminCall(ta, 'POST', `/catalogue/zones/${ZONES.chengdu}/on-sale`, {
        as,
        body: { version: cat.zones.find((z) => z.id === ZONES.chengdu)!.version, onSale: false },
      }),
    ]
    const replies = await Promise.all(calls.map((call) => call))
    for (const [i, reply] of replies.entries()) {
      const expected = EDITORS.includes(role) ? 200 : OperatorCode.FORBIDDEN
      if (reply.code !== expected) problems.push(`${role} edit #${i} → ${reply.code} ${reply.msg}`)
    }
  }
  assert.deepEqual(problems, [])
})

test('a price edit is audited with before and after, and the user site lists it at once', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'operations')
  const priceId = priceOf(GOODS.exclusiveB, 30)
  const shownBefore = await listedPrice(ta, GOODS.exclusiveB, priceId) // warms the catalogue cache
  const row = priceIn(await catalogue(ta, as), GOODS.exclusiveB, priceId)
  assert.equal(row.goodPrice, shownBefore)

  const reply = await editPrice(ta, as, priceId, priceBody(row, { goodPrice: 12_345 }))
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.goodPrice, 12_345)
  assert.notEqual(reply.data.version, row.version)
  assert.equal(await listedPrice(ta, GOODS.exclusiveB, priceId), 12_345, 'no wait on this instance')

  const [audit] = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'catalogue.price'))
  assert.equal(audit.operatorId, as.session.operator.id)
  assert.equal(audit.targetType, 'goods_price')
  assert.equal(audit.targetId, String(priceId))
  assert.equal((audit.before as AdminPriceRow).goodPrice, row.goodPrice)
  assert.equal((audit.after as AdminPriceRow).goodPrice, 12_345)
  assert.equal(audit.at.getTime(), ta.clock.now().getTime())

  // the same edit read by the audit page (admin)
  const admin = await operator(ta, 'admin')
  const page = await adminCall<AuditPage>(ta, 'GET', '/audit', {
    as: admin,
    query: { action: 'catalogue.price' },
  })
  assert.equal(page.data.total, 1)
})

test('another instance (its own catalogue read) shows an edit within REFERENCE_TTL_MS', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  const other = new ReferenceDataService(ta.app.services.ctx)
  const priceId = priceOf(GOODS.enjoyB, 7)
  const readOther = async () => (await other.get(ta.database.db)).priceById.get(priceId)?.goodPrice
  const old = await readOther()
  const row = priceIn(await catalogue(ta, as), GOODS.enjoyB, priceId)
  assert.equal(row.goodPrice, old)
  const reply = await editPrice(ta, as, priceId, priceBody(row, { goodPrice: (old ?? 0) + 100 }))
  assert.equal(reply.code, 200, reply.msg)
  ta.clock.advance(REFERENCE_TTL_MS - 1)
  assert.equal(await readOther(), old, 'still its own read before the TTL')
  ta.clock.advance(1)
  assert.equal(await readOther(), (old ?? 0) + 100)
})

test('price edits the checkout would misprice are refused, and nothing changes', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  const priceId = priceOf(GOODS.enjoyB, 30) // has a first-purchase offer, no activity
  const row = priceIn(await catalogue(ta, as), GOODS.enjoyB, priceId)
  assert.equal(row.activityId, null)
  const schemaRefusals: Record<string, unknown>[] = [
    { goodPrice: -100 },
    { goodPrice: 0 },
    { goodPrice: 12.5 },
    { goodPrice: 1e12 },
    { goodPrice: Number.MAX_SAFE_INTEGER + 2 },
    { goodPrice: '1000' + '\u0000' },
    { goodPrice: null },
    { firstCount: -1 },
    { version: '' },
    { version: 'x\u0000'.repeat(40) },
  ]
  for (const change of schemaRefusals) {
    const reply = await editPrice(ta, as, priceId, { ...priceBody(row), ...change })
    assert.equal(reply.code, 400, JSON.stringify(change))
  }
  const ruleRefusals: [Partial<AdminPriceRow>, string][] = [
    [{ oldGoodPrice: row.goodPrice }, '划线价须高于售价'],
    [{ firstPurchasePrice: row.goodPrice }, '首购价须低于售价'],
    [{ firstPurchasePrice: null, firstCount: 1 }, '首购数量大于 0 时须填写首购价'],
    [{ activityPrice: 100 }, '该价格没有关联活动，不能设置活动价'],
    [{ activityEndsAt: Date.now() }, '没有活动价时不能设置活动结束时间'],
    [{ firstCount: 10_000 }, '首购数量须为 0–'],
  ]
  for (const [change, message] of ruleRefusals) {
    const reply = await editPrice(ta, as, priceId, priceBody(row, change))
    assert.equal(reply.code, OperatorCode.CATALOGUE_INVALID, JSON.stringify(change))
    assert.ok(reply.msg.startsWith(message), `${reply.msg} ← ${JSON.stringify(change)}`)
  }
  for (const id of [999_999, 2_147_483_647]) {
    const reply = await editPrice(ta, as, id, priceBody(row))
    assert.equal(reply.code, OperatorCode.CATALOGUE_NOT_FOUND)
  }
  assert.equal((await editPrice(ta, as, 0, priceBody(row))).code, 400)
  const [stored] = await ta.database.db
    .select()
    .from(goodsPrices)
    .where(eq(goodsPrices.id, priceId))
  assert.equal(stored.goodPrice, row.goodPrice)
  assert.equal(stored.firstPurchasePrice, row.firstPurchasePrice)
  const audits = await ta.database.db.select().from(operatorAudit)
  assert.equal(audits.filter((a) => a.action.startsWith('catalogue.')).length, 0)

  // an activity row takes an activity price below its price, and an end
  const activityId = priceOf(GOODS.flagshipB, 30)
  const active = priceIn(await catalogue(ta, as), GOODS.flagshipB, activityId)
  assert.notEqual(active.activityId, null)
  const ends = ta.clock.now().getTime() + 86_400_000
  const ok = await editPrice(
    ta,
    as,
    activityId,
    priceBody(active, { activityPrice: active.goodPrice - 1, activityEndsAt: ends }),
  )
  assert.equal(ok.code, 200, ok.msg)
  assert.equal(ok.data.activityEndsAt, ends)
})

test('two operators editing the same row: the second is refused with 4030 and nothing of theirs is written', async (t) => {
  const ta = await commerceApp(t)
  const first = await operator(ta, 'admin')
  const second = await operator(ta, 'operations')
  const cat = await catalogue(ta, second) // both read the same versions
  const priceId = priceOf(GOODS.enjoyB, 90)
  const row = priceIn(cat, GOODS.enjoyB, priceId)
  assert.equal(
    (await editPrice(ta, first, priceId, priceBody(row, { goodPrice: row.goodPrice + 1 }))).code,
    200,
  )
  const late = await editPrice(
    ta,
    second,
    priceId,
    priceBody(row, { goodPrice: row.goodPrice + 2 }),
  )
  assert.deepEqual([late.code, late.msg], [4030, '该数据已被其他操作员修改，请刷新后重试'])

  const good = goodsIn(cat, GOODS.enjoyBigB)
  const offBody = { version: good.version, onSale: false }
  const url = `/catalogue/goods/${good.id}/on-sale`
  assert.equal((await adminCall(ta, 'POST', url, { as: first, body: offBody })).code, 200)
  const again = await adminCall(ta, 'POST', url, { as: second, body: offBody })
  assert.equal(again.code, OperatorCode.CATALOGUE_CHANGED)

  const stock = stockIn(cat, GOODS.enjoyB, ZONES.chengdu)
  const body = { version: stock.version, free: 5 }
  assert.equal((await editStock(ta, first, GOODS.enjoyB, ZONES.chengdu, body)).code, 200)
  const stale = await editStock(ta, second, GOODS.enjoyB, ZONES.chengdu, { ...body, free: 9 })
  assert.equal(stale.code, OperatorCode.CATALOGUE_CHANGED)
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.chengdu), 5)

  // at the same time: exactly one of two edits of one price row wins
  const fresh = priceIn(await catalogue(ta, first), GOODS.enjoyB, priceId)
  const both = await Promise.all([
    editPrice(ta, first, priceId, priceBody(fresh, { goodPrice: 5_000 })),
    editPrice(ta, second, priceId, priceBody(fresh, { goodPrice: 6_000 })),
  ])
  assert.deepEqual(both.map((r) => r.code).sort(), [200, OperatorCode.CATALOGUE_CHANGED])
  const audited = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(
      and(eq(operatorAudit.action, 'catalogue.price'), eq(operatorAudit.targetId, String(priceId))),
    )
  assert.equal(audited.length, 2, 'one audit row per edit written, none for a refusal')
})

test('a goods taken off sale leaves the user goods list and cannot be ordered; on sale again it returns', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'operations')
  const buyer = await newBuyer(ta)
  const good = goodsIn(await catalogue(ta, as), GOODS.enjoyBigB)
  const url = `/catalogue/goods/${good.id}/on-sale`
  const off = await adminCall<{ version: string }>(ta, 'POST', url, {
    as,
    body: { version: good.version, onSale: false },
  })
  assert.equal(off.code, 200, off.msg)
  assert.equal(await listedPrice(ta, GOODS.enjoyBigB, priceOf(GOODS.enjoyBigB, 30)), null)
  const priceId = priceOf(GOODS.enjoyBigB, 30)
  const refused = await post(
    ta.app,
    '/CommodityGroup/getGoodPrice',
    { kind: 'new', goodId: GOODS.enjoyBigB, priceId, quantity: 1 },
    buyer,
  )
  assert.equal(refused.code, ResultCode.GOODS_NOT_EXIST, 'off sale: no quote, so no order')
  const on = await adminCall(ta, 'POST', url, {
    as,
    body: { version: off.data.version, onSale: true },
  })
  assert.equal(on.code, 200, on.msg)
  const ordered = await createCloudOrder(ta, buyer, { goodId: GOODS.enjoyBigB })
  assert.equal(ordered.code, 200, ordered.msg)
  const [audit] = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'catalogue.onSale'))
    .orderBy(operatorAudit.id)
  assert.deepEqual(
    [(audit.before as { onSale: boolean }).onSale, (audit.after as { onSale: boolean }).onSale],
    [true, false],
  )
  for (const id of [999_999]) {
    const reply = await adminCall(ta, 'POST', `/catalogue/goods/${id}/on-sale`, {
      as,
      body: { version: good.version, onSale: false },
    })
    assert.equal(reply.code, OperatorCode.CATALOGUE_NOT_FOUND)
  }
})

test('stock edits: bad counts and unknown ids refused; a never-stocked goods × zone can be stocked', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  const stock = stockIn(await catalogue(ta, as), GOODS.enjoyB, ZONES.shanghai)
  for (const free of [-1, 1.5, 100_001, 'many', '3\u0000']) {
    const reply = await editStock(ta, as, GOODS.enjoyB, ZONES.shanghai, {
      version: stock.version,
      free,
    })
    assert.equal(reply.code, 400, String(free))
  }
  for (const [goodId, zoneId] of [
    [999_999, ZONES.shanghai],
    [GOODS.enjoyB, 999_999],
  ]) {
    const reply = await editStock(ta, as, goodId, zoneId, { version: stock.version, free: 1 })
    assert.equal(reply.code, OperatorCode.CATALOGUE_NOT_FOUND)
  }
  await ta.database.db.execute(
    // a goods × zone without slot rows (never stocked)
    `delete from goods_stock_slots where good_id = ${GOODS.flagshipH} and zone_id = ${ZONES.beijing}` as never,
  )
  const empty = stockIn(await catalogue(ta, as), GOODS.flagshipH, ZONES.beijing)
  assert.equal(empty.free, 0)
  const stocked = await editStock(ta, as, GOODS.flagshipH, ZONES.beijing, {
    version: empty.version,
    free: 33,
  })
  assert.equal(stocked.code, 200, stocked.msg)
  assert.equal(await stockOf(ta, GOODS.flagshipH, ZONES.beijing), 33)
})

test('stock is conserved: an edit sets the free units, never those unpaid orders hold (any interleaving)', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'operations')
  const goodId = GOODS.exclusiveB
  const zoneId = ZONES.guangzhou
  const buyers = [await newBuyer(ta), await newBuyer(ta), await newBuyer(ta)]
  type Step =
    | { kind: 'order'; buyer: number; quantity: number }
    | { kind: 'cancel'; pick: number }
    | { kind: 'edit'; free: number }
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('order' as const),
      buyer: fc.nat(2),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(20) }),
    fc.record({ kind: fc.constant('edit' as const), free: fc.nat(6) }),
  )
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps: Step[]) => {
      await setStock(ta, goodId, zoneId, 4)
      let free = 4
      const open: { buyer: number; orderNo: string; quantity: number }[] = []
      for (const s of steps) {
        if (s.kind === 'order') {
          const reply = await createCloudOrder(ta, buyers[s.buyer], {
            goodId,
            zoneId,
            quantity: s.quantity,
          })
          if (s.quantity <= free) {
            assert.equal(reply.code, 200, reply.msg)
            free -= s.quantity
            open.push({ buyer: s.buyer, orderNo: reply.data.orderNo, quantity: s.quantity })
          } else {
            assert.equal(reply.code, ResultCode.CLOUD_OUT_OF_STOCK, reply.msg)
          }
        } else if (s.kind === 'cancel') {
          if (open.length === 0) continue
          const [order] = open.splice(s.pick % open.length, 1)
          await cancelOrder(ta, buyers[order.buyer], order.orderNo)
          free += order.quantity // the held units come back on top of whatever was set
        } else {
          const read = stockIn(await catalogue(ta, as), goodId, zoneId)
          assert.equal(read.free, free)
          assert.equal(
            read.held,
            open.reduce((sum, o) => sum + o.quantity, 0),
          )
          const reply = await editStock(ta, as, goodId, zoneId, {
            version: read.version,
            free: s.free,
          })
          assert.equal(reply.code, 200, reply.msg)
          assert.equal(reply.data.held, read.held, 'the orders keep what they hold')
          free = s.free
        }
        assert.equal(await stockOf(ta, goodId, zoneId), free)
      }
      for (const order of open) await cancelOrder(ta, buyers[order.buyer], order.orderNo)
    }),
    { numRuns: 12 },
  )
})

test('a stock edit racing orders: each order either holds its units or is refused, the free count is the edit minus later orders', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  const goodId = GOODS.enjoyB
  const zoneId = ZONES.beijing
  await setStock(ta, goodId, zoneId, 6)
  const buyers = await Promise.all(Array.from({ length: 6 }, () => newBuyer(ta)))
  const read = stockIn(await catalogue(ta, as), goodId, zoneId)
  const [edit, ...placed] = await Promise.all([
    editStock(ta, as, goodId, zoneId, { version: read.version, free: 3 }),
    ...buyers.map((buyer) => createCloudOrder(ta, buyer, { goodId, zoneId })),
  ])
  assert.equal(edit.code, 200, edit.msg)
  const ok = placed.filter((r) => r.code === 200).length
  assert.ok(placed.every((r) => r.code === 200 || r.code === ResultCode.CLOUD_OUT_OF_STOCK))
  // orders before the edit held their units (the edit's `held`), those after took from its 3
  const after = ok - edit.data.held
  assert.ok(after >= 0 && after <= 3, `${ok} orders, ${edit.data.held} before the edit`)
  assert.equal(await stockOf(ta, goodId, zoneId), 3 - after)
  const [row] = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'catalogue.stock'))
    .orderBy(desc(operatorAudit.id))
  assert.deepEqual(row.after, { goodId, zoneId, free: 3, held: edit.data.held })
})

test('a zone closed is offered for no new phone (lists, orders), its audit row written; reopened it is', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'operations')
  const buyer = await newBuyer(ta)
  const zone = (await catalogue(ta, as)).zones.find((z) => z.id === ZONES.guangzhou)
  assert.ok(zone?.onSale)
  const url = `/catalogue/zones/${zone.id}/on-sale`
  const closed = await adminCall<{ version: string; onSale: boolean }>(ta, 'POST', url, {
    as,
    body: { version: zone.version, onSale: false },
  })
  assert.equal(closed.code, 200, closed.msg)
  assert.equal(closed.data.onSale, false)
  const stale = await adminCall(ta, 'POST', url, {
    as,
    body: { version: zone.version, onSale: false },
  })
  assert.equal(stale.code, OperatorCode.CATALOGUE_CHANGED)

  const zonesListed = await get<{ zoneId: number }[]>(ta.app, '/CommodityGroup/getZones')
  assert.ok(!zonesListed.data.some((z) => z.zoneId === zone.id), 'getZones leaves it out')
  const list = await get<GoodsLevelGroup[]>(ta.app, '/CommodityGroup/getGoodsList')
  const listedZones = list.data.flatMap((l) => l.goods).flatMap((g) => g.zones)
  assert.ok(listedZones.length > 0)
  assert.ok(!listedZones.some((z) => z.zoneId === zone.id), 'the goods list leaves it out')
  const refused = await createCloudOrder(ta, buyer, { zoneId: zone.id })
  assert.deepEqual([refused.code, refused.msg], [ResultCode.SHOW_ERROR_TIPS, '所选地区不存在'])
  // the console still shows it, closed, with the stock it keeps
  const read = await catalogue(ta, as)
  assert.equal(read.zones.find((z) => z.id === zone.id)?.onSale, false)
  assert.equal(stockIn(read, GOODS.enjoyB, zone.id).free, await stockOf(ta, GOODS.enjoyB, zone.id))

  const reopened = await adminCall(ta, 'POST', url, {
    as,
    body: { version: closed.data.version, onSale: true },
  })
  assert.equal(reopened.code, 200, reopened.msg)
  const ordered = await createCloudOrder(ta, buyer, { zoneId: zone.id })
  assert.equal(ordered.code, 200, ordered.msg)
  const audits = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'catalogue.zoneOnSale'))
    .orderBy(operatorAudit.id)
  assert.deepEqual(
    audits.map((a) => [a.targetType, a.targetId, a.before, a.after]),
    [
      [
        'zone',
        String(zone.id),
        { name: zone.name, onSale: true },
        { name: zone.name, onSale: false },
      ],
      [
        'zone',
        String(zone.id),
        { name: zone.name, onSale: false },
        { name: zone.name, onSale: true },
      ],
    ],
  )
  const unknown = await adminCall(ta, 'POST', '/catalogue/zones/999999/on-sale', {
    as,
    body: { version: zone.version, onSale: false },
  })
  assert.equal(unknown.code, OperatorCode.CATALOGUE_NOT_FOUND)
})
