/**
 * 商品与价格 → 供应商映射: the ACEP catalogue mapping (supplier_catalogue) read and edited in the
 * console — the role table, the audit row, the id rule (#domain/console/catalogue-edits checkRemoteId) refusing
 * bad ids before anything is written, one row when two operators race, the refusals while ACEP runs
 * (4058 clearing what the start-up check needs, 4059 a goods on sale without its id), none with the
 * sandbox, and a mapping made in the console satisfying the start-up check.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq } from 'drizzle-orm'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type {
  AdminCatalogue,
  OnSaleRow,
  SupplierMapping,
  SupplierMappingRow,
} from '../../src/console/contract/catalogue'
import { unmappedCatalogue } from '../../src/adapters/supplier/acep/catalogue'
import { goods, operatorAudit, supplierCatalogue } from '../../src/db/schema'
import { acepApp } from '../helpers/acep-app'
import { adminCall, createOperator, signIn, type OperatorSession } from './helpers'
import { GOODS, ZONES, commerceApp } from '../helpers/commerce'
import type { TestApp } from '../helpers/test-app'

const EDITORS: OperatorRole[] = ['admin', 'operations']

async function operator(ta: TestApp, role: OperatorRole, name = `map-${role}`) {
  return signIn(ta, await createOperator(ta, name, role))
}

async function mapping(ta: TestApp, as: OperatorSession): Promise<SupplierMapping> {
  const reply = await adminCall<SupplierMapping>(ta, 'GET', '/catalogue/supplier-mapping', { as })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

const setMapping = (
  ta: TestApp,
  as: OperatorSession,
  kind: string,
  id: number,
  remoteId: unknown,
) =>
  adminCall<SupplierMappingRow>(ta, 'POST', `/catalogue/supplier-mapping/${kind}/${id}`, {
    as,
    body: { remoteId },
  })

async function rowsOf(ta: TestApp, kind: string, localId: number) {
  return ta.database.db
    .select()
    .from(supplierCatalogue)
    .where(
      and(
        eq(supplierCatalogue.supplier, 'acep'),
        eq(supplierCatalogue.kind, kind),
        eq(supplierCatalogue.localId, localId),
      ),
    )
}

const mappingAudits = (ta: TestApp) =>
  ta.database.db.select().from(operatorAudit).where(eq(operatorAudit.action, 'catalogue.mapping'))

/** Puts a goods on sale or off through the console (the existing on-sale edit). */
async function switchOnSale(ta: TestApp, as: OperatorSession, goodId: number, onSale: boolean) {
  const cat = await adminCall<AdminCatalogue>(ta, 'GET', '/catalogue', { as })
  const row = cat.data.goods.find((g) => g.id === goodId)!
  return adminCall<OnSaleRow>(ta, 'POST', `/catalogue/goods/${goodId}/on-sale`, {
    as,
    body: { version: row.version, onSale },
  })
}

test('each role: every one reads the mapping, editCatalogue roles set and clear it, others get 4003', async (t) => {
  const ta = await commerceApp(t)
  const problems: string[] = []
  for (const role of OPERATOR_ROLES) {
    const as = await operator(ta, role)
    const read = await mapping(ta, as)
    assert.equal(read.runningSupplier, 'sandbox')
    assert.equal(read.supplier, 'acep')
    assert.equal(read.enforced, false)
    const expected = EDITORS.includes(role) ? 200 : OperatorCode.FORBIDDEN
    const replies = [
      await setMapping(ta, as, 'goods', GOODS.enjoyB, `cfg-${role}`),
      await setMapping(ta, as, 'zone', ZONES.beijing, `dc-${role}`),
      await setMapping(ta, as, 'goods', GOODS.enjoyB, null),
    ]
    for (const [i, reply] of replies.entries()) {
      if (reply.code !== expected) problems.push(`${role} call #${i} → ${reply.code} ${reply.msg}`)
    }
  }
  assert.deepEqual(problems, [])
  // only the editors' calls wrote: 2 roles × 3 audited edits, the goods cleared again, the zone kept
  assert.equal((await mappingAudits(ta)).length, 6)
  assert.deepEqual(await rowsOf(ta, 'goods', GOODS.enjoyB), [])
  assert.equal((await rowsOf(ta, 'zone', ZONES.beijing))[0].remoteId, 'dc-operations')
})

