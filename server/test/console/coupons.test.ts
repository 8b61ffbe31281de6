/**
 * The console's 优惠券 routes: each role on each route, template validation by the checkout's
 * own rules, usage statistics, issuing to numbers (unknown and repeated numbers) and to segments, the same
 * request sent again or twice at once giving nobody a second coupon, and the audit rows.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { CouponStatus } from '#domain/enums'
import { DAY_MS } from '#domain/pricing'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type {
  CouponTemplateBody,
  CouponTemplateList,
  CouponTemplateRow,
  IssueCouponResult,
} from '../../src/console/contract/coupons'
import { couponIssues, devices, userCoupons, users } from '../../src/db/schema'
import { ISSUE_BATCH } from '../../src/console/services/coupons'
import { adminCall, createOperator, signIn, type OperatorSession } from './helpers'
import { runningPhones } from '../helpers/fleet'
import { buildTestApp, loginWithSms, type TestApp } from '../helpers/test-app'

const MANAGE: OperatorRole[] = ['admin', 'operations']

async function operatorAs(ta: TestApp, role: OperatorRole, name = `as-${role}`) {
  return signIn(ta, await createOperator(ta, name, role))
}

/** ¥5 off any cloud-phone purchase of ¥20 or more, valid 7 days. */
const FIVE_OFF: CouponTemplateBody = {
  name: '满20减5',
  couponType: 1,
  parValue: 500,
  conditionsUse: 2000,
  businessType: 1,
  scopeApplications: '1',
  validDays: 7,
}

let requests = 0
const requestId = () => `req-${process.pid}-${++requests}-abcdef`

async function newTemplate(ta: TestApp, as: OperatorSession, body = FIVE_OFF) {
  const reply = await adminCall<CouponTemplateRow>(ta, 'POST', '/coupons/templates', { as, body })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data.id
}

const issue = (ta: TestApp, as: OperatorSession, id: number, body: unknown) =>
  adminCall<IssueCouponResult>(ta, 'POST', `/coupons/templates/${id}/issue`, { as, body })

const held = (ta: TestApp, templateId: number) =>
  ta.database.db.select().from(userCoupons).where(eq(userCoupons.templateId, templateId))

const auditOf = async (ta: TestApp, action: string) =>
  (await ta.app.console.audit.page({ action, rows: 100 })).records.reverse()

test('each role on each 优惠券 route: admitted where the table says, refused with 4003 elsewhere', async (t) => {
  const ta = await buildTestApp(t)
  const admin = await operatorAs(ta, 'admin', 'setup')
  const id = await newTemplate(ta, admin)
  const problems: string[] = []
  for (const role of OPERATOR_ROLES) {
    const as = await operatorAs(ta, role)
    const routes: {
      method: 'GET' | 'POST'
      url: string
      body?: unknown
      allowed: OperatorRole[]
    }[] = [
      { method: 'GET', url: '/coupons/templates', allowed: [...OPERATOR_ROLES] },
      { method: 'POST', url: '/coupons/templates', body: FIVE_OFF, allowed: MANAGE },
      { method: 'POST', url: `/coupons/templates/${id}`, body: FIVE_OFF, allowed: MANAGE },
      {
        method: 'POST',
        url: `/coupons/templates/${id}/issue`,
        body: { requestId: requestId(), target: { kind: 'newUsers', days: 1 } },
        allowed: MANAGE,
      },
    ]
    for (const route of routes) {
      const reply = await adminCall(ta, route.method, route.url, { as, body: route.body })
      const expected = route.allowed.includes(role) ? 200 : OperatorCode.FORBIDDEN
      if (reply.code !== expected)
        problems.push(`${role} ${route.method} ${route.url} → ${reply.code}`)
    }
  }
  assert.deepEqual(problems, [])
  const creates = await auditOf(ta, 'coupon.templateCreate')
  assert.equal(creates.length, 1 + MANAGE.length, 'the setup template and one per managing role')
  assert.equal((await auditOf(ta, 'coupon.templateEdit')).length, MANAGE.length)
  assert.equal((await auditOf(ta, 'coupon.issue')).length, MANAGE.length)
})

