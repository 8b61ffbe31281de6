/**
 * Operator sign-in, the session cookie, CSRF, expiry and the wall between the user API and the admin
 * API. Every wrong sign-in answers the same code and message.
 */
import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { eq } from 'drizzle-orm'
import { OperatorCode, ResultCode } from '#domain/result-codes'
import type { ServerConfig } from '../../src/config'
import { operatorAudit, operators, operatorSessions } from '../../src/db/schema'
import type { AdminSession } from '../../src/console/contract'
import { adminCall, createOperator, OPERATOR_PASSWORD, signIn, totpAt } from './helpers'
import { authHeaders, buildTestApp, call, loginWithSms } from '../helpers/test-app'

const SIGN_IN_FAILED = '账号、密码或动态码错误'

test('sign-in: right name, password and TOTP open a session; every wrong part gets the same answer', async (t) => {
  const ta = await buildTestApp(t)
  const root = await createOperator(ta, 'Root', 'admin')
  assert.equal(root.operator.name, 'root', 'names are stored in lower case')
  assert.match(root.otpauthUrl, /^otpauth:\/\/totp\/.*secret=[A-Z2-7]+/)
  const disabled = await createOperator(ta, 'gone', 'support')
  await ta.app.console.operators.setDisabled(
    { operatorId: null, ip: null },
    disabled.operator.id,
    true,
  )

  const attempt = (body: Record<string, string>) =>
    adminCall<AdminSession>(ta, 'POST', '/session', { body })
  const code = () => totpAt(ta, root.totpSecret)
  const wrong = [
    { name: 'root', password: 'wrong-password-1', totp: code() },
    { name: 'root', password: OPERATOR_PASSWORD, totp: code() === '000000' ? '111111' : '000000' },
    { name: 'root', password: OPERATOR_PASSWORD, totp: 'abc' },
    { name: 'nobody', password: OPERATOR_PASSWORD, totp: code() },
    { name: 'gone', password: OPERATOR_PASSWORD, totp: totpAt(ta, disabled.totpSecret) },
    { name: 'root', password: OPERATOR_PASSWORD, totp: totpAt(ta, root.totpSecret, 120) },
  ]
  for (const body of wrong) {
    const reply = await attempt(body)
    assert.deepEqual(
      [reply.status, reply.code, reply.msg],
      [200, OperatorCode.SIGN_IN_FAILED, SIGN_IN_FAILED],
      JSON.stringify(body),
    )
    assert.equal(reply.headers['set-cookie'], undefined)
  }

  // the previous and the next step are accepted (clock drift), in upper case too
  const good = await attempt({
    name: 'ROOT',
    password: OPERATOR_PASSWORD,
    totp: totpAt(ta, root.totpSecret, -30),
  })
  assert.equal(good.code, 200, good.msg)
  assert.deepEqual(good.data.operator, { id: root.operator.id, name: 'root', role: 'admin' })
  assert.match(good.data.csrfToken, /^[A-Za-z0-9_-]{43}$/)
  // the same code again (a replay), and an older one, are refused
  const replay = await attempt({
    name: 'root',
    password: OPERATOR_PASSWORD,
    totp: totpAt(ta, root.totpSecret, -30),
  })
  assert.equal(replay.code, OperatorCode.SIGN_IN_FAILED)
  const older = await attempt({
    name: 'root',
    password: OPERATOR_PASSWORD,
    totp: totpAt(ta, root.totpSecret, -60),
  })
  assert.equal(older.code, OperatorCode.SIGN_IN_FAILED)
  const next = await attempt({
    name: 'root',
    password: OPERATOR_PASSWORD,
    totp: totpAt(ta, root.totpSecret, 30),
  })
  assert.equal(next.code, 200, 'a later step is still good')

  // cookie: httpOnly, SameSite=Strict, the console's path only, not Secure outside production
  const cookie = String(good.headers['set-cookie'])
  assert.match(cookie, /HttpOnly/)
  assert.match(cookie, /SameSite=Strict/)
  assert.match(cookie, /Path=\/vmcloud\/admin(;|$)/)
  assert.doesNotMatch(cookie, /Secure/)
  // the database keeps the secret's hash only
  const secret = /vmcloud_admin_session=([^;]+)/.exec(cookie)![1]
  const stored = await ta.database.db.select().from(operatorSessions)
  assert.equal(stored.length, 2)
  assert.ok(stored.every((row) => row.tokenHash !== secret && /^[0-9a-f]{64}$/.test(row.tokenHash)))

  const rows = await ta.database.db
    .select()
    .from(operatorAudit)
    .where(eq(operatorAudit.action, 'session.signIn'))
  assert.equal(rows.length, 2, 'each sign-in is audited; refusals are not rows')
})

