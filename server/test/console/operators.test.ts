/**
 * Operator actions: each route's role check (a table, every role on every route), and each
 * action's audit row with before and after, written in the same transaction as the change.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { asc } from 'drizzle-orm'
import { mayDo, OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type {
  AuditPage,
  CreatedOperator,
  OperatorList,
  OperatorRow,
} from '../../src/console/contract'
import { operatorAudit, operators } from '../../src/db/schema'
import {
  adminCall,
  createOperator,
  OPERATOR_PASSWORD,
  signIn,
  totpAt,
  type OperatorSession,
} from './helpers'
import { buildTestApp, type TestApp } from '../helpers/test-app'

type Method = 'GET' | 'POST' | 'DELETE'
interface RouteCase {
  method: Method
  url: (spare: number) => string
  body?: (ta: TestApp, op: CreatedOperator, n: number) => unknown
  /** The roles this route admits: written out here, not read from the route. */
  allowed: OperatorRole[]
}

const ADMIN: OperatorRole[] = ['admin']
const EVERYONE: OperatorRole[] = [...OPERATOR_ROLES]

const ROUTES: RouteCase[] = [
  { method: 'GET', url: () => '/session', allowed: EVERYONE },
  { method: 'GET', url: () => '/operators', allowed: ADMIN },
  {
    method: 'POST',
    url: () => '/operators',
    body: (_ta, _op, n) => ({ name: `made${n}`, role: 'support', password: 'a-long-password-1' }),
    allowed: ADMIN,
  },
  { method: 'POST', url: (spare) => `/operators/${spare}/disable`, allowed: ADMIN },
  { method: 'POST', url: (spare) => `/operators/${spare}/enable`, allowed: ADMIN },
  {
    method: 'POST',
    url: () => '/operators/me/password',
    // a wrong current password: past the role check, nothing changes
    body: (ta, op) => ({
      currentPassword: 'not-the-password',
      newPassword: 'a-new-long-password',
      totp: totpAt(ta, op.totpSecret),
    }),
    allowed: EVERYONE,
  },
  { method: 'GET', url: () => '/audit', allowed: ADMIN },
  // last: it ends the session
  { method: 'DELETE', url: () => '/session', allowed: EVERYONE },
]

test('each role on each operator route: admitted where the table says, refused with 4003 elsewhere', async (t) => {
  const ta = await buildTestApp(t)
  const spare = await createOperator(ta, 'spare', 'support')
  const people = new Map<OperatorRole, { op: CreatedOperator; session: OperatorSession }>()
  for (const role of OPERATOR_ROLES) {
    const op = await createOperator(ta, `as-${role}`, role)
    people.set(role, { op, session: await signIn(ta, op) })
  }
  let n = 0
  const problems: string[] = []
  for (const route of ROUTES) {
    for (const role of OPERATOR_ROLES) {
      const { op, session } = people.get(role)!
      const url = route.url(spare.operator.id)
      const reply = await adminCall(ta, route.method, url, {
        as: session,
        body: route.body?.(ta, op, n++),
      })
      const allowed = route.allowed.includes(role)
      const refused = reply.code === OperatorCode.FORBIDDEN
      if (allowed === refused) {
        problems.push(`${role} ${route.method} ${url} → ${reply.code} ${reply.msg}`)
      }
      if (refused) assert.equal(reply.msg, '无权执行此操作')
      if (!refused && reply.code !== 200) {
        assert.equal(reply.code, OperatorCode.CREDENTIALS_WRONG, `${route.method} ${url}`)
      }
    }
  }
  assert.deepEqual(problems, [])
  // the console hides by the same table the server enforces
  assert.ok(mayDo('admin', 'manageOperators') && !mayDo('support', 'manageOperators'))
  assert.ok(mayDo('finance', 'refundOrders') && !mayDo('admin', 'refundOrders'))
})