test('a set lists every goods and zone with its id, trims it, and is audited with before and after', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'operations')
  const before = await mapping(ta, as)
  const allGoods = await ta.database.db.select({ id: goods.id }).from(goods)
  assert.equal(before.goods.length, allGoods.length, 'every goods listed')
  assert.equal(before.zones.length, Object.keys(ZONES).length, 'every zone listed')
  assert.ok(before.goods.every((row) => row.remoteId === null && row.kind === 'goods'))
  assert.ok(before.zones.every((row) => row.required && row.androidVersion === null))

  const set = await setMapping(ta, as, 'goods', GOODS.flagshipH, '  config-7:a_b.c  ')
  assert.equal(set.code, 200, set.msg)
  assert.equal(set.data.remoteId, 'config-7:a_b.c')
  assert.equal(set.data.name, before.goods.find((g) => g.id === GOODS.flagshipH)!.name)
  const changed = await setMapping(ta, as, 'goods', GOODS.flagshipH, 'config-8')
  assert.equal(changed.code, 200, changed.msg)
  const after = await mapping(ta, as)
  assert.equal(after.goods.find((g) => g.id === GOODS.flagshipH)!.remoteId, 'config-8')

  const audits = await mappingAudits(ta)
  assert.equal(audits.length, 2)
  const last = audits.find((row) => (row.before as { remoteId: string | null }).remoteId !== null)!
  assert.equal(last.operatorId, as.session.operator.id)
  assert.equal(last.targetType, 'supplier_catalogue')
  assert.equal(last.targetId, `acep:goods:${GOODS.flagshipH}`)
  assert.deepEqual(
    [(last.before as { remoteId: string }).remoteId, (last.after as { remoteId: string }).remoteId],
    ['config-7:a_b.c', 'config-8'],
  )
  const first = audits.find((row) => row.id !== last.id)!
  assert.equal((first.before as { remoteId: string | null }).remoteId, null)

  // cleared (the sandbox runs: allowed), audited with the id it had
  const cleared = await setMapping(ta, as, 'goods', GOODS.flagshipH, null)
  assert.equal(cleared.code, 200, cleared.msg)
  assert.deepEqual(await rowsOf(ta, 'goods', GOODS.flagshipH), [])
  assert.equal((await mappingAudits(ta)).length, 3)
})

test('bad ids are refused (the id rule, NUL, 10 kB, unknown goods or kind) and nothing is written', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  assert.equal((await setMapping(ta, as, 'zone', ZONES.shanghai, 'dc-1')).code, 200)
  const refusals: [string, number, unknown, number][] = [
    ['zone', ZONES.shanghai, '', OperatorCode.CATALOGUE_INVALID],
    ['zone', ZONES.shanghai, '   ', OperatorCode.CATALOGUE_INVALID],
    ['zone', ZONES.shanghai, 'dc 2', OperatorCode.CATALOGUE_INVALID],
    ['zone', ZONES.shanghai, 'dc\t2', OperatorCode.CATALOGUE_INVALID],
    ['zone', ZONES.shanghai, 'dc\u00012', OperatorCode.CATALOGUE_INVALID],
    ['zone', ZONES.shanghai, '数据中心', OperatorCode.CATALOGUE_INVALID],
    ['zone', ZONES.shanghai, 'x'.repeat(65), OperatorCode.CATALOGUE_INVALID],
    ['zone', ZONES.shanghai, 'dc\u00002', 400], // text PostgreSQL cannot store: plugins/text-input.ts
    ['zone', ZONES.shanghai, 'x'.repeat(10_240), 400], // over the contract's bound, never read
    ['zone', ZONES.shanghai, 12, 400],
    ['zone', 9_999, 'dc-9', OperatorCode.CATALOGUE_NOT_FOUND],
    ['goods', 9_999, 'config-9', OperatorCode.CATALOGUE_NOT_FOUND],
    ['level', 1, 'x', 400],
  ]
  for (const [kind, id, remoteId, code] of refusals) {
    const reply = await setMapping(ta, as, kind, id, remoteId)
    assert.equal(reply.code, code, `${kind} ${id} ${JSON.stringify(remoteId).slice(0, 40)}`)
    assert.ok(reply.msg, 'a message')
  }
  const invalid = await setMapping(ta, as, 'zone', ZONES.shanghai, 'dc 2')
  assert.match(invalid.msg, /只能包含/, 'the rule broken, in Chinese')
  assert.deepEqual(
    (await rowsOf(ta, 'zone', ZONES.shanghai)).map((row) => row.remoteId),
    ['dc-1'],
  )
  assert.equal((await mappingAudits(ta)).length, 1, 'only the first set audited')
})

