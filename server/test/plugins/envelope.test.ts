import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildApp } from '../../src/app'
import { buildTestApp, get, post } from '../helpers/test-app'
import { testConfig } from '../helpers/test-config'
import type { LoginResult, SendSmsCodeResult } from '../../src/contract/auth'
import type { CommonConfig, DictEntry, Health } from '../../src/contract/config'

test('envelope, 404, 400 and 500 shapes', async (t) => {
  const ctx = await buildTestApp(t)
  const { app } = ctx

  await t.test('health answers in the envelope', async () => {
    const reply = await get<Health>(app, '/health')
    assert.equal(reply.status, 200)
    assert.deepEqual(
      { code: reply.code, msg: reply.msg, data: reply.data },
      { code: 200, msg: '成功', data: { db: 'ok' } },
    )
  })

  await t.test('unknown API path is HTTP 404 Not Found in the envelope', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await app.inject({ method, url: '/vmcloud/api/no/such/thing' })
      assert.equal(response.statusCode, 404)
      assert.equal(response.json().msg, 'Not Found')
      assert.equal(response.json().code, 404)
    }
  })

  await t.test('a missing field is HTTP 400 naming the field', async () => {
    const reply = await post<LoginResult>(app, '/user/login', { password: 'abc123' })
    assert.equal(reply.status, 400)
    assert.equal(reply.code, 400)
    assert.equal(reply.msg, '缺少参数 mobilePhone')
    assert.equal(reply.data, null)
  })

  await t.test('a wrongly typed or malformed field is HTTP 400 naming the field', async () => {
    const typed = await post<LoginResult>(app, '/user/login', {
      mobilePhone: { a: 1 },
      password: 'abc123',
    })
    assert.equal(typed.status, 400)
    assert.match(typed.msg, /^mobilePhone /)
    const enumBad = await get<DictEntry[]>(app, '/dict/getDictList', undefined, {
      dictType: 'colour',
    })
    assert.equal(enumBad.status, 400)
    assert.equal(enumBad.msg, 'dictType 格式不正确')
  })

  await t.test('a body that is not JSON is HTTP 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/vmcloud/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"mobilePhone":',
    })
    assert.equal(response.statusCode, 400)
    assert.equal(response.json().code, 400)
  })

  await t.test('OpenAPI document is served at /docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs/json' })
    assert.equal(response.statusCode, 200)
    const doc = response.json()
    assert.ok(doc.paths['/vmcloud/api/user/getUserInfo'])
    assert.ok(doc.paths['/vmcloud/api/common/userLogin/confirm'])
  })
})

test('a crash is HTTP 500 with a generic message and no internals', async (t) => {
  const { database } = await buildTestApp(t)
  const app = await buildApp({
    config: testConfig({ filesDir: '/tmp' }),
    database: { ...database, close: async () => {} },
  })
  app.get('/vmcloud/api/__boom', { config: { public: true } }, async () => {
    throw new Error(
      'select password_hash from users where id = 1 -- at Object.<anonymous> (/srv/app.ts:12)',
    )
  })
  t.after(() => app.close())
  const response = await app.inject({ method: 'GET', url: '/vmcloud/api/__boom' })
  assert.equal(response.statusCode, 500)
  const body = response.json()
  assert.equal(body.code, 500)
  assert.equal(body.msg, '服务器开小差了，请稍后重试')
  assert.ok(body.data.errorId, 'an error id the user can quote')
  assert.doesNotMatch(response.body, /password_hash|select|app\.ts/)
})

test('rate limits answer HTTP 429 in the envelope, stricter on SMS', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { rateLimitPerMinute: 1000, sensitiveRateLimitPerMinute: 2 },
  })
  const send = () =>
    post<SendSmsCodeResult>(app, '/sms/sendSmsCode', { mobilePhone: '123', type: 'login' })
  assert.equal((await send()).status, 200)
  assert.equal((await send()).status, 200)
  const limited = await send()
  assert.equal(limited.status, 429)
  assert.equal(limited.code, 429)
  assert.equal(limited.msg, '请求过于频繁，请稍后再试')
  assert.equal(
    (await get<CommonConfig>(app, '/configure/getCommonConfig')).status,
    200,
    'other routes are not affected',
  )
})