test('a template the checkout could never honour is refused with 4071 and the reason; nothing is written', async (t) => {
  const ta = await buildTestApp(t)
  const admin = await operatorAs(ta, 'admin')
  const bad: [Partial<CouponTemplateBody>, string][] = [
    [{ couponType: 4, businessType: 1 }, '首充券只能用于云豆充值'],
    [{ couponType: 3, parValue: 100 }, '折扣须在 0.1 折到 9.9 折之间'],
    [{ parValue: 0 }, '面额须至少 1 分'],
    [{ conditionsUse: 500 }, '满减券的门槛须高于面额'],
    [{ scopeApplications: '9' }, '适用范围无效'],
    [{ scopeApplications: '1,1' }, '请选择适用范围'],
    [{ scopeApplications: '2' }, '请填写适用对象'],
    [{ scopeApplications: '6', applicableObjects: '150' }, '折扣比例须是 1–100 的整数'],
    [{ effectiveScope: '5' }, '生效范围无效'],
  ]
  for (const [change, msg] of bad) {
    const reply = await adminCall(ta, 'POST', '/coupons/templates', {
      as: admin,
      body: { ...FIVE_OFF, ...change },
    })
    assert.deepEqual([reply.code, reply.msg], [OperatorCode.COUPON_TEMPLATE_INVALID, msg])
  }
  // malformed input stops at the schema
  for (const body of [
    { ...FIVE_OFF, name: ' ' },
    { ...FIVE_OFF, name: 'a\u0000'.repeat(30) },
    { ...FIVE_OFF, parValue: -1 },
    { ...FIVE_OFF, scopeApplications: '1;drop' },
  ]) {
    const reply = await adminCall(ta, 'POST', '/coupons/templates', { as: admin, body })
    assert.notEqual(reply.code, 200)
  }
  assert.equal((await auditOf(ta, 'coupon.templateCreate')).length, 0)
  const missing = await adminCall(ta, 'POST', '/coupons/templates/999999', {
    as: admin,
    body: FIVE_OFF,
  })
  assert.equal(missing.code, OperatorCode.COUPON_TEMPLATE_NOT_FOUND)
  const none = await issue(ta, admin, 999999, {
    requestId: requestId(),
    target: { kind: 'newUsers', days: 1 },
  })
  assert.equal(none.code, OperatorCode.COUPON_TEMPLATE_NOT_FOUND)
})

test('an edit is audited with before and after; a first-recharge coupon for beans is accepted', async (t) => {
  const ta = await buildTestApp(t)
  const admin = await operatorAs(ta, 'admin')
  const id = await newTemplate(ta, admin)
  const edited = await adminCall<CouponTemplateRow>(ta, 'POST', `/coupons/templates/${id}`, {
    as: admin,
    body: { ...FIVE_OFF, name: '满30减5', conditionsUse: 3000 },
  })
  assert.equal(edited.code, 200, edited.msg)
  assert.equal(edited.data.conditionsUse, 3000)
  const [row] = await auditOf(ta, 'coupon.templateEdit')
  assert.equal(row.operatorId, admin.session.operator.id)
  assert.deepEqual(
    [
      (row.before as { conditionsUse: number }).conditionsUse,
      (row.after as { conditionsUse: number }).conditionsUse,
    ],
    [2000, 3000],
  )
  await newTemplate(ta, admin, { ...FIVE_OFF, couponType: 4, businessType: 3, conditionsUse: 1000 })
})

test('issuing to numbers: each account once, unknown and malformed numbers reported, the rest issued; statistics follow', async (t) => {
  const ta = await buildTestApp(t)
  const admin = await operatorAs(ta, 'admin')
  const a = await loginWithSms(ta, '13800000001')
  const b = await loginWithSms(ta, '13800000002')
  const id = await newTemplate(ta, admin)
  const reply = await issue(ta, admin, id, {
    requestId: requestId(),
    target: {
      kind: 'numbers',
      numbers: ['13800000001', ' 13800000002 ', '13800000001', '13899999999', 'abc', ''],
    },
  })
  assert.equal(reply.code, 200, reply.msg)
  assert.deepEqual(reply.data, { issued: 2, unknownNumbers: ['13899999999', 'abc'] })
  const rows = await held(ta, id)
  assert.deepEqual(rows.map((row) => row.userId).sort(), [a.userId, b.userId].sort())
  assert.equal(rows[0].validUntil.getTime() - rows[0].validFrom.getTime(), 7 * DAY_MS)

  const [audit] = await auditOf(ta, 'coupon.issue')
  assert.equal(audit.operatorId, admin.session.operator.id)
  assert.equal(audit.targetId, String(id))
  assert.deepEqual((audit.after as { issued: number; target: unknown }).target, {
    kind: 'numbers',
    count: 6,
  })
  assert.equal((audit.after as { issued: number }).issued, 2)

  // a's coupon is used, b's passes its end: the statistics read each
  await ta.database.db
    .update(userCoupons)
    .set({ status: CouponStatus.used })
    .where(eq(userCoupons.userId, a.userId))
  await ta.database.db
    .update(userCoupons)
    .set({ validUntil: ta.clock.now() })
    .where(eq(userCoupons.userId, b.userId))
  const list = await adminCall<CouponTemplateList>(ta, 'GET', '/coupons/templates', { as: admin })
  const stats = list.data.find((row) => row.id === id)!
  assert.deepEqual([stats.issued, stats.used, stats.expired, stats.unused], [2, 1, 1, 0])
})

