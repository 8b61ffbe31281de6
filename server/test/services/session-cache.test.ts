import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { buildApp } from '../../src/app'
import { SERVER_DEFAULTS } from '../../src/config'
import { SessionCache } from '../../src/services/accounts/session-cache'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import { testConfig } from '../helpers/test-config'
import type { SandboxLastSms, SendSmsCodeResult } from '../../src/contract/auth'
import type { UserInfo } from '../../src/contract/user'

const session = (userId: number, tokenId: number) => ({ userId, tokenId })

/** Another server instance on the test app's database and clock, with a session cache of its own. */
async function secondInstance(t: TestContext, ctx: TestApp, sessionCacheMs?: number) {
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-files-'))
  const other = await buildApp({
    config: testConfig(sessionCacheMs === undefined ? { filesDir } : { filesDir, sessionCacheMs }),
    database: ctx.database,
    overrides: { clock: ctx.clock },
  })
  t.after(async () => {
    await other.close()
    fs.rmSync(filesDir, { recursive: true, force: true })
  })
  return other
}

test('the session cache keeps an entry for its time, never past the token, and drops it on a change', async () => {
  const cache = new SessionCache<{ userId: number; tokenId: number }>(5_000, 100)
  cache.store('a', session(1, 10), 60_000, 0, cache.begin())
  assert.deepEqual(cache.get('a', 4_999), session(1, 10))
  assert.equal(cache.get('a', 5_000), null, 'not past the cache time')

  cache.store('b', session(1, 11), 3_000, 0, cache.begin())
  assert.equal(cache.get('b', 3_000), null, 'not past the token expiry')

  cache.store('c', session(2, 12), 60_000, 0, cache.begin())
  assert.equal(cache.get('c', -1), null, 'a clock that went back does not extend an entry')

  cache.store('d', session(3, 13), 60_000, 0, cache.begin())
  cache.store('e', session(4, 14), 60_000, 0, cache.begin())
  await cache.change(
    (s) => s.userId === 3,
    async () => {},
  )
  assert.equal(cache.get('d', 1), null, 'the changed user is gone')
  assert.deepEqual(cache.get('e', 1), session(4, 14), 'others stay')
})

test('a lookup that overlapped a change is not kept', async () => {
  const cache = new SessionCache<{ userId: number; tokenId: number }>(5_000, 100)
  const begun = cache.begin()
  await cache.change(
    () => true,
    async () => {},
  )
  cache.store('a', session(1, 10), 60_000, 0, begun)
  assert.equal(cache.get('a', 1), null, 'looked up before the change: may have read the old row')

  let release!: () => void
  const running = cache.change(
    () => true,
    () => new Promise<void>((resolve) => (release = resolve)),
  )
  assert.equal(cache.changing, true)
  cache.store('b', session(1, 10), 60_000, 0, cache.begin())
  assert.equal(cache.get('b', 1), null, 'not while a revoking transaction may be uncommitted')
  release()
  await running
  cache.store('c', session(1, 10), 60_000, 0, cache.begin())
  assert.deepEqual(cache.get('c', 1), session(1, 10))
})

test('the session cache holds at most its size, dropping the oldest entry', () => {
  const cache = new SessionCache<{ userId: number; tokenId: number }>(5_000, 2)
  for (const key of ['a', 'b', 'c']) cache.store(key, session(1, 1), 60_000, 0, cache.begin())
  assert.equal(cache.size, 2)
  assert.equal(cache.get('a', 1), null)
})

test('logout, password change and account deletion end cached sessions at once', async (t) => {
  const ctx = await buildTestApp(t)
  const { app } = ctx
  const expired = async (who: Session) =>
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', who)).code, 2017)
  const live = async (who: Session) =>
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', who)).code, 200)

  const phone = await loginWithSms(ctx, '13700000001')
  const laptop = await loginWithSms(ctx, '13700000001')
  await live(phone)
  await live(laptop)
  assert.equal((await post<null>(app, '/user/exitLogin', {}, laptop)).code, 200)
  await expired(laptop)
  await live(phone)

  assert.equal(
    (await post(app, '/user/firstUpdateUserPassword', { newPassword: 'abc12345' }, phone)).code,
    200,
  )
  const tablet = await loginWithSms(ctx, '13700000001')
  await live(tablet)
  await live(phone)
  const change = { oldPassword: 'abc12345', newPassword: 'xyz12345' }
  assert.equal((await post(app, '/user/updateUserPassword', change, phone)).code, 200)
  await expired(tablet)
  await live(phone)

  await live(phone)
  ctx.clock.advance(61_000)
  await post<SendSmsCodeResult>(
    app,
    '/sms/sendSmsCode',
    { mobilePhone: '13700000001', type: 'deleteAccount' },
    phone,
  )
  const code = (
    await get<SandboxLastSms>(app, '/sandbox/sms/last', undefined, { mobilePhone: '13700000001' })
  ).data.code
  await live(phone)
  assert.equal((await post(app, '/user/logoutUser', { code }, phone)).code, 200)
  await expired(phone)
})

test('a token revoked on one instance is refused by another on the same database within SESSION_CACHE_MS', async (t) => {
  const ctx = await buildTestApp(t)
  const other = await secondInstance(t, ctx)
  const who = await loginWithSms(ctx, '13700000002')
  assert.equal(
    (await get<UserInfo>(other, '/user/getUserInfo', who)).code,
    200,
    'B has it cached now',
  )

  assert.equal((await post<null>(ctx.app, '/user/exitLogin', {}, who)).code, 200)
  assert.equal((await get<UserInfo>(ctx.app, '/user/getUserInfo', who)).code, 2017, 'A: at once')
  ctx.clock.advance(SERVER_DEFAULTS.sessionCacheMs)
  assert.equal(
    (await get<UserInfo>(other, '/user/getUserInfo', who)).code,
    2017,
    'B: within the bound',
  )
})

test('SESSION_CACHE_MS=0 looks every session up', async (t) => {
  const ctx = await buildTestApp(t, { config: { sessionCacheMs: 0 } })
  const other = await secondInstance(t, ctx, 0)
  const who = await loginWithSms(ctx, '13700000003')
  assert.equal((await get<UserInfo>(other, '/user/getUserInfo', who)).code, 200)
  assert.equal((await post<null>(ctx.app, '/user/exitLogin', {}, who)).code, 200)
  assert.equal((await get<UserInfo>(other, '/user/getUserInfo', who)).code, 2017)
})
