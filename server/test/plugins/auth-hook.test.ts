import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { users } from '../../src/db/schema'
import { buildTestApp, call, get, loginWithSms, post } from '../helpers/test-app'
import type { LoginResult, SandboxLastSms, SendSmsCodeResult } from '../../src/contract/auth'
import type { CommonConfig, DeviceStatusEntry } from '../../src/contract/config'
import type { UserInfo } from '../../src/contract/user'

test('the auth hook guards every non-public API route', async (t) => {
  const ctx = await buildTestApp(t)
  const { app } = ctx
  const session = await loginWithSms(ctx, '13800000001')
  const expired = (reply: { code: number; msg: string; status: number }) => {
    assert.equal(reply.status, 200, 'the client reads the code, not the HTTP status')
    assert.equal(reply.code, 2017)
    assert.equal(reply.msg, '登录已过期，请重新登录')
  }

  await t.test('a valid token and matching userId pass', async () => {
    const reply = await get<UserInfo>(app, '/user/getUserInfo', session)
    assert.equal(reply.code, 200)
    assert.equal(reply.data.userId, session.userId)
  })

  await t.test('no token → 2017', async () =>
    expired(await get<UserInfo>(app, '/user/getUserInfo')),
  )

  await t.test("a token with someone else's userId → 2017", async () => {
    const other = await loginWithSms(ctx, '13800000002')
    expired(
      await get<UserInfo>(app, '/user/getUserInfo', { token: session.token, userId: other.userId }),
    )
    expired(
      await get<UserInfo>(app, '/user/getUserInfo', {
        token: 'f'.repeat(64),
        userId: session.userId,
      }),
    )
  })

  await t.test('auth is checked before input validation', async () => {
    expired(await post<UserInfo>(app, '/user/updateCompanyInfo', { nonsense: true }))
  })

  await t.test('an expired token → 2017', async () => {
    const short = await loginWithSms(ctx, '13800000003')
    ctx.clock.advance(31 * 86_400_000)
    expired(await get<UserInfo>(app, '/user/getUserInfo', short))
  })

  await t.test('exitLogin revokes only the current token', async () => {
    const first = await loginWithSms(ctx, '13800000004')
    const second = await loginWithSms(ctx, '13800000004')
    assert.equal((await post<null>(app, '/user/exitLogin', {}, first)).code, 200)
    expired(await get<UserInfo>(app, '/user/getUserInfo', first))
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', second)).code, 200)
  })

  await t.test('a frozen account gets 1057 on every authenticated call and on login', async () => {
    const victim = await loginWithSms(ctx, '13800000005')
    await ctx.database.db.update(users).set({ frozen: true }).where(eq(users.id, victim.userId))
    const reply = await get<UserInfo>(app, '/user/getUserInfo', victim)
    assert.equal(reply.code, 1057)
    assert.equal(reply.msg, '账号已被冻结')
    ctx.clock.advance(61_000)
    await post<SendSmsCodeResult>(app, '/sms/sendSmsCode', {
      mobilePhone: '13800000005',
      type: 'login',
    })
    const code = (
      await get<SandboxLastSms>(app, '/sandbox/sms/last', undefined, { mobilePhone: '13800000005' })
    ).data.code
    const login = await post<LoginResult>(app, '/common/userLogin/confirm', {
      mobilePhone: '13800000005',
      code,
    })
    assert.equal(login.code, 1057)
  })

  await t.test('public routes need no token', async () => {
    assert.equal((await get<CommonConfig>(app, '/configure/getCommonConfig')).code, 200)
    assert.equal(
      (await call<DeviceStatusEntry[]>(app, 'GET', '/dict/getDeviceStatusList')).code,
      200,
    )
  })
})
