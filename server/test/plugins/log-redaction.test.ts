/**
 * The server log never holds a secret: query values and path parameters of every URL are replaced
 * (pay-link tokens, scan-login poll keys, control-page tokens, trade numbers, cover ids), request
 * headers (the login token) are not logged, and a database error is logged by its SQLSTATE and
 * constraint, without its SQL or the values bound to it.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { sql } from 'drizzle-orm'
import { buildApp } from '../../src/app'
import { LOG_SERIALIZERS, redactUrl, serializeError } from '../../src/plugins/log-redaction'
import { createTestDatabase } from '../helpers/test-database'
import { authHeaders, post, sendCode } from '../helpers/test-app'
import { testConfig } from '../helpers/test-config'
import type { LoginResult } from '../../src/contract/auth'
import type { ScanLoginSession } from '../../src/contract/scan-login'

/** A logger that keeps every line it writes. */
function capturedLog() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      done()
    },
  })
  return { lines, logger: { level: 'debug', stream } }
}

test('redactUrl keeps the path and the names, never a value', () => {
  assert.equal(redactUrl('/pages/pay/pay?link=abc&x'), '/pages/pay/pay?link=***&x=***')
  assert.equal(redactUrl('/vmcloud/api/health'), '/vmcloud/api/health')
  assert.equal(
    redactUrl(
      '/vmcloud/api/sandbox/supplier/cover/sbx_0123456789abcdef0123?t=1',
      '/vmcloud/api/sandbox/supplier/cover/:instanceId',
    ),
    '/vmcloud/api/sandbox/supplier/cover/:instanceId?t=***',
  )
  assert.equal(redactUrl('/files/a.png', '/files/*'), '/files/a.png')
})

test('no secret a request carries, and no SQL value of a failed query, reaches the log', async (t) => {
  const { lines, logger } = capturedLog()
  const database = await createTestDatabase()
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-files-'))
  const app = await buildApp({ config: testConfig({ filesDir }), database, overrides: { logger } })
  const secretValue = `secret-${randomBytes(8).toString('hex')}`
  // a route whose query fails in the database with a value bound to it
  app.get('/vmcloud/api/test/failing-query', { config: { public: true } }, async () => {
    await database.db.execute(sql`select ${secretValue}::int as n`)
    return 'unreachable'
  })
  t.after(async () => {
    await app.close()
    await database.close()
    fs.rmSync(filesDir, { recursive: true, force: true })
  })
  await app.ready()

  const mobilePhone = '13600000021'
  const code = await sendCode(app, mobilePhone)
  const login = await post<LoginResult>(app, '/common/userLogin/confirm', { mobilePhone, code })
  assert.equal(login.code, 200, login.msg)
  const session = login.data as { token: string; userId: number }
  const created = await post<ScanLoginSession>(app, '/user/scanLogin/create', {})
  assert.equal(created.code, 200, created.msg)
  const pollKey = String(created.data.pollKey)

  const secrets = {
    'login token': session.token,
    'poll key': pollKey,
    'pay link': `link${randomBytes(12).toString('hex')}`,
    'control token': `ctl${randomBytes(12).toString('hex')}`,
    'trade number': `T${randomBytes(10).toString('hex')}`,
    'cover id': `sbx_${randomBytes(10).toString('hex')}`,
    'bound value': secretValue,
    password: `pw-${randomBytes(6).toString('hex')}`,
  }
  const calls = [
    `/vmcloud/api/user/scanLogin/status?pollKey=${pollKey}`,
    `/pages/pay/pay?link=${secrets['pay link']}`,
    `/vmcloud/api/sandbox/supplier/control?deviceId=1&token=${secrets['control token']}&userId=1`,
    `/vmcloud/api/sandbox/pay/checkout?tradeNo=${secrets['trade number']}`,
    `/vmcloud/api/sandbox/supplier/cover/${secrets['cover id']}`,
    `/vmcloud/api/user/getUserInfo`,
  ]
  for (const url of calls) {
    await app.inject({ url, headers: { ...authHeaders(session), accept: 'text/html' } })
  }
  // a body the JSON parser refuses quotes itself in the parser's message
  await app.inject({
    method: 'POST',
    url: '/vmcloud/api/common/userLogin/password',
    headers: { 'content-type': 'application/json' },
    payload: `{"mobilePhone":"${mobilePhone}","password":"${secrets.password}"`,
  })
  const failed = await app.inject({ url: '/vmcloud/api/test/failing-query' })
  assert.equal(failed.statusCode, 500)
  assert.deepEqual(Object.keys(failed.json().data), ['errorId'])

  const log = lines.join('\n')
  for (const [what, secret] of Object.entries(secrets)) {
    assert.ok(!log.includes(secret), `the log holds the ${what}`)
  }
  assert.ok(!/select .*::int/i.test(log), 'the log holds the SQL')
  // what the log does say: which URLs were asked for, and what failed in the database
  assert.ok(log.includes('/vmcloud/api/user/scanLogin/status?pollKey=***'))
  assert.ok(log.includes('/vmcloud/api/sandbox/supplier/cover/:instanceId'))
  const unhandled = lines.map((line) => JSON.parse(line)).find((e) => e.msg === 'unhandled error')
  assert.ok(unhandled, 'the failure is logged')
  assert.equal(unhandled.err.sqlState, '22P02', 'by its SQLSTATE')
  assert.match(unhandled.err.stack, /at /, 'with its stack frames')
  assert.ok(log.includes(`"errorId":"${unhandled.errorId}"`))
})

test('an error logged anywhere (a job, a service) keeps a failed query’s SQL and values out', async (t) => {
  const database = await createTestDatabase()
  t.after(() => database.close())
  const secret = `v-${randomBytes(6).toString('hex')}`
  const error = await database.db
    .execute(sql`insert into users (mobile_phone) values (${secret}), (${secret})`)
    .then(
      () => null,
      (e: unknown) => e,
    )
  assert.ok(error instanceof Error, 'the insert fails')
  assert.ok(error.message.includes(secret), 'the raw error carries the value')
  const wrapped = new Error('job failed', { cause: error })
  for (const logged of [serializeError(error), serializeError(wrapped)]) {
    const text = JSON.stringify(logged)
    assert.ok(!text.includes(secret), text)
    assert.ok(!text.includes('insert into'), text)
    assert.ok(typeof logged.sqlState === 'string' && logged.sqlState.length === 5, text)
  }
  // anything else is logged whole
  const plain = serializeError(Object.assign(new Error('boom'), { statusCode: 502 }))
  assert.equal(plain.message, 'boom')
  assert.equal(plain.statusCode, 502)
  assert.equal(LOG_SERIALIZERS.err('provider said no'), 'provider said no', 'a string stays')
})