test('the cookie is Secure in production', async (t) => {
  const ta = await buildTestApp(t, { config: { production: true } })
  const root = await createOperator(ta, 'root', 'admin')
  const session = await signIn(ta, root)
  assert.match(session.setCookie, /; Secure/)
})

test('GET and DELETE session; unsafe calls need the session’s CSRF token', async (t) => {
  const ta = await buildTestApp(t)
  const root = await createOperator(ta, 'root', 'admin')
  const me = await signIn(ta, root)

  const read = await adminCall<AdminSession>(ta, 'GET', '/session', { as: me })
  assert.equal(read.code, 200)
  assert.deepEqual(read.data, me.session)
  const none = await adminCall(ta, 'GET', '/session')
  assert.deepEqual([none.code, none.msg], [OperatorCode.NOT_SIGNED_IN, '操作员未登录'])
  const forged = await adminCall(ta, 'GET', '/session', {
    headers: { cookie: 'vmcloud_admin_session=' + 'A'.repeat(43) },
  })
  assert.equal(forged.code, OperatorCode.NOT_SIGNED_IN)

  const body = { name: 'helper', role: 'support', password: 'another-long-password' }
  for (const csrf of [null, '', 'x'.repeat(43), me.csrfToken.slice(0, -1)]) {
    const refused = await adminCall(ta, 'POST', '/operators', { as: me, body, csrf })
    assert.deepEqual(
      [refused.code, refused.msg],
      [OperatorCode.CSRF_REFUSED, '页面已过期，请刷新后重试'],
    )
  }
  const signOutWithout = await adminCall(ta, 'DELETE', '/session', { as: me, csrf: null })
  assert.equal(signOutWithout.code, OperatorCode.CSRF_REFUSED)
  assert.equal((await ta.app.console.operators.list()).length, 1, 'nothing was created')

  const created = await adminCall(ta, 'POST', '/operators', { as: me, body })
  assert.equal(created.code, 200, created.msg)

  const out = await adminCall(ta, 'DELETE', '/session', { as: me })
  assert.equal(out.code, 200)
  assert.match(String(out.headers['set-cookie']), /vmcloud_admin_session=;.*Path=\/vmcloud\/admin/)
  const after = await adminCall(ta, 'GET', '/session', { as: me })
  assert.equal(after.code, OperatorCode.NOT_SIGNED_IN, 'the session ended in the database')
})

test('a session ends after 30 minutes idle and 12 hours after sign-in', async (t) => {
  const ta = await buildTestApp(t)
  const root = await createOperator(ta, 'root', 'admin')
  const idle = await signIn(ta, root)
  ta.clock.advance(29 * 60_000)
  assert.equal((await adminCall(ta, 'GET', '/session', { as: idle })).code, 200)
  ta.clock.advance(29 * 60_000)
  assert.equal(
    (await adminCall(ta, 'GET', '/session', { as: idle })).code,
    200,
    'use keeps it alive',
  )
  ta.clock.advance(30 * 60_000)
  assert.equal(
    (await adminCall(ta, 'GET', '/session', { as: idle })).code,
    OperatorCode.NOT_SIGNED_IN,
  )

  const busy = await signIn(ta, root)
  for (let minutes = 0; minutes < 11 * 60 + 40; minutes += 20) {
    ta.clock.advance(20 * 60_000)
    assert.equal((await adminCall(ta, 'GET', '/session', { as: busy })).code, 200, `${minutes}`)
  }
  ta.clock.advance(20 * 60_000)
  const expired = await adminCall(ta, 'GET', '/session', { as: busy })
  assert.equal(expired.code, OperatorCode.NOT_SIGNED_IN, 'never longer than 12 hours')
})