test('two operators setting one goods at once leave one row, the id of one of them', async (t) => {
  const ta = await commerceApp(t)
  const a = await operator(ta, 'admin')
  const b = await operator(ta, 'operations')
  for (let round = 0; round < 3; round++) {
    const replies = await Promise.all([
      setMapping(ta, a, 'goods', GOODS.exclusiveB, `cfg-a${round}`),
      setMapping(ta, b, 'goods', GOODS.exclusiveB, `cfg-b${round}`),
    ])
    assert.deepEqual(
      replies.map((reply) => reply.code),
      [200, 200],
    )
    const rows = await rowsOf(ta, 'goods', GOODS.exclusiveB)
    assert.equal(rows.length, 1)
    assert.ok([`cfg-a${round}`, `cfg-b${round}`].includes(rows[0].remoteId))
  }
})

test('with ACEP running: clearing a goods on sale or a zone is refused (4058), an unmapped goods cannot go on sale (4059)', async (t) => {
  const { ctx: ta } = await acepApp(t)
  const as = await operator(ta, 'operations')
  const read = await mapping(ta, as)
  assert.equal(read.runningSupplier, 'acep')
  assert.equal(read.enforced, true)
  assert.ok(
    read.goods.every((row) => row.remoteId !== null),
    'acepApp maps the whole catalogue',
  )
  const onSale = read.goods.find((row) => row.onSale)!
  assert.equal(onSale.required, true)

  const inUse = await setMapping(ta, as, 'goods', onSale.id, null)
  assert.equal(inUse.code, OperatorCode.MAPPING_IN_USE, inUse.msg)
  assert.match(inUse.msg, /不能清除/)
  const zone = await setMapping(ta, as, 'zone', ZONES.chengdu, null)
  assert.equal(zone.code, OperatorCode.MAPPING_IN_USE)
  assert.equal((await rowsOf(ta, 'goods', onSale.id)).length, 1, 'kept')
  assert.equal((await rowsOf(ta, 'zone', ZONES.chengdu)).length, 1, 'kept')
  // changing an id is allowed: the goods stays provisionable
  assert.equal((await setMapping(ta, as, 'zone', ZONES.chengdu, 'dc-new')).code, 200)

  // off sale, its mapping may go; then it cannot come back on sale until it has one again
  assert.equal((await switchOnSale(ta, as, onSale.id, false)).code, 200)
  assert.equal((await setMapping(ta, as, 'goods', onSale.id, null)).code, 200)
  const missing = await switchOnSale(ta, as, onSale.id, true)
  assert.equal(missing.code, OperatorCode.MAPPING_MISSING, missing.msg)
  assert.match(missing.msg, /上架/)
  const [row] = await ta.database.db.select().from(goods).where(eq(goods.id, onSale.id))
  assert.equal(row.onSale, false, 'still off sale')
  assert.equal((await setMapping(ta, as, 'goods', onSale.id, 'config-1')).code, 200)
  assert.equal((await switchOnSale(ta, as, onSale.id, true)).code, 200)
  assert.deepEqual(await unmappedCatalogue(ta.database.db), [], 'the next start is not refused')
})

test('with the sandbox running, the ACEP mapping is prepared freely: cleared on sale, goods on sale unmapped', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  assert.equal((await setMapping(ta, as, 'goods', GOODS.enjoyB, 'config-1')).code, 200)
  assert.equal((await setMapping(ta, as, 'goods', GOODS.enjoyB, null)).code, 200)
  assert.equal((await setMapping(ta, as, 'zone', ZONES.beijing, 'dc-3')).code, 200)
  assert.equal((await setMapping(ta, as, 'zone', ZONES.beijing, null)).code, 200)
  assert.equal((await switchOnSale(ta, as, GOODS.enjoyB, false)).code, 200)
  assert.equal((await switchOnSale(ta, as, GOODS.enjoyB, true)).code, 200, 'no mapping needed')
})

test('a mapping made in the console satisfies the start-up check (unmappedCatalogue)', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'operations')
  const missing = await unmappedCatalogue(ta.database.db)
  const read = await mapping(ta, as)
  const required = [...read.goods, ...read.zones].filter((row) => row.required)
  assert.equal(
    missing.length,
    required.length,
    'what the console marks required is what start-up asks',
  )
  for (const row of required) {
    const reply = await setMapping(ta, as, row.kind, row.id, `${row.kind}-${row.id}`)
    assert.equal(reply.code, 200, reply.msg)
  }
  assert.deepEqual(await unmappedCatalogue(ta.database.db), [])
})