test('every operator action writes its audit row with before and after, never a secret', async (t) => {
  const ta = await buildTestApp(t)
  const root = await createOperator(ta, 'root', 'admin')
  const me = await signIn(ta, root)

  const created = await adminCall<CreatedOperator>(ta, 'POST', '/operators', {
    as: me,
    body: { name: 'Alice', role: 'finance', password: 'alice-long-password' },
  })
  assert.equal(created.code, 200, created.msg)
  const alice = created.data
  assert.equal(alice.operator.name, 'alice')
  assert.equal(alice.operator.role, 'finance')
  assert.match(alice.otpauthUrl, new RegExp(`secret=${alice.totpSecret}`))
  const dup = await adminCall(ta, 'POST', '/operators', {
    as: me,
    body: { name: 'ALICE', role: 'support', password: 'alice-long-password' },
  })
  assert.deepEqual([dup.code, dup.msg], [OperatorCode.NAME_TAKEN, '该账号名已存在'])

  const aliceSession = await signIn(ta, alice, 'alice-long-password')
  const disabled = await adminCall<OperatorRow>(
    ta,
    'POST',
    `/operators/${alice.operator.id}/disable`,
    {
      as: me,
    },
  )
  assert.equal(disabled.code, 200)
  assert.equal(disabled.data.disabledAt, ta.clock.now().getTime())
  const ended = await adminCall(ta, 'GET', '/session', { as: aliceSession })
  assert.equal(ended.code, OperatorCode.NOT_SIGNED_IN, 'disabling ends her sessions at once')
  const enabled = await adminCall<OperatorRow>(
    ta,
    'POST',
    `/operators/${alice.operator.id}/enable`,
    {
      as: me,
    },
  )
  assert.equal(enabled.data.disabledAt, null)
  assert.equal(
    (await adminCall(ta, 'GET', '/session', { as: aliceSession })).code,
    OperatorCode.NOT_SIGNED_IN,
  )

  const self = await adminCall(ta, 'POST', `/operators/${root.operator.id}/disable`, { as: me })
  assert.deepEqual([self.code, self.msg], [OperatorCode.CANNOT_DISABLE_SELF, '不能停用自己的账号'])
  const unknown = await adminCall(ta, 'POST', '/operators/9999/disable', { as: me })
  assert.equal(unknown.code, OperatorCode.OPERATOR_NOT_FOUND)

  // own password: the current one and a fresh TOTP code; other sessions end, this one stays
  const other = await signIn(ta, root)
  const wrong = await adminCall(ta, 'POST', '/operators/me/password', {
    as: me,
    body: {
      currentPassword: 'nope-nope-nope',
      newPassword: 'root-new-password',
      totp: totpAt(ta, root.totpSecret),
    },
  })
  assert.deepEqual(
    [wrong.code, wrong.msg],
    [OperatorCode.CREDENTIALS_WRONG, '当前密码或动态码错误'],
  )
  const changed = await adminCall(ta, 'POST', '/operators/me/password', {
    as: me,
    body: {
      currentPassword: OPERATOR_PASSWORD,
      newPassword: 'root-new-password',
      totp: totpAt(ta, root.totpSecret),
    },
  })
  assert.equal(changed.code, 200, changed.msg)
  assert.equal((await adminCall(ta, 'GET', '/session', { as: me })).code, 200)
  assert.equal(
    (await adminCall(ta, 'GET', '/session', { as: other })).code,
    OperatorCode.NOT_SIGNED_IN,
  )
  ta.clock.advance(30_000)
  await signIn(ta, root, 'root-new-password')

  const list = await adminCall<OperatorList>(ta, 'GET', '/operators', { as: me })
  assert.deepEqual(
    list.data.map((o) => o.name),
    ['root', 'alice'],
  )

  const page = await adminCall<AuditPage>(ta, 'GET', '/audit', { as: me, query: { rows: '100' } })
  assert.equal(page.code, 200)
  const actions = page.data.records.map((r) => `${r.actor}:${r.action}:${r.targetId}`)
  assert.deepEqual(actions.reverse(), [
    'cli:operator.create:1',
    'operator:session.signIn:1',
    'operator:operator.create:2',
    'operator:session.signIn:2',
    'operator:operator.disable:2',
    'operator:operator.enable:2',
    'operator:session.signIn:1',
    'operator:operator.password:1',
    'operator:session.signIn:1',
  ])
  const disableRow = page.data.records.find((r) => r.action === 'operator.disable')!
  assert.equal(disableRow.operatorName, 'root')
  assert.equal(disableRow.ip, '127.0.0.1')
  assert.deepEqual(disableRow.before, { ...enabled.data })
  assert.deepEqual(disableRow.after, { ...disabled.data })
  const passwordRow = page.data.records.find((r) => r.action === 'operator.password')!
  assert.deepEqual(passwordRow.after, { otherSessionsEnded: 1 })

  // nothing secret anywhere in the log
  const stored = await ta.database.db.select().from(operators).orderBy(asc(operators.id))
  const everything = JSON.stringify(await ta.database.db.select().from(operatorAudit))
  for (const operator of stored) {
    assert.ok(!everything.includes(operator.passwordHash))
    assert.ok(!everything.includes(operator.totpSecret))
  }
  assert.doesNotMatch(everything, /passwordHash|password_hash|totpSecret|totp_secret|\$argon2/i)

  // filters and paging, newest first
  const byAction = await adminCall<AuditPage>(ta, 'GET', '/audit', {
    as: me,
    query: { action: 'session.signIn', operatorId: String(root.operator.id), rows: '2' },
  })
  assert.equal(byAction.data.total, 3)
  assert.equal(byAction.data.totalPage, 2)
  assert.ok(byAction.data.records[0].at >= byAction.data.records[1].at)
  const byTarget = await adminCall<AuditPage>(ta, 'GET', '/audit', {
    as: me,
    query: { targetType: 'operator', targetId: String(alice.operator.id) },
  })
  assert.equal(byTarget.data.total, 4)
})

test('an action whose audit row cannot be written does not happen', async (t) => {
  const ta = await buildTestApp(t)
  const root = await createOperator(ta, 'root', 'admin')
  const target = await createOperator(ta, 'target', 'support')
  const me = await signIn(ta, root)
  const audit = ta.app.console.audit
  const record = audit.record.bind(audit)
  audit.record = async (tx, entry) => {
    await record(tx, entry)
    throw new Error('audit store failed after the insert')
  }
  t.after(() => {
    audit.record = record
  })
  const created = await adminCall(ta, 'POST', '/operators', {
    as: me,
    body: { name: 'ghost', role: 'support', password: 'ghost-long-password' },
  })
  assert.equal(created.status, 500)
  const disabled = await adminCall(ta, 'POST', `/operators/${target.operator.id}/disable`, {
    as: me,
  })
  assert.equal(disabled.status, 500)
  const rows = await ta.database.db.select().from(operators).orderBy(asc(operators.id))
  assert.deepEqual(
    rows.map((r) => [r.name, r.disabledAt]),
    [
      ['root', null],
      ['target', null],
    ],
  )
})