test('a user token gets nothing from the admin API, an operator cookie nothing from the user API', async (t) => {
  const ta = await buildTestApp(t)
  const root = await createOperator(ta, 'root', 'admin')
  const op = await signIn(ta, root)
  const user = await loginWithSms(ta, '13500002001')

  for (const url of ['/session', '/operators', '/audit']) {
    const reply = await adminCall(ta, 'GET', url, { headers: authHeaders(user) })
    assert.equal(reply.code, OperatorCode.NOT_SIGNED_IN, url)
    assert.equal(reply.data, null)
  }
  const cookieOnly = await call(ta.app, 'GET', '/user/getUserInfo', {
    headers: { cookie: `vmcloud_admin_session=${op.cookie}`, 'x-csrf-token': op.csrfToken },
  })
  assert.equal(cookieOnly.code, ResultCode.LOGIN_TOKEN_INVALID)
  // and both at once: each API reads only its own credentials
  const both = await call(ta.app, 'GET', '/user/getUserInfo', {
    session: user,
    headers: { cookie: `vmcloud_admin_session=${op.cookie}` },
  })
  assert.equal(both.code, 200)
})

/** Sign-in attempts as from `ip` (inject's remoteAddress), with the app's sign-in limits on. */
async function limitedConsole(
  t: TestContext,
  signIn?: Pick<
    ServerConfig,
    'operatorSignInPerIpPerMinute' | 'operatorSignInPerNameAndIpPer15Minutes'
  >,
) {
  const ta = await buildTestApp(t, {
    config: { rateLimitPerMinute: 1000, sensitiveRateLimitPerMinute: 20, ...signIn },
  })
  const admin = await createOperator(ta, 'admin', 'admin')
  const tryAs = async (ip: string, body: { name: string; password: string; totp: string }) => {
    const reply = await ta.app.inject({
      method: 'POST',
      url: '/vmcloud/admin/api/session',
      remoteAddress: ip,
      payload: body,
    })
    return { status: reply.statusCode, code: reply.json().code as number }
  }
  const wrong = (name = 'admin') => ({ name, password: 'wrong-password-1', totp: '123456' })
  const right = (name = 'admin') => {
    // a code is good once: each right attempt takes the next step's
    ta.clock.advance(30_000)
    return { name, password: OPERATOR_PASSWORD, totp: totpAt(ta, admin.totpSecret) }
  }
  return { ta, admin, tryAs, wrong, right }
}

test('nobody without the password locks an operator out: wrong sign-ins from any addresses, in any case, and the operator still signs in', async (t) => {
  const { tryAs, wrong, right } = await limitedConsole(t)
  // one address, until it is refused
  for (let i = 0; i < 12; i++) await tryAs('10.0.0.1', wrong(i % 2 ? 'ADMIN' : 'Admin'))
  assert.equal((await tryAs('10.0.0.1', wrong())).status, 429, 'the guessing address is slowed')
  // thirty more addresses, ten wrong passwords each
  for (let a = 0; a < 30; a++) {
    for (let i = 0; i < 10; i++) await tryAs(`10.0.1.${a}`, wrong())
  }
  assert.deepEqual(await tryAs('10.0.9.9', right()), { status: 200, code: 200 })
  assert.deepEqual(await tryAs('10.0.9.9', right('ADMIN')), { status: 200, code: 200 })
})