test('the same request sent again, or twice at once, gives nobody a second coupon and is audited once', async (t) => {
  const ta = await buildTestApp(t)
  const admin = await operatorAs(ta, 'admin')
  const id = await newTemplate(ta, admin)
  for (let i = 1; i <= 5; i++) await loginWithSms(ta, `1380000000${i}`)
  const numbers = ['13800000001', '13800000002', '13800000003', '13800000004', '13800000005']
  const body = { requestId: requestId(), target: { kind: 'numbers', numbers } }
  const [first, second] = await Promise.all([
    issue(ta, admin, id, body),
    issue(ta, admin, id, body),
  ])
  assert.deepEqual([first.data.issued, second.data.issued], [5, 5])
  const again = await issue(ta, admin, id, body)
  assert.equal(again.data.issued, 5)
  assert.equal((await held(ta, id)).length, 5)
  assert.equal((await auditOf(ta, 'coupon.issue')).length, 1)

  // the id sent with another target is refused: it names the first request
  const other = await issue(ta, admin, id, { ...body, target: { kind: 'newUsers', days: 3 } })
  assert.equal(other.code, OperatorCode.COUPON_ISSUE_CONFLICT)
  // a new request is a new campaign: everyone gets another
  const next = await issue(ta, admin, id, { ...body, requestId: requestId() })
  assert.equal(next.data.issued, 5)
  assert.equal((await held(ta, id)).length, 10)
})

test('a request that died halfway is finished by its retry: the users given coupons before keep one', async (t) => {
  const ta = await buildTestApp(t)
  const admin = await operatorAs(ta, 'admin')
  const id = await newTemplate(ta, admin)
  const a = await loginWithSms(ta, '13800000001')
  await loginWithSms(ta, '13800000002')
  const body = {
    requestId: requestId(),
    target: { kind: 'numbers', numbers: ['13800000001', '13800000002'] },
  }
  // what a process dying after the first batch leaves: the request row and a's coupon, not finished
  const now = ta.clock.now()
  await ta.database.db.insert(couponIssues).values({
    id: body.requestId,
    templateId: id,
    target: body.target,
    operatorId: admin.session.operator.id,
    createdAt: now,
  })
  await ta.database.db.insert(userCoupons).values({
    userId: a.userId,
    templateId: id,
    validFrom: now,
    validUntil: new Date(now.getTime() + DAY_MS),
    issuedAt: now,
    issueId: body.requestId,
  })
  const retry = await issue(ta, admin, id, body)
  assert.equal(retry.data.issued, 2)
  assert.equal((await held(ta, id)).length, 2)
  const [request] = await ta.database.db
    .select()
    .from(couponIssues)
    .where(eq(couponIssues.id, body.requestId))
  assert.equal(request.issued, 2)
  assert.ok(request.finishedAt)
  assert.equal((await auditOf(ta, 'coupon.issue')).length, 1)
})

test('segments: new users of the last N days, and users with a phone ending in the next N days, across batches', async (t) => {
  const ta = await buildTestApp(t)
  const old = await loginWithSms(ta, '13800000001')
  const [phone] = await runningPhones(ta, old.userId, 1)
  ta.clock.advance(10 * DAY_MS)
  const admin = await operatorAs(ta, 'admin')
  const id = await newTemplate(ta, admin)
  const recent = await loginWithSms(ta, '13800000002')
  const deleted = await loginWithSms(ta, '13800000003')
  await ta.database.db.update(users).set({ mobilePhone: null }).where(eq(users.id, deleted.userId))

  const newUsers = await issue(ta, admin, id, {
    requestId: requestId(),
    target: { kind: 'newUsers', days: 3 },
  })
  assert.equal(newUsers.code, 200, newUsers.msg)
  assert.deepEqual(
    (await held(ta, id)).map((row) => row.userId),
    [recent.userId],
    'the old user and the deleted account are left out',
  )

  const now = ta.clock.now().getTime()
  await ta.database.db
    .update(devices)
    .set({ expireAt: new Date(now + 2 * DAY_MS) })
    .where(eq(devices.id, phone))
  const expiring = await issue(ta, admin, id, {
    requestId: requestId(),
    target: { kind: 'expiringPhones', days: 3 },
  })
  assert.equal(expiring.data.issued, 1)
  const none = await issue(ta, admin, id, {
    requestId: requestId(),
    target: { kind: 'expiringPhones', days: 1 },
  })
  assert.equal(none.data.issued, 0, 'the phone ends after the window')

  // more users than one batch: every one is reached, once
  const many = ISSUE_BATCH + 7
  const made = ta.clock.now()
  await ta.database.db.insert(users).values(
    Array.from({ length: many }, (_, i) => ({
      mobilePhone: `137${String(i).padStart(8, '0')}`,
      inviteCode: `INV${i}`,
      createdAt: made,
    })),
  )
  const body = { requestId: requestId(), target: { kind: 'newUsers', days: 1 } }
  const big = await issue(ta, admin, id, body)
  assert.equal(big.data.issued, many + 1, 'the inserted users and the recent one')
  assert.equal((await issue(ta, admin, id, body)).data.issued, many + 1)
})
