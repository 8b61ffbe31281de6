import assert from 'node:assert/strict'
import { test } from 'node:test'
import { count, eq } from 'drizzle-orm'
import { loginFailures, users } from '../../src/db/schema'
import { LOCKED_OUT_MESSAGE, WRONG_CREDENTIALS_MESSAGE } from '../../src/domain/login-policy'
import { buildTestApp, get, loginWithSms, post } from '../helpers/test-app'
import type { LoginResult } from '../../src/contract/auth'
import type { UserInfo } from '../../src/contract/user'

test('code login registers, password login, lockout, password changes', async (t) => {
  const ctx = await buildTestApp(t)
  const { app, clock } = ctx
  const MOBILE = '13700000001'
  const passwordLogin = (password: string, mobilePhone = MOBILE) =>
    post<LoginResult>(app, '/user/login', { mobilePhone, password })

  await t.test('first code login registers the number and records the login context', async () => {
    const first = await loginWithSms(ctx, MOBILE, {
      channelCode: 'douyin-01',
      inviteCode: 'ABCD2345',
      deviceModel: 'iPhone 15',
      shareUser: 7,
    })
    assert.equal(first.firstLogin, 1)
    assert.equal(first.showModifyPassword, 1)
    assert.match(first.token, /^[0-9a-f]{64}$/)
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, first.userId))
    assert.equal(row.channelCode, 'douyin-01')
    assert.equal(row.invitedBy, 'ABCD2345')
    assert.equal(row.deviceModel, 'iPhone 15')
    assert.equal(row.shareUser, 7)
    assert.match(row.inviteCode, /^[A-Z2-9]{8}$/)
    const second = await loginWithSms(ctx, MOBILE)
    assert.equal(second.firstLogin, 0)
    assert.equal(second.userId, first.userId)
  })

  await t.test(
    'password login: an unknown number and an account without a password get the wrong-password answer',
    async () => {
      for (const reply of [
        await passwordLogin('abc12345', '13700000099'),
        await passwordLogin('abc12345'),
      ]) {
        assert.equal(reply.code, 1010)
        assert.equal(reply.msg, WRONG_CREDENTIALS_MESSAGE)
      }
      assert.equal(
        (await post<LoginResult>(app, '/user/login', { mobilePhone: '', password: '' })).code,
        1003,
      )
    },
  )

  const session = await loginWithSms(ctx, MOBILE)

  await t.test('first password: rule enforced, then set once', async () => {
    const weak = await post(
      app,
      '/user/firstUpdateUserPassword',
      { newPassword: '123456' },
      session,
    )
    assert.equal(weak.code, 1080)
    assert.equal(weak.msg, '密码需为6-13位，且同时包含字母和数字')
    assert.equal(
      (await post(app, '/user/firstUpdateUserPassword', { newPassword: 'abc12345' }, session)).code,
      200,
    )
    const again = await post(
      app,
      '/user/firstUpdateUserPassword',
      { newPassword: 'xyz12345' },
      session,
    )
    assert.equal(again.code, 1080)
    assert.equal(again.msg, '已设置过密码，请使用修改密码')
    assert.equal((await passwordLogin('abc12345')).code, 200)
    assert.equal(
      (await passwordLogin('xyz12345')).code,
      1010,
      'the refused second set changed nothing',
    )
    const info = await get<UserInfo>(app, '/user/getUserInfo', session)
    assert.equal(info.data.hasPassword, true)
    const relogin = await loginWithSms(ctx, MOBILE)
    assert.equal(relogin.showModifyPassword, 0)
  })

  await t.test(
    '5 wrong passwords in 15 minutes lock the number, stored in the database',
    async () => {
      clock.advance(60 * 60_000)
      for (let i = 1; i <= 4; i++) {
        const wrong = await passwordLogin('wrong1234')
        assert.equal(wrong.code, 1010)
        assert.equal(wrong.msg, WRONG_CREDENTIALS_MESSAGE)
      }
      const fifth = await passwordLogin('wrong1234')
      assert.equal(fifth.msg, LOCKED_OUT_MESSAGE)
      const right = await passwordLogin('abc12345')
      assert.equal(right.code, 1010)
      assert.equal(right.msg, LOCKED_OUT_MESSAGE, 'even the right password is refused while locked')
      clock.advance(15 * 60_000 + 1000)
      assert.equal((await passwordLogin('abc12345')).code, 200)
    },
  )

  await t.test(
    "a stranger's lockout does not lock the owner out of SMS login, which clears it",
    async () => {
      clock.advance(60 * 60_000)
      for (let i = 0; i < 5; i++) await passwordLogin('wrong1234')
      assert.equal((await passwordLogin('abc12345')).msg, LOCKED_OUT_MESSAGE)
      const bySms = await loginWithSms(ctx, MOBILE)
      assert.equal(bySms.userId, session.userId, 'the owner still gets in with a code')
      assert.equal(
        (await passwordLogin('abc12345')).code,
        200,
        'and the password works again at once',
      )
    },
  )

  await t.test('an unknown number locks the same way as a registered one', async () => {
    const unknown = '13700000098'
    const replies = []
    for (let i = 0; i < 6; i++) replies.push((await passwordLogin('wrong1234', unknown)).msg)
    assert.deepEqual(replies, [
      ...Array(4).fill(WRONG_CREDENTIALS_MESSAGE),
      LOCKED_OUT_MESSAGE,
      LOCKED_OUT_MESSAGE,
    ])
  })

  await t.test('100 parallel wrong passwords: exactly 5 are checked and counted', async () => {
    clock.advance(60 * 60_000)
    const replies = await Promise.all(Array.from({ length: 100 }, () => passwordLogin('wrong1234')))
    const messages = replies.map((reply) => reply.msg)
    assert.equal(messages.filter((msg) => msg === WRONG_CREDENTIALS_MESSAGE).length, 4)
    assert.equal(messages.filter((msg) => msg === LOCKED_OUT_MESSAGE).length, 96)
    const [{ n }] = await ctx.database.db
      .select({ n: count() })
      .from(loginFailures)
      .where(eq(loginFailures.mobilePhone, MOBILE))
    assert.equal(n, 5)
    assert.equal((await passwordLogin('abc12345')).msg, LOCKED_OUT_MESSAGE)
    clock.advance(15 * 60_000 + 1000)
    assert.equal((await passwordLogin('abc12345')).code, 200)
  })

  await t.test('change password: wrong old → 1009 and nothing changes', async () => {
    const wrongOld = await post(
      app,
      '/user/updateUserPassword',
      { oldPassword: 'nope1234', newPassword: 'new12345' },
      session,
    )
    assert.equal(wrongOld.code, 1009)
    const weakNew = await post(
      app,
      '/user/updateUserPassword',
      { oldPassword: 'abc12345', newPassword: 'short' },
      session,
    )
    assert.equal(weakNew.code, 1080)
    assert.equal((await passwordLogin('abc12345')).code, 200)
    assert.equal((await passwordLogin('new12345')).code, 1010)
  })

  await t.test('change password revokes the other sessions but keeps this one', async () => {
    const other = (await passwordLogin('abc12345')).data
    const changed = await post(
      app,
      '/user/updateUserPassword',
      { oldPassword: 'abc12345', newPassword: 'new12345' },
      session,
    )
    assert.equal(changed.code, 200)
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', other)).code, 2017)
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', session)).code, 200)
    assert.equal((await passwordLogin('new12345')).code, 200)
    assert.equal((await passwordLogin('abc12345')).code, 1010)
  })

  await t.test('passwords are stored as argon2id hashes', async () => {
    const [row] = await ctx.database.db.select().from(users).where(eq(users.mobilePhone, MOBILE))
    assert.match(row.passwordHash!, /^\$argon2id\$/)
  })
})