test('what still limits a guesser: 10 a minute per address, 10 per 15 minutes per name and address, and 10 wrong codes after the right password', async (t) => {
  const { ta, admin, tryAs, wrong, right } = await limitedConsole(t, {
    operatorSignInPerIpPerMinute: 100,
    operatorSignInPerNameAndIpPer15Minutes: 10,
  })
  // per name and address, the name in any case: the eleventh attempt is refused before argon2
  for (let i = 0; i < 10; i++) {
    const reply = await tryAs('10.0.0.1', wrong(i % 2 ? 'ADMIN' : 'admin'))
    assert.equal(reply.code, OperatorCode.SIGN_IN_FAILED)
  }
  assert.equal((await tryAs('10.0.0.1', wrong('Admin'))).status, 429)
  assert.equal((await tryAs('10.0.0.1', right())).status, 429, 'this address, this name')
  assert.equal((await tryAs('10.0.0.1', wrong('other'))).code, OperatorCode.SIGN_IN_FAILED)
  assert.equal((await tryAs('10.0.0.2', right())).code, 200, 'another address')

  // someone who has the password guesses the code: 10 wrong codes in 15 minutes, from any addresses
  const wrongCode = () => {
    const body = right()
    const valid = [-30, 0, 30].map((offset) => totpAt(ta, admin.totpSecret, offset))
    return { ...body, totp: ['000000', '111111', '222222'].find((code) => !valid.includes(code))! }
  }
  for (let i = 0; i < 10; i++) {
    assert.equal((await tryAs(`10.0.3.${i}`, wrongCode())).code, OperatorCode.SIGN_IN_FAILED)
  }
  // then even the right code is refused, with the same answer as any wrong part
  assert.equal((await tryAs('10.0.4.1', right())).code, OperatorCode.SIGN_IN_FAILED)
  // 15 minutes on the count starts again; a wrong password in between is no code guess
  ta.clock.advance(15 * 60_000)
  assert.equal((await tryAs('10.0.4.2', wrong())).code, OperatorCode.SIGN_IN_FAILED)
  assert.equal((await tryAs('10.0.4.3', right())).code, 200, 'after 15 minutes')
})

test('30 codes sent at once after the right password: exactly 10 are counted, and a sign-in starts the count again', async (t) => {
  const ta = await buildTestApp(t)
  const root = await createOperator(ta, 'root', 'admin')
  const valid = [-30, 0, 30].map((offset) => totpAt(ta, root.totpSecret, offset))
  const totp = ['000000', '111111', '222222'].find((code) => !valid.includes(code))!
  const replies = await Promise.all(
    Array.from({ length: 30 }, () =>
      adminCall(ta, 'POST', '/session', {
        body: { name: 'root', password: OPERATOR_PASSWORD, totp },
      }),
    ),
  )
  assert.ok(replies.every((reply) => reply.code === OperatorCode.SIGN_IN_FAILED))
  const counted = async () =>
    (await ta.database.db.select().from(operators).where(eq(operators.id, root.operator.id)))[0]
  assert.equal((await counted()).totpGuesses, 10)
  ta.clock.advance(15 * 60_000)
  await signIn(ta, root)
  assert.deepEqual([(await counted()).totpGuesses, (await counted()).totpGuessesSince], [0, null])
})

test('a sign-in name matches an operator only in ASCII letter case (no Unicode case folding)', async (t) => {
  const ta = await buildTestApp(t)
  const kate = await createOperator(ta, 'kate', 'support')
  const attempt = (name: string) =>
    adminCall<AdminSession>(ta, 'POST', '/session', {
      body: { name, password: OPERATOR_PASSWORD, totp: totpAt(ta, kate.totpSecret) },
    })
  // KELVIN SIGN lower-cases to an ASCII k: it is not the name kate
  assert.equal((await attempt('\u212Aate')).code, OperatorCode.SIGN_IN_FAILED)
  assert.equal((await attempt('KATE')).code, 200)
})

test('two sign-ins racing with the same TOTP code: exactly one gets a session', async (t) => {
  const ta = await buildTestApp(t)
  const root = await createOperator(ta, 'root', 'admin')
  const body = { name: 'root', password: OPERATOR_PASSWORD, totp: totpAt(ta, root.totpSecret) }
  const replies = await Promise.all(
    [1, 2, 3].map(() => adminCall<AdminSession>(ta, 'POST', '/session', { body })),
  )
  assert.deepEqual(replies.map((r) => r.code).sort(), [
    200,
    OperatorCode.SIGN_IN_FAILED,
    OperatorCode.SIGN_IN_FAILED,
  ])
  assert.equal((await ta.database.db.select().from(operatorSessions)).length, 1)
})
