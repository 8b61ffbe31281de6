import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { authTokens, users } from '../../src/db/schema'
import { buildTestApp, get, loginWithSms, post, sendCode } from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { UserCoupon } from '../../src/contract/coupon'
import type { MobileTicket, UserInfo } from '../../src/contract/user'

test('changing the bound number and deleting the account', async (t) => {
  const ctx = await buildTestApp(t)
  const { app, clock } = ctx
  const OLD = '13600000001'
  const NEW = '13600000002'
  const TAKEN = '13600000003'
  const session = await loginWithSms(ctx, OLD)
  await loginWithSms(ctx, TAKEN)

  await t.test('checkOldMobile needs the changeOld code of the own number', async () => {
    assert.equal(
      (await post<MobileTicket>(app, '/user/checkOldMobile', { code: '123456' }, session)).code,
      1006,
    )
  })

  const ticket = async () => {
    clock.advance(61_000)
    const code = await sendCode(app, OLD, 'changeOld', session)
    const reply = await post<MobileTicket>(app, '/user/checkOldMobile', { code }, session)
    assert.equal(reply.code, 200)
    assert.equal(reply.data.expiresIn, 600)
    return reply.data.ticket as string
  }

  await t.test('a number that belongs to another account → 1001', async () => {
    const t1 = await ticket()
    const reply = await post(
      app,
      '/user/changeBindingMobile',
      { ticket: t1, mobilePhone: TAKEN, code: '123456' },
      session,
    )
    assert.equal(reply.code, 1001)
  })

  await t.test('a wrong new-number code → 1006, number unchanged', async () => {
    const t2 = await ticket()
    const reply = await post(
      app,
      '/user/changeBindingMobile',
      { ticket: t2, mobilePhone: NEW, code: '000000' },
      session,
    )
    assert.equal(reply.code, 1006)
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', session)).data.mobilePhone, OLD)
  })

  await t.test('an expired ticket is refused', async () => {
    const t3 = await ticket()
    clock.advance(11 * 60_000)
    const code = await sendCode(app, NEW, 'changeNew')
    const reply = await post(
      app,
      '/user/changeBindingMobile',
      { ticket: t3, mobilePhone: NEW, code },
      session,
    )
    assert.equal(reply.code, 1080)
  })

  await t.test('ticket + new-number code move the account; the ticket is single use', async () => {
    const t4 = await ticket()
    const code = await sendCode(app, NEW, 'changeNew')
    const reply = await post(
      app,
      '/user/changeBindingMobile',
      { ticket: t4, mobilePhone: NEW, code },
      session,
    )
    assert.equal(reply.code, 200)
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', session)).data.mobilePhone, NEW)
    clock.advance(61_000)
    const code2 = await sendCode(app, OLD, 'changeNew')
    const again = await post(
      app,
      '/user/changeBindingMobile',
      { ticket: t4, mobilePhone: OLD, code: code2 },
      session,
    )
    assert.equal(again.code, 1080)
  })

  await t.test('account deletion erases data, revokes tokens and frees the number', async () => {
    const other = await loginWithSms(ctx, NEW)
    await post<UserInfo>(app, '/user/updateUserInfo', { name: '小明' }, session)
    assert.equal((await post(app, '/user/logoutUser', { code: '000000' }, session)).code, 1006)
    assert.equal(
      (await get<UserInfo>(app, '/user/getUserInfo', session)).code,
      200,
      'a wrong code deletes nothing',
    )
    clock.advance(61_000)
    const code = await sendCode(app, NEW, 'deleteAccount', session)
    assert.equal((await post(app, '/user/logoutUser', { code }, session)).code, 200)
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', session)).code, 2017)
    assert.equal((await get<UserInfo>(app, '/user/getUserInfo', other)).code, 2017)
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, session.userId))
    assert.equal(row.mobilePhone, null)
    assert.equal(row.name, '')
    assert.ok(row.deletedAt)
    const live = await ctx.database.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.userId, session.userId))
    assert.ok(live.every((token) => token.revokedAt))

    const reborn = await loginWithSms(ctx, NEW)
    assert.equal(reborn.firstLogin, 1)
    assert.notEqual(reborn.userId, session.userId)
    const info = await get<UserInfo>(app, '/user/getUserInfo', reborn)
    assert.equal(info.data.name, '')
    // a new account, but not a new user: the 新人券 went to the deleted one (test/benefits.test.ts)
    const coupons = await get<PagedData<UserCoupon>>(app, '/coupon/list', reborn, { status: '1' })
    assert.equal(coupons.data.total, 0)
  })
})
