import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, count, eq } from 'drizzle-orm'
import type { SmsAdapter } from '../../src/adapters/sms/sms-adapter'
import { smsCodes } from '../../src/db/schema'
import { MAX_WRONG_GUESSES } from '../../src/domain/sms-policy'
import { buildTestApp, get, lastSmsCode, loginWithSms, post } from '../helpers/test-app'
import type { LoginResult, SandboxLastSms, SendSmsCodeResult } from '../../src/contract/auth'

const MOBILE = '13912345678'

test('SMS codes: resend interval, quota, single use, expiry, provider failure', async (t) => {
  const ctx = await buildTestApp(t)
  const { app, clock } = ctx
  const send = (mobilePhone: string, type = 'login') =>
    post<SendSmsCodeResult>(app, '/sms/sendSmsCode', { mobilePhone, type })
  const login = (mobilePhone: string, code: string) =>
    post<LoginResult>(app, '/common/userLogin/confirm', { mobilePhone, code })

  await t.test('a code is 6 digits and logs a user in once', async () => {
    const sent = await send(MOBILE)
    assert.equal(sent.code, 200)
    assert.deepEqual(sent.data, { resendAfter: 60, expiresIn: 300 })
    const code = await lastSmsCode(app, MOBILE)
    assert.match(code, /^\d{6}$/)
    assert.equal((await login(MOBILE, code)).code, 200)
    const reused = await login(MOBILE, code)
    assert.equal(reused.code, 1006, 'a used code is refused')
  })

  await t.test('the same number+type cannot get another code within 60 s', async () => {
    clock.advance(61_000)
    assert.equal((await send(MOBILE)).code, 200)
    clock.advance(15_000)
    const again = await send(MOBILE)
    assert.equal(again.code, 1013)
    assert.equal(again.msg, '验证码已发送，请45秒后再试')
    assert.equal((await send(MOBILE, 'setPassword')).code, 200, 'another type is independent')
    clock.advance(45_000)
    assert.equal((await send(MOBILE)).code, 200)
  })

  await t.test('a code expires after 5 minutes', async () => {
    const mobile = '13912340001'
    assert.equal((await send(mobile)).code, 200)
    const code = await lastSmsCode(app, mobile)
    clock.advance(5 * 60_000 + 1000)
    assert.equal((await login(mobile, code)).code, 1006)
  })

  await t.test('empty or malformed codes, and wrong codes', async () => {
    assert.equal((await login(MOBILE, '')).code, 1005)
    assert.equal((await login(MOBILE, '12ab')).code, 1006)
    assert.equal((await login(MOBILE, '000000')).code, 1006)
  })

  await t.test('five wrong guesses burn the code', async () => {
    const mobile = '13912340002'
    clock.advance(61_000)
    await send(mobile)
    const code = await lastSmsCode(app, mobile)
    const wrong = code === '111111' ? '222222' : '111111'
    for (let i = 0; i < 5; i++) assert.equal((await login(mobile, wrong)).code, 1006)
    assert.equal((await login(mobile, code)).code, 1006, 'the right code no longer works')
  })

  await t.test('100 parallel wrong guesses count exactly 5 and burn the code', async () => {
    const mobile = '13912340006'
    clock.advance(61_000)
    await send(mobile)
    const code = await lastSmsCode(app, mobile)
    const wrong = code === '111111' ? '222222' : '111111'
    const replies = await Promise.all(Array.from({ length: 100 }, () => login(mobile, wrong)))
    assert.deepEqual(new Set(replies.map((reply) => reply.code)), new Set([1006]))
    const [row] = await ctx.database.db
      .select()
      .from(smsCodes)
      .where(and(eq(smsCodes.mobilePhone, mobile), eq(smsCodes.type, 'login')))
    assert.equal(row.failedAttempts, MAX_WRONG_GUESSES, 'each wrong guess counted, up to the limit')
    assert.ok(row.usedAt, 'the code is burned')
    assert.equal((await login(mobile, code)).code, 1006, 'the right code no longer works')
  })

  await t.test('at most 10 codes per number per day (China time)', async () => {
    const mobile = '13912340003'
    for (let i = 0; i < 10; i++) {
      clock.advance(61_000)
      assert.equal((await send(mobile, i % 2 ? 'login' : 'setPassword')).code, 200)
    }
    clock.advance(61_000)
    const refused = await send(mobile)
    assert.equal(refused.code, 1020)
    clock.advance(24 * 3_600_000)
    assert.equal((await send(mobile)).code, 200, 'a new day has a new quota')
  })

  await t.test('bad type → 1012, bad number → 1008', async () => {
    assert.equal((await send(MOBILE, 'sell-me-things')).code, 1012)
    const badNumber = await send('12345')
    assert.equal(badNumber.code, 1008)
    assert.equal(badNumber.msg, '请输入正确的手机号')
  })

  await t.test('provider failure → 1011, nothing stored, no quota used', async () => {
    const failing = '13900000000'
    const reply = await send(failing)
    assert.equal(reply.code, 1011)
    const [{ n }] = await ctx.database.db
      .select({ n: count() })
      .from(smsCodes)
      .where(eq(smsCodes.mobilePhone, failing))
    assert.equal(n, 0)
    assert.equal(
      (await get<SandboxLastSms>(app, '/sandbox/sms/last', undefined, { mobilePhone: failing }))
        .data,
      null,
    )
    assert.equal((await send(failing)).code, 1011, 'no resend wait either: nothing was sent')
  })

  await t.test('codes are stored hashed', async () => {
    const rows = await ctx.database.db.select().from(smsCodes)
    assert.ok(rows.length > 0)
    for (const row of rows) assert.match(row.codeHash, /^[0-9a-f]{64}$/)
  })

  await t.test("changeOld and deleteAccount codes go to the caller's own number only", async () => {
    const anonymous = await post<SendSmsCodeResult>(app, '/sms/sendSmsCode', {
      mobilePhone: MOBILE,
      type: 'deleteAccount',
    })
    assert.equal(anonymous.code, 2017)
    const session = await loginWithSms(ctx, '13912340004')
    clock.advance(61_000)
    const sent = await post<SendSmsCodeResult>(
      app,
      '/sms/sendSmsCode',
      { mobilePhone: '13912340005', type: 'changeOld' },
      session,
    )
    assert.equal(sent.code, 200)
    assert.equal(
      (
        await get<SandboxLastSms>(app, '/sandbox/sms/last', undefined, {
          mobilePhone: '13912340005',
        })
      ).data,
      null,
    )
    assert.equal(
      (
        await get<SandboxLastSms>(app, '/sandbox/sms/last', undefined, {
          mobilePhone: '13912340004',
        })
      ).data.type,
      'changeOld',
    )
  })
})

test('the sandbox SMS route exists only with the sandbox adapter', async (t) => {
  const sent: string[] = []
  const realLike: SmsAdapter = {
    name: 'fake-real',
    isSandbox: false,
    async sendCode(message) {
      sent.push(message.code)
    },
  }
  const { app } = await buildTestApp(t, { sms: realLike })
  const route = await get<SandboxLastSms>(app, '/sandbox/sms/last', undefined, {
    mobilePhone: MOBILE,
  })
  assert.equal(route.status, 404)
  assert.equal(
    (await post<SendSmsCodeResult>(app, '/sms/sendSmsCode', { mobilePhone: MOBILE, type: 'login' }))
      .code,
    200,
  )
  assert.equal(sent.length, 1)
  const login = await post<LoginResult>(app, '/common/userLogin/confirm', {
    mobilePhone: MOBILE,
    code: sent[0],
  })
  assert.equal(login.code, 200)
})
