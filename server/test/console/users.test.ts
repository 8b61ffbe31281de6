/**
 * The console's 用户 routes: each role on each route, search (and that its number and id
 * lookups read an index), one user's profile, freeze and unfreeze reaching the user API at once (and
 * another instance within its session cache's ttl), company-buyer decisions, every action's audit row.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode, ResultCode } from '#domain/result-codes'
import type { AuditPage } from '../../src/console/contract'
import type { AdminUserDetail, AdminUserPage, AdminUserRow } from '../../src/console/contract/users'
import { deviceTransfers, messages, operatorAudit, users } from '../../src/db/schema'
import { RECENT, searchFilter } from '../../src/console/services/users'
import { COMPANY_ACCOUNT, credit } from '../../src/services/wallet/ledger'
import { adminCall, createOperator, signIn, type OperatorSession } from './helpers'
import { commerceApp, runningPhones } from '../helpers/commerce'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  sendCode,
  type Session,
  type TestApp,
} from '../helpers/test-app'

type Method = 'GET' | 'POST'
const EVERYONE: OperatorRole[] = [...OPERATOR_ROLES]
const ROUTES: { method: Method; url: (userId: number) => string; allowed: OperatorRole[] }[] = [
  { method: 'GET', url: () => '/users', allowed: EVERYONE },
  { method: 'GET', url: (id) => `/users/${id}`, allowed: EVERYONE },
  {
    method: 'POST',
    url: (id) => `/users/${id}/freeze`,
    allowed: ['admin', 'operations', 'support'],
  },
  {
    method: 'POST',
    url: (id) => `/users/${id}/unfreeze`,
    allowed: ['admin', 'operations', 'support'],
  },
  { method: 'POST', url: (id) => `/users/${id}/company/verify`, allowed: ['admin', 'operations'] },
  { method: 'POST', url: (id) => `/users/${id}/company/reject`, allowed: ['admin', 'operations'] },
]

async function operatorAs(ta: TestApp, role: OperatorRole, name = `as-${role}`) {
  return signIn(ta, await createOperator(ta, name, role))
}

const userInfo = (ta: TestApp, session: Session) => get(ta.app, '/user/getUserInfo', session)

const auditOf = async (ta: TestApp, as: OperatorSession, userId: number) =>
  (
    await adminCall<AuditPage>(ta, 'GET', '/audit', {
      as,
      query: { targetType: 'user', targetId: String(userId), rows: '100' },
    })
  ).data.records.reverse()

test('each role on each 用户 route: admitted where the table says, refused with 4003 elsewhere', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000001')
  const problems: string[] = []
  for (const role of OPERATOR_ROLES) {
    const as = await operatorAs(ta, role)
    for (const route of ROUTES) {
      const url = route.url(user.userId)
      const reply = await adminCall(ta, route.method, url, {
        as,
        body: route.method === 'POST' ? { reason: '核实' } : undefined,
      })
      const allowed = route.allowed.includes(role)
      // admitted: done, or (verify/reject) refused for having no request — never forbidden
      const expected = allowed
        ? url.includes('/company/')
          ? OperatorCode.NO_COMPANY_REQUEST
          : 200
        : OperatorCode.FORBIDDEN
      if (reply.code !== expected) problems.push(`${role} ${route.method} ${url} → ${reply.code}`)
    }
  }
  assert.deepEqual(problems, [])
})

test('a frozen user is refused with 1057 on the next call, SMS login too; unfreezing restores the same session', async (t) => {
  const ta = await buildTestApp(t)
  const support = await operatorAs(ta, 'support')
  const user = await loginWithSms(ta, '13800000002')
  // the session is now in this instance's session cache
  assert.equal((await userInfo(ta, user)).code, 200)

  const frozen = await adminCall<AdminUserRow>(ta, 'POST', `/users/${user.userId}/freeze`, {
    as: support,
    body: { reason: '  涉嫌盗刷，用户投诉  ' },
  })
  assert.equal(frozen.code, 200, frozen.msg)
  assert.equal(frozen.data.frozen, true)

  const refused = await userInfo(ta, user)
  assert.deepEqual(
    [refused.code, refused.msg],
    [ResultCode.ACCOUNT_HAS_BEEN_FROZEN, '账号已被冻结'],
  )
  const orders = await get(ta.app, '/order/list', user, { page: '1', rows: '10' })
  assert.equal(orders.code, ResultCode.ACCOUNT_HAS_BEEN_FROZEN)
  ta.clock.advance(61_000)
  const code = await sendCode(ta.app, '13800000002')
  const login = await post(ta.app, '/common/userLogin/confirm', {
    mobilePhone: '13800000002',
    code,
  })
  assert.equal(login.code, ResultCode.ACCOUNT_HAS_BEEN_FROZEN)

  // freezing twice changes nothing but is recorded
  const again = await adminCall(ta, 'POST', `/users/${user.userId}/freeze`, {
    as: support,
    body: { reason: '复核' },
  })
  assert.equal(again.code, 200)

  const unfrozen = await adminCall<AdminUserRow>(ta, 'POST', `/users/${user.userId}/unfreeze`, {
    as: support,
    body: { reason: '核实为本人操作' },
  })
  assert.equal(unfrozen.data.frozen, false)
  assert.equal((await userInfo(ta, user)).code, 200, 'the same token works again')

  const admin = await operatorAs(ta, 'admin')
  const rows = await auditOf(ta, admin, user.userId)
  assert.deepEqual(
    rows.map((r) => [r.action, r.operatorName, r.before, r.after]),
    [
      [
        'user.freeze',
        'as-support',
        { frozen: false },
        { frozen: true, reason: '涉嫌盗刷，用户投诉' },
      ],
      ['user.freeze', 'as-support', { frozen: true }, { frozen: true, reason: '复核' }],
      [
        'user.unfreeze',
        'as-support',
        { frozen: true },
        { frozen: false, reason: '核实为本人操作' },
      ],
    ],
  )

  for (const reason of ['', '   ', 'x'.repeat(201)]) {
    const bad = await adminCall(ta, 'POST', `/users/${user.userId}/freeze`, {
      as: support,
      body: { reason },
    })
    assert.notEqual(bad.code, 200, `reason ${JSON.stringify(reason.slice(0, 5))}`)
  }
  const missing = await adminCall(ta, 'POST', '/users/999999/freeze', {
    as: support,
    body: { reason: '核实' },
  })
  assert.deepEqual([missing.code, missing.msg], [OperatorCode.USER_NOT_FOUND, '用户不存在'])
})

test('another instance on the same database refuses a frozen user within its session cache ttl', async (t) => {
  const ta = await buildTestApp(t, { config: { sessionCacheMs: 5_000 } })
  // the second instance shares the database; the first closes it
  const shared = { ...ta.database, close: async () => {} }
  const other = await buildTestApp(t, {
    config: { sessionCacheMs: 5_000 },
    database: shared,
  })
  const user = await loginWithSms(ta, '13800000003')
  other.clock.advance(ta.clock.now().getTime() - other.clock.now().getTime())
  assert.equal((await userInfo(other, user)).code, 200, 'cached on the other instance')
  const as = await operatorAs(ta, 'operations')
  const frozen = await adminCall(ta, 'POST', `/users/${user.userId}/freeze`, {
    as,
    body: { reason: '核实' },
  })
  assert.equal(frozen.code, 200)
  assert.equal((await userInfo(ta, user)).code, ResultCode.ACCOUNT_HAS_BEEN_FROZEN)
  other.clock.advance(4_000)
  assert.equal((await userInfo(other, user)).code, 200, 'still its cached session')
  other.clock.advance(1_000)
  assert.equal((await userInfo(other, user)).code, ResultCode.ACCOUNT_HAS_BEEN_FROZEN)
})

test('an unfreeze whose audit row cannot be written does not happen', async (t) => {
  const ta = await buildTestApp(t)
  const as = await operatorAs(ta, 'admin')
  const user = await loginWithSms(ta, '13800000004')
  await adminCall(ta, 'POST', `/users/${user.userId}/freeze`, { as, body: { reason: '核实' } })
  const audit = ta.app.console.audit
  const record = audit.record.bind(audit)
  audit.record = async (tx, entry) => {
    await record(tx, entry)
    throw new Error('audit store failed after the insert')
  }
  t.after(() => {
    audit.record = record
  })
  const failed = await adminCall(ta, 'POST', `/users/${user.userId}/unfreeze`, {
    as,
    body: { reason: '核实' },
  })
  assert.equal(failed.status, 500)
  audit.record = record
  assert.equal((await userInfo(ta, user)).code, ResultCode.ACCOUNT_HAS_BEEN_FROZEN)
  const rows = await ta.database.db.select().from(operatorAudit)
  assert.equal(rows.filter((r) => r.action === 'user.unfreeze').length, 0)
})

test('search by full number, its last digits, id or company name, and the company requests waiting', async (t) => {
  const ta = await buildTestApp(t)
  const as = await operatorAs(ta, 'support')
  const a = await loginWithSms(ta, '13811112222')
  const b = await loginWithSms(ta, '13933332222')
  const c = await loginWithSms(ta, '13700000042')
  const saved = await post(
    ta.app,
    '/user/updateCompanyInfo',
    { companyName: '某某_科技有限公司', address: '上海市', workTypes: [] },
    c,
  )
  assert.equal(saved.code, 200, saved.msg)
  const search = async (query: Record<string, string>) => {
    const reply = await adminCall<AdminUserPage>(ta, 'GET', '/users', { as, query })
    assert.equal(reply.code, 200, reply.msg)
    return reply.data
  }
  const ids = async (query: Record<string, string>) =>
    (await search(query)).records.map((r) => r.id)

  assert.deepEqual(await ids({ q: '13811112222' }), [a.userId])
  assert.deepEqual(await ids({ q: ' 2222 ' }), [b.userId, a.userId], 'last digits, newest first')
  assert.deepEqual(await ids({ q: '33332222' }), [b.userId])
  // digits short enough to be an id match that id or a number ending in them
  assert.deepEqual(await ids({ q: String(c.userId) }), [c.userId])
  assert.deepEqual(await ids({ q: '42' }), [c.userId])
  assert.deepEqual(await ids({ q: '科技' }), [c.userId])
  assert.deepEqual(await ids({ q: '某某_' }), [c.userId])
  assert.deepEqual(await ids({ q: '某某%' }), [], 'a LIKE wildcard is matched as written')
  assert.deepEqual(await ids({ companyStatus: '1' }), [c.userId])
  assert.deepEqual(await ids({ q: '99999999999' }), [])

  const first = await search({ rows: '2' })
  assert.deepEqual([first.total, first.totalPage, first.records.length], [3, 2, 2])
  const second = await search({ rows: '2', page: '2' })
  assert.deepEqual(
    second.records.map((r) => r.id),
    [a.userId],
  )
  const row = (await search({ q: '13811112222' })).records[0]
  assert.equal(row.mobile, '13811112222', 'operators see the full number')
  assert.equal(row.frozen, false)
})

test('the number and id lookups read an index, never every user', async (t) => {
  const ta = await buildTestApp(t)
  const db = ta.database.db
  for (const q of ['13811112222', '2222', '42', '123456789012']) {
    const where = searchFilter(q)!
    const query = db.select({ id: users.id }).from(users).where(where).toSQL()
    const plan = await db.transaction(async (tx) => {
      // on a nearly empty table a scan is cheapest; forbid it to see whether an index can answer
      await tx.execute(sql`set local enable_seqscan = off`)
      const text = query.sql.replace(/\$(\d+)/g, (_, n: string) => {
        const value = query.params[Number(n) - 1]
        return typeof value === 'number' ? String(value) : `'${String(value)}'`
      })
      const result = (await tx.execute(sql.raw(`explain ${text}`))) as unknown as {
        rows: Record<string, unknown>[]
      }
      return result.rows.map((row) => Object.values(row)[0]).join('\n')
    })
    assert.doesNotMatch(plan, /Seq Scan on users/, `${q}:\n${plan}`)
    assert.match(plan, /users_mobile_phone_key|users_mobile_tail_idx|users_pkey/, plan)
  }
})

test('company requests: verify and reject as npm run company:verify does, audited; no request is 4021', async (t) => {
  const ta = await buildTestApp(t)
  const ops = await operatorAs(ta, 'operations')
  const requester = async (mobile: string, companyName: string) => {
    const session = await loginWithSms(ta, mobile)
    const saved = await post(
      ta.app,
      '/user/updateCompanyInfo',
      { companyName, address: '上海市', workTypes: [] },
      session,
    )
    assert.equal(saved.code, 200, saved.msg)
    return session
  }
  const good = await requester('13800000011', '真实科技有限公司')
  const bad = await requester('13800000012', '可疑贸易公司')

  const verified = await adminCall<AdminUserRow>(
    ta,
    'POST',
    `/users/${good.userId}/company/verify`,
    {
      as: ops,
      body: {},
    },
  )
  assert.equal(verified.code, 200, verified.msg)
  assert.deepEqual([verified.data.userType, verified.data.companyStatus], [2, 2])
  const twice = await adminCall(ta, 'POST', `/users/${good.userId}/company/verify`, {
    as: ops,
    body: {},
  })
  assert.deepEqual(
    [twice.code, twice.msg],
    [OperatorCode.NO_COMPANY_REQUEST, '该用户没有待审核的企业认证'],
  )
  const rejected = await adminCall<AdminUserRow>(
    ta,
    'POST',
    `/users/${bad.userId}/company/reject`,
    {
      as: ops,
      body: { reason: '营业执照不符' },
    },
  )
  assert.deepEqual([rejected.data.userType, rejected.data.companyStatus], [1, 3])

  const told = await ta.database.db.select().from(messages)
  assert.deepEqual(
    told
      .filter((m) => m.userId === good.userId || m.userId === bad.userId)
      .filter((m) => m.title.startsWith('企业认证'))
      .map((m) => [m.userId, m.title]),
    [
      [good.userId, '企业认证已通过'],
      [bad.userId, '企业认证未通过'],
    ],
  )
  const admin = await operatorAs(ta, 'admin')
  const goodRows = await auditOf(ta, admin, good.userId)
  assert.deepEqual(
    goodRows.map((r) => [r.action, r.before, r.after]),
    [
      [
        'company.verify',
        { companyName: '真实科技有限公司', companyStatus: 1, userType: 1 },
        { companyName: '真实科技有限公司', companyStatus: 2, userType: 2 },
      ],
    ],
  )
  const badRows = await auditOf(ta, admin, bad.userId)
  assert.deepEqual(badRows[0].after, {
    companyName: '可疑贸易公司',
    companyStatus: 3,
    userType: 1,
    reason: '营业执照不符',
  })
  const [stored] = await ta.database.db.select().from(users).where(eq(users.id, good.userId))
  assert.equal(stored.userType, 2)
})

test("one user's profile: phones, orders, ledgers, coupons, grants and transfers with counts", async (t) => {
  const ta = await commerceApp(t)
  const as = await operatorAs(ta, 'finance')
  const buyer = await loginWithSms(ta, '13800000021')
  const phones = await runningPhones(ta, buyer, { quantity: 2 })
  const friend = await loginWithSms(ta, '13800000022')
  const granted = await post(
    ta.app,
    '/device/empower',
    { deviceIds: [phones[0]], mobilePhone: '13800000022', permission: 1, days: 7 },
    buyer,
  )

  const reply = await adminCall<AdminUserDetail>(ta, 'GET', `/users/${buyer.userId}`, { as })
  assert.equal(reply.code, 200, reply.msg)
  const detail = reply.data
  assert.equal(detail.user.mobile, '13800000021')
  assert.equal(detail.phones.total, 2)
  assert.deepEqual(
    detail.phones.records.map((p) => [p.id, p.status]).sort(),
    phones.map((id) => [id, 1]).sort(),
  )
  assert.ok(detail.phones.records.every((p) => p.expireAt > ta.clock.now().getTime()))
  assert.equal(detail.orders.total, 1)
  assert.equal(detail.orders.records[0].status, 2)
  assert.ok(detail.orders.records[0].amount > 0)
  assert.equal(granted.code, 200, granted.msg)
  assert.equal(detail.grants.total, 1)
  assert.equal(detail.grants.records[0].direction, 'given')
  const friendView = await adminCall<AdminUserDetail>(ta, 'GET', `/users/${friend.userId}`, { as })
  assert.equal(friendView.data.grants.records[0].direction, 'received')
  // each side names the other user by number (and nickname), read with the grant
  assert.equal(detail.grants.records[0].otherMobile, '13800000022')
  assert.equal(friendView.data.grants.records[0].otherMobile, '13800000021')
  assert.equal(friendView.data.phones.total, 0)
  // registration's new-user coupons
  assert.ok(detail.coupons.total >= 1)
  assert.equal(detail.coupons.records[0].status, 1)
  assert.deepEqual(
    [detail.beanLedger.total, detail.accountLedger.total, detail.transfers.total],
    [0, 0, 0],
  )

  // more than RECENT rows: the list stops at RECENT, the count does not
  const db = ta.database.db
  await db.transaction(async (tx) => {
    for (let i = 1; i <= RECENT + 2; i++) {
      await ta.app.services.beans.credit(tx, buyer.userId, i, { reason: 'grant' })
    }
    await credit(
      tx,
      COMPANY_ACCOUNT,
      buyer.userId,
      500,
      { reason: 'recharge', orderId: detail.orders.records[0].id },
      ta.clock.now(),
    )
  })
  await db.insert(deviceTransfers).values({
    batchId: 'b1',
    fromUserId: buyer.userId,
    toUserId: friend.userId,
    deviceId: phones[1],
    deviceName: 'phone',
    expireAt: ta.clock.now(),
    createdAt: ta.clock.now(),
  })
  const more = (await adminCall<AdminUserDetail>(ta, 'GET', `/users/${buyer.userId}`, { as })).data
  assert.equal(more.beanLedger.total, RECENT + 2)
  assert.equal(more.beanLedger.records.length, RECENT)
  assert.equal(more.beanLedger.records[0].balanceAfter, ((RECENT + 2) * (RECENT + 3)) / 2)
  assert.equal(more.user.beanBalance, ((RECENT + 2) * (RECENT + 3)) / 2)
  assert.deepEqual(
    more.accountLedger.records.map((r) => [r.change, r.reason, r.orderNo]),
    [[500, 'recharge', detail.orders.records[0].orderNo]],
  )
  assert.equal(more.user.accountBalance, 500)
  assert.deepEqual(
    more.transfers.records.map((r) => [r.direction, r.deviceId, r.toUserId]),
    [['out', phones[1], friend.userId]],
  )
  const friendMore = await adminCall<AdminUserDetail>(ta, 'GET', `/users/${friend.userId}`, { as })
  assert.equal(friendMore.data.transfers.records[0].direction, 'in')
  assert.deepEqual(
    [more.transfers.records[0].otherMobile, friendMore.data.transfers.records[0].otherMobile],
    ['13800000022', '13800000021'],
  )
  const missing = await adminCall(ta, 'GET', '/users/999999', { as })
  assert.equal(missing.code, OperatorCode.USER_NOT_FOUND)
})
