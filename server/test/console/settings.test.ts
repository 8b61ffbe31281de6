/**
 * 设置: the common config, the customer-service address, activities and their flash-sale
 * items — each route's roles (a table), the rules of #domain/console/settings-edits refusing bad edits (NUL,
 * control characters, huge input, an empty text, a window ending before it starts, stock below what is
 * sold), the audit row with before and after, optimistic concurrency (4096), the user site showing an
 * edit on its next read, and a stock edit racing purchases keeping stock conserved.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { desc, eq } from 'drizzle-orm'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode, ResultCode } from '#domain/result-codes'
import type { CommonConfig, CustomerServiceInfo } from '../../src/contract/config'
import type { ActivityDetail, ActivitySummary } from '../../src/contract/activity'
import type {
  AdminActivity,
  AdminActivityRow,
  AdminCommonConfig,
  AdminSeckillItem,
  AdminSettings,
} from '../../src/console/contract/settings'
import type { OrderInfo } from '../../src/contract/order'
import { operatorAudit, seckillItems } from '../../src/db/schema'
import { SEED_SECKILL_ACTIVITY_ID, SEED_SECKILL_ITEM_ID } from '../../src/db/seed/activity'
import { adminCall, createOperator, signIn, type OperatorSession } from './helpers'
import { buildTestApp, get, post, type Session, type TestApp } from '../helpers/test-app'
import { ZONES, cancelOrder, commerceApp, newBuyer, newKey } from '../helpers/commerce'

const EDITORS: OperatorRole[] = ['admin', 'operations']

async function operator(ta: TestApp, role: OperatorRole, name = `set-${role}`) {
  return signIn(ta, await createOperator(ta, name, role))
}

async function settings(ta: TestApp, as: OperatorSession): Promise<AdminSettings> {
  const reply = await adminCall<AdminSettings>(ta, 'GET', '/settings', { as })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

const activityIn = (s: AdminSettings, id: number): AdminActivity => {
  const found = s.activities.find((a) => a.id === id)
  assert.ok(found, `activity ${id} listed`)
  return found
}
const itemIn = (s: AdminSettings): AdminSeckillItem => {
  const found = activityIn(s, SEED_SECKILL_ACTIVITY_ID).items.find(
    (i) => i.id === SEED_SECKILL_ITEM_ID,
  )
  assert.ok(found)
  return found
}

const commonBody = (row: AdminCommonConfig, changes: Record<string, unknown> = {}) => ({
  version: row.version,
  renewalReminderMsg: row.renewalReminderMsg,
  customerServicePhone: row.customerServicePhone,
  customerServiceHours: row.customerServiceHours,
  ...changes,
})
const activityBody = (row: AdminActivity, changes: Record<string, unknown> = {}) => ({
  version: row.version,
  title: row.title,
  summary: row.summary,
  startsAt: row.startsAt,
  endsAt: row.endsAt,
  enabled: row.enabled,
  ...changes,
})
const itemBody = (row: AdminSeckillItem, changes: Record<string, unknown> = {}) => ({
  version: row.version,
  price: row.price,
  stock: row.stock,
  sort: row.sort,
  ...changes,
})

const editCommon = (ta: TestApp, as: OperatorSession, body: unknown) =>
  adminCall<AdminCommonConfig>(ta, 'POST', '/settings/common', { as, body })
const editActivity = (ta: TestApp, as: OperatorSession, id: number, body: unknown) =>
  adminCall<AdminActivityRow>(ta, 'POST', `/settings/activities/${id}`, { as, body })
const editItem = (ta: TestApp, as: OperatorSession, id: number, body: unknown) =>
  adminCall<AdminSeckillItem>(ta, 'POST', `/settings/seckill-items/${id}`, { as, body })

const buy = (ta: TestApp, session: Session) =>
  post<OrderInfo>(
    ta.app,
    '/order/createSeckillActivityOrder',
    {
      itemId: SEED_SECKILL_ITEM_ID,
      zoneId: ZONES.shanghai,
      expectedAmount: 100,
      idempotencyKey: newKey(),
    },
    session,
  )

async function itemRow(ta: TestApp) {
  const [row] = await ta.database.db
    .select()
    .from(seckillItems)
    .where(eq(seckillItems.id, SEED_SECKILL_ITEM_ID))
  return row
}

test('each role on each settings route: admitted where editSettings/view say, 4003 elsewhere', async (t) => {
  const ta = await commerceApp(t)
  const problems: string[] = []
  for (const role of OPERATOR_ROLES) {
    const as = await operator(ta, role)
    const read = await settings(ta, as) // view: every role
    const replies = [
      await editCommon(ta, as, commonBody(read.common, { customerServiceHours: `每天 ${role}` })),
      await editActivity(ta, as, 2, activityBody(activityIn(read, 2), { title: `活动 ${role}` })),
      await editItem(ta, as, SEED_SECKILL_ITEM_ID, itemBody(itemIn(read), { sort: 3 })),
    ]
    for (const [i, reply] of replies.entries()) {
      const expected = EDITORS.includes(role) ? 200 : OperatorCode.FORBIDDEN
      if (reply.code !== expected) problems.push(`${role} edit #${i} → ${reply.code} ${reply.msg}`)
    }
  }
  assert.deepEqual(problems, [])
  // refused roles wrote nothing: one audit row per editor per route
  const rows = await ta.database.db.select().from(operatorAudit)
  const settingsRows = rows.filter((row) => row.action.startsWith('settings.'))
  assert.equal(settingsRows.length, EDITORS.length * 3)
})

test('a common-config edit is audited before/after and getCommonConfig and getUrl show it at once', async (t) => {
  const ta = await buildTestApp(t, {
    config: { customerServiceUrl: 'https://kefu.example.com/chat' },
  })
  const as = await operator(ta, 'operations')
  const read = await settings(ta, as)
  assert.equal(read.customerServiceUrl, 'https://kefu.example.com/chat')
  const shown = await get<CommonConfig>(ta.app, '/configure/getCommonConfig')
  assert.equal(shown.data.renewalReminderMsg, read.common.renewalReminderMsg)
  assert.equal(read.common.appVersion, shown.data.appVersion)

  const reply = await editCommon(
    ta,
    as,
    commonBody(read.common, {
      renewalReminderMsg: '云手机已到期，请在2小时内续费',
      customerServicePhone: '400-000-0000',
    }),
  )
  assert.equal(reply.code, 200, reply.msg)
  assert.notEqual(reply.data.version, read.common.version)
  assert.equal(reply.data.appVersion, read.common.appVersion, 'appVersion is not edited')

  const after = await get<CommonConfig>(ta.app, '/configure/getCommonConfig')
  assert.equal(after.data.renewalReminderMsg, '云手机已到期，请在2小时内续费')
  assert.equal(after.data.customerServicePhone, '400-000-0000')
  assert.equal(after.data.appVersion, shown.data.appVersion)
  const contact = await get<CustomerServiceInfo>(ta.app, '/customer/customerService/getUrl')
  assert.deepEqual(contact.data, {
    url: 'https://kefu.example.com/chat',
    phone: '400-000-0000',
    hours: read.common.customerServiceHours,
  })

  const [audit] = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'settings.common'))
  assert.equal(audit.operatorId, as.session.operator.id)
  assert.equal(audit.targetType, 'common_config')
  assert.deepEqual(audit.before, {
    renewalReminderMsg: read.common.renewalReminderMsg,
    customerServicePhone: read.common.customerServicePhone,
    customerServiceHours: read.common.customerServiceHours,
  })
  assert.deepEqual(audit.after, {
    renewalReminderMsg: '云手机已到期，请在2小时内续费',
    customerServicePhone: '400-000-0000',
    customerServiceHours: read.common.customerServiceHours,
  })

  // the version read before the edit is stale now
  const stale = await editCommon(ta, as, commonBody(read.common, { customerServiceHours: '全天' }))
  assert.equal(stale.code, OperatorCode.SETTINGS_CHANGED)
})

test('common-config edits breaking the rules are refused (NUL, control, empty, huge) and nothing changes', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  const read = await settings(ta, as)
  const ruleRefusals: [Record<string, unknown>, string][] = [
    [{ renewalReminderMsg: '到期\u001b提醒' }, '到期续费提醒不能包含换行或控制字符'],
    [{ customerServicePhone: '400\n820' }, '客服电话不能包含换行或控制字符'],
    [{ customerServiceHours: '   ' }, '客服时间不能为空'],
    [{ customerServiceHours: ' 全天' }, '客服时间首尾不能有空格'],
    [{ renewalReminderMsg: '续'.repeat(201) }, '到期续费提醒最多200个字'],
  ]
  for (const [change, message] of ruleRefusals) {
    const reply = await editCommon(ta, as, commonBody(read.common, change))
    assert.deepEqual([reply.code, reply.msg], [OperatorCode.SETTINGS_INVALID, message])
  }
  // NUL is refused by the server's text-input plugin before any route (400), huge input by the schema
  const schemaRefusals: Record<string, unknown>[] = [
    { renewalReminderMsg: '到期\u0000提醒' },
    { renewalReminderMsg: 'x'.repeat(100_000) },
    { customerServicePhone: null },
    { customerServiceHours: 12 },
    { version: '' },
  ]
  for (const change of schemaRefusals) {
    const reply = await editCommon(ta, as, commonBody(read.common, change))
    assert.equal(reply.code, 400, JSON.stringify(change).slice(0, 80))
  }
  assert.deepEqual((await settings(ta, as)).common, read.common)
  const audits = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'settings.common'))
  assert.equal(audits.length, 0)
})

test('an activity edited: title and window shown by /activity/list; off, it is neither listed nor sold', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'operations')
  const read = activityIn(await settings(ta, as), SEED_SECKILL_ACTIVITY_ID)
  const endsAt = read.endsAt - 86_400_000
  const renamed = await editActivity(
    ta,
    as,
    read.id,
    activityBody(read, { title: '限时秒杀 · 新标题', summary: '7 天仅需 2 元', endsAt }),
  )
  assert.equal(renamed.code, 200, renamed.msg)
  const list = await get<ActivitySummary[]>(ta.app, '/activity/list')
  const listed = list.data.find((a) => a.id === read.id)
  assert.equal(listed?.title, '限时秒杀 · 新标题')
  assert.equal(listed?.summary, '7 天仅需 2 元')
  assert.equal(listed?.endsAt, endsAt)

  const off = await editActivity(
    ta,
    as,
    read.id,
    activityBody({ ...read, ...renamed.data, items: [] }, { enabled: false }),
  )
  assert.equal(off.code, 200, off.msg)
  assert.equal(off.data.enabled, false)
  const listOff = await get<ActivitySummary[]>(ta.app, '/activity/list')
  assert.ok(!listOff.data.some((a) => a.id === read.id), 'an activity off is not listed')
  const detail = await get<ActivityDetail>(ta.app, '/activity/detail', undefined, {
    id: String(read.id),
  })
  assert.equal(detail.code, ResultCode.SHOW_ERROR_TIPS)
  const refused = await buy(ta, await newBuyer(ta))
  assert.equal(refused.code, ResultCode.SHOW_ERROR_TIPS)
  assert.equal((await itemRow(ta)).sold, 0)

  const audits = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'settings.activity'))
    .orderBy(operatorAudit.id)
  const edited = {
    title: '限时秒杀 · 新标题',
    summary: '7 天仅需 2 元',
    startsAt: read.startsAt,
    endsAt,
  }
  const activityFields = ({ title, summary, startsAt, endsAt }: AdminActivity) => ({
    title,
    summary,
    startsAt,
    endsAt,
  })
  assert.deepEqual(
    audits.map((a) => [a.targetType, a.targetId, a.before, a.after]),
    [
      [
        'activity',
        String(read.id),
        { ...activityFields(read), enabled: true },
        { ...edited, enabled: true },
      ],
      ['activity', String(read.id), { ...edited, enabled: true }, { ...edited, enabled: false }],
    ],
  )
})

test('activity edits breaking the rules, stale or unknown are refused and nothing changes', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  const read = activityIn(await settings(ta, as), 2)
  const ruleRefusals: [Record<string, unknown>, string][] = [
    [{ endsAt: read.startsAt }, '开始时间须早于结束时间'],
    [{ startsAt: read.endsAt + 1 }, '开始时间须早于结束时间'],
    [{ title: '' }, '活动标题不能为空'],
    [{ title: '标\t题' }, '活动标题不能包含换行或控制字符'],
    [{ title: '长'.repeat(61) }, '活动标题最多60个字'],
    [{ summary: ' 先到先得' }, '活动简介首尾不能有空格'],
    [{ summary: '简介\n换行' }, '活动简介不能包含换行或控制字符'],
  ]
  for (const [change, message] of ruleRefusals) {
    const reply = await editActivity(ta, as, read.id, activityBody(read, change))
    assert.deepEqual([reply.code, reply.msg], [OperatorCode.SETTINGS_INVALID, message])
  }
  for (const change of [
    { title: '标题\u0000' },
    { title: 'x'.repeat(10_000) },
    { summary: 'x'.repeat(10_000) },
    { summary: null },
    { startsAt: -1 },
    { endsAt: 1e20 },
    { enabled: 1 },
  ]) {
    const reply = await editActivity(ta, as, read.id, activityBody(read, change))
    assert.equal(reply.code, 400, JSON.stringify(change).slice(0, 80))
  }
  const stale = await editActivity(ta, as, read.id, activityBody(read, { version: 'old' }))
  assert.equal(stale.code, OperatorCode.SETTINGS_CHANGED)
  const unknown = await editActivity(ta, as, 999_999, activityBody(read))
  assert.equal(unknown.code, OperatorCode.SETTINGS_CHANGED)
  assert.deepEqual(activityIn(await settings(ta, as), 2), read)
})

test('a seckill item edit: price and stock shown by /activity/detail; stock below what is taken refused', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'operations')
  const buyer = await newBuyer(ta)
  const bought = await buy(ta, buyer)
  assert.equal(bought.code, 200, bought.msg)
  const read = itemIn(await settings(ta, as))
  assert.equal(read.sold, 1)

  const below = await editItem(ta, as, read.id, itemBody(read, { stock: 0 }))
  assert.deepEqual(
    [below.code, below.msg],
    [OperatorCode.SETTINGS_INVALID, '库存不能少于已售出和待支付占用的 1 件'],
  )
  for (const change of [
    { price: 0 },
    { price: -5 },
    { stock: -1 },
    { price: 1.5 },
    { sort: 1e9 },
  ]) {
    const reply = await editItem(ta, as, read.id, itemBody(read, change))
    assert.equal(reply.code, 400, JSON.stringify(change))
  }
  const edited = await editItem(ta, as, read.id, itemBody(read, { price: 990, stock: 1 }))
  assert.equal(edited.code, 200, edited.msg)
  assert.equal(edited.data.sold, 1)
  const detail = await get<ActivityDetail>(ta.app, '/activity/detail', undefined, {
    id: String(SEED_SECKILL_ACTIVITY_ID),
  })
  assert.equal(detail.data.items[0].price, 990)
  assert.equal(detail.data.items[0].stock, 1)
  assert.equal(detail.data.items[0].left, 0)

  // the held unit comes back when its order is cancelled: stock 1, sold 0
  await cancelOrder(ta, buyer, bought.data.orderNo)
  assert.deepEqual([(await itemRow(ta)).stock, (await itemRow(ta)).sold], [1, 0])
  const [audit] = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'settings.seckillItem'))
    .orderBy(desc(operatorAudit.id))
  assert.equal(audit.targetType, 'seckill_item')
  assert.deepEqual(audit.before, {
    activityId: SEED_SECKILL_ACTIVITY_ID,
    price: 100,
    stock: 5,
    sort: read.sort,
    sold: 1,
  })
  assert.deepEqual(audit.after, {
    activityId: SEED_SECKILL_ACTIVITY_ID,
    price: 990,
    stock: 1,
    sort: read.sort,
    sold: 1,
  })
  const stale = await editItem(ta, as, read.id, itemBody(read, { stock: 4 }))
  assert.equal(stale.code, OperatorCode.SETTINGS_CHANGED)
})

test('a stock edit racing purchases keeps stock conserved: sold never above stock, each buyer holds one unit or is refused', async (t) => {
  const ta = await commerceApp(t)
  const as = await operator(ta, 'admin')
  const buyers = await Promise.all(Array.from({ length: 6 }, () => newBuyer(ta)))
  const read = itemIn(await settings(ta, as)) // stock 5, sold 0
  const [edit, ...bought] = await Promise.all([
    editItem(ta, as, read.id, itemBody(read, { stock: 3 })),
    ...buyers.map((buyer) => buy(ta, buyer)),
  ])
  const ok = bought.filter((r) => r.code === 200).length
  assert.ok(bought.every((r) => r.code === 200 || r.code === ResultCode.SHOW_ERROR_TIPS))
  const row = await itemRow(ta)
  assert.equal(row.sold, ok, 'each unit taken is one order')
  assert.ok(row.sold <= row.stock, `sold ${row.sold} ≤ stock ${row.stock}`)
  if (edit.code === 200) {
    // the edit went in when at most 3 were taken; nobody bought past it
    assert.equal(row.stock, 3)
    assert.ok(ok <= 3, `${ok} bought with stock 3`)
  } else {
    // more than 3 were taken before the edit locked the row: refused, stock unchanged
    assert.equal(edit.code, OperatorCode.SETTINGS_INVALID, edit.msg)
    assert.equal(row.stock, 5)
    assert.ok(ok > 3)
  }
})
