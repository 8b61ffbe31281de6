import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseScanCode, scanPayload } from '#domain/scan-codes'
import { qrDataUrl } from '../../src/services/qr-image'
import {
  SCAN_LOGIN_DONE,
  SCAN_LOGIN_EXPIRED,
  SCAN_LOGIN_TAKEN,
  SCAN_LOGIN_UNKNOWN,
} from '../../src/services/accounts/scan-login-service'
import {
  buildTestApp,
  call,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import type {
  ScanLoginRequest,
  ScanLoginSession,
  ScanLoginState,
} from '../../src/contract/scan-login'
import type { UserInfo } from '../../src/contract/user'

const PHONE = '13700000001'
const OTHER = '13700000002'
const CHROME_WIN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'

async function create(ta: TestApp) {
  const reply = await call<ScanLoginSession>(ta.app, 'POST', '/user/scanLogin/create', {
    body: {},
    headers: { 'user-agent': CHROME_WIN },
  })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data as { sessionId: string; pollKey: string; qrImage: string; expiresAt: number }
}
const status = (ta: TestApp, pollKey: string) =>
  get<ScanLoginState>(ta.app, '/user/scanLogin/status', undefined, { pollKey })
/** scan answers the ScanLoginRequest; confirm and refuse answer the status they set. */
const act = <T = { status: 'confirmed' | 'refused' }>(
  ta: TestApp,
  what: string,
  sessionId: string,
  who?: Session,
) => post<T>(ta.app, `/user/scanLogin/${what}`, { sessionId }, who)

test('create → scan → confirm: the browser collects a working login for that account once', async (t) => {
  const ta = await buildTestApp(t)
  const phone = await loginWithSms(ta, PHONE)
  const session = await create(ta)
  assert.equal(session.expiresAt, ta.clock.now().getTime() + 120_000)

  // the QR image really carries cloudphone:login:<sessionId>
  assert.equal(session.qrImage, await qrDataUrl(scanPayload('login', session.sessionId)))
  assert.deepEqual(parseScanCode(scanPayload('login', session.sessionId)), {
    kind: 'login',
    code: session.sessionId,
  })
  assert.notEqual(session.pollKey, session.sessionId)

  assert.equal((await status(ta, session.pollKey)).data.status, 'pending')
  const scanned = await act<ScanLoginRequest>(ta, 'scan', session.sessionId, phone)
  assert.equal(scanned.code, 200, scanned.msg)
  assert.equal(scanned.data.requester, 'Chrome · Windows')
  assert.equal((await status(ta, session.pollKey)).data.status, 'scanned')
  assert.equal((await status(ta, session.pollKey)).data.login, null)

  const confirmed = await act(ta, 'confirm', session.sessionId, phone)
  assert.equal(confirmed.code, 200, confirmed.msg)
  const first = await status(ta, session.pollKey)
  assert.equal(first.data.status, 'consumed')
  assert.equal(first.data.login!.userId, phone.userId)
  const me = await get<UserInfo>(ta.app, '/user/getUserInfo', first.data.login!)
  assert.equal(me.code, 200, me.msg)
  assert.equal(me.data.userId, phone.userId)

  const second = await status(ta, session.pollKey)
  assert.equal(second.data.status, 'consumed')
  assert.equal(second.data.login, null, 'the token is handed out once')
  assert.equal((await act(ta, 'confirm', session.sessionId, phone)).msg, SCAN_LOGIN_DONE)
})

test('the session id in the QR cannot collect the login; only the poll key can', async (t) => {
  const ta = await buildTestApp(t)
  const phone = await loginWithSms(ta, PHONE)
  const session = await create(ta)
  await act(ta, 'scan', session.sessionId, phone)
  await act(ta, 'confirm', session.sessionId, phone)
  const guessed = await status(ta, session.sessionId)
  assert.equal(guessed.msg, SCAN_LOGIN_UNKNOWN)
  assert.equal((await status(ta, session.pollKey)).data.login!.userId, phone.userId)
})

test('refuse: the browser sees refused, never a token, and it cannot be confirmed after', async (t) => {
  const ta = await buildTestApp(t)
  const phone = await loginWithSms(ta, PHONE)
  const session = await create(ta)
  await act(ta, 'scan', session.sessionId, phone)
  assert.equal((await act(ta, 'refuse', session.sessionId, phone)).data.status, 'refused')
  const state = await status(ta, session.pollKey)
  assert.equal(state.data.status, 'refused')
  assert.equal(state.data.login, null)
  assert.equal((await act(ta, 'confirm', session.sessionId, phone)).msg, SCAN_LOGIN_DONE)
})

test('after two minutes the QR is expired: scan and confirm refused, status expired', async (t) => {
  const ta = await buildTestApp(t)
  const phone = await loginWithSms(ta, PHONE)
  const session = await create(ta)
  await act(ta, 'scan', session.sessionId, phone)
  ta.clock.advance(120_001)
  assert.equal((await act(ta, 'confirm', session.sessionId, phone)).msg, SCAN_LOGIN_EXPIRED)
  const state = await status(ta, session.pollKey)
  assert.equal(state.data.status, 'expired')
  assert.equal(state.data.login, null)
  const late = await create(ta)
  ta.clock.advance(120_001)
  assert.equal((await act(ta, 'scan', late.sessionId, phone)).msg, SCAN_LOGIN_EXPIRED)
})

test('unknown ids, another account, logged out and malformed input change nothing', async (t) => {
  const ta = await buildTestApp(t)
  const phone = await loginWithSms(ta, PHONE)
  const other = await loginWithSms(ta, OTHER)
  const session = await create(ta)

  assert.equal((await act(ta, 'scan', 'f'.repeat(64), phone)).msg, SCAN_LOGIN_UNKNOWN)
  assert.equal((await status(ta, 'a'.repeat(64))).msg, SCAN_LOGIN_UNKNOWN)
  const loggedOut = await act(ta, 'scan', session.sessionId)
  assert.notEqual(loggedOut.code, 200)
  assert.equal((await act(ta, 'confirm', session.sessionId)).code === 200, false)

  await act(ta, 'scan', session.sessionId, phone)
  assert.equal((await act(ta, 'scan', session.sessionId, other)).msg, SCAN_LOGIN_TAKEN)
  assert.equal((await act(ta, 'confirm', session.sessionId, other)).msg, SCAN_LOGIN_TAKEN)
  assert.equal((await act(ta, 'refuse', session.sessionId, other)).msg, SCAN_LOGIN_TAKEN)

  for (const bad of ['', 'xyz', 'F'.repeat(64), 'a'.repeat(65)]) {
    const reply = await act(ta, 'confirm', bad, phone)
    assert.notEqual(reply.code, 200)
    assert.ok(reply.status < 500, `HTTP ${reply.status} for ${JSON.stringify(bad)}`)
  }
  const badPoll = await get<ScanLoginState>(ta.app, '/user/scanLogin/status', undefined, {
    pollKey: 'nope',
  })
  assert.ok(badPoll.code !== 200 && badPoll.status < 500)
  assert.equal((await status(ta, session.pollKey)).data.status, 'scanned')
})

test('housekeeping deletes sessions a day past their expiry, not younger ones', async (t) => {
  const ta = await buildTestApp(t)
  const old = await create(ta)
  ta.clock.advance(86_400_000 + 120_001)
  const fresh = await create(ta)
  assert.equal(await ta.app.services.scanLogin.purgeDead(ta.clock.now()), 1)
  assert.equal((await status(ta, old.pollKey)).msg, SCAN_LOGIN_UNKNOWN)
  assert.equal((await status(ta, fresh.pollKey)).data.status, 'pending')
})
