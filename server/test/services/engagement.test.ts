import assert from 'node:assert/strict'
import { test } from 'node:test'
import { count, eq } from 'drizzle-orm'
import {
  devices,
  floatingBallSettings,
  invites,
  trialClaims,
  trialOffers,
} from '../../src/db/schema'
import { setStock, stockOf } from '../helpers/commerce'
import { ENJOY_GOOD, runningPhones } from '../helpers/fleet'
import { buildTestApp, call, get, loginWithSms, post, type TestApp } from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { AuthTokenResult, Device } from '../../src/contract/device'
import type {
  FloatingBallSettings,
  Invitee,
  NewUserGuideConfig,
  PlayTrialConfig,
  TrialPhone,
} from '../../src/contract/engagement'
import type { Message } from '../../src/contract/message'
import type { UserInfo } from '../../src/contract/user'
import { controlPageData } from '../helpers/control-page'

const ZONES = [1, 2, 3, 4]

async function totalStock(ctx: TestApp) {
  let sum = 0
  for (const zone of ZONES) sum += await stockOf(ctx, ENJOY_GOOD, zone)
  return sum
}

async function claimsOf(ctx: TestApp, userId: number) {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(trialClaims)
    .where(eq(trialClaims.userId, userId))
  return row.n
}

async function phonesOf(ctx: TestApp, userId: number) {
  return ctx.database.db.select().from(devices).where(eq(devices.userId, userId))
}

test('new-user guide: steps and the trial offer', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13500000001')
  assert.equal(me.firstLogin, 1)
  const reply = await get<NewUserGuideConfig>(ctx.app, '/newUserGuide/getNewUserGuideConfig_V2', me)
  assert.equal(reply.code, 200, reply.msg)
  assert.ok(reply.data.steps.length >= 2)
  for (const step of reply.data.steps) {
    assert.equal(typeof step.title, 'string')
    assert.ok(step.title && step.text && step.image)
  }
  assert.deepEqual(reply.data.trialOffer, {
    enabled: true,
    goodId: ENJOY_GOOD,
    goodName: reply.data.trialOffer.goodName,
    configName: reply.data.trialOffer.configName,
    minutes: 120,
    zonePolicy: 'mostStock',
    claimed: false,
    inStock: true,
  })
  assert.match(reply.data.trialOffer.goodName, /畅享版/)
  assert.equal(
    (await get<NewUserGuideConfig>(ctx.app, '/newUserGuide/getNewUserGuideConfig_V2')).code,
    2017,
  )

  await ctx.database.db.update(trialOffers).set({ enabled: false })
  const off = await get<NewUserGuideConfig>(ctx.app, '/newUserGuide/getNewUserGuideConfig_V2', me)
  assert.equal(off.data.trialOffer.enabled, false)
  const refused = await get<TrialPhone>(ctx.app, '/newUserGuide/getNewUserReceiveEquipment', me)
  assert.equal(refused.code, 1080)
  assert.equal(refused.msg, '当前没有免费试用活动')
  assert.equal((await phonesOf(ctx, me.userId)).length, 0)
})

test('the trial phone is given once per user, from the zone with the most stock', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13500000002')
  await setStock(ctx, ENJOY_GOOD, 3, 900)
  const before = await stockOf(ctx, ENJOY_GOOD, 3)

  const claimed = await get<TrialPhone>(ctx.app, '/newUserGuide/getNewUserReceiveEquipment', me)
  assert.equal(claimed.code, 200, claimed.msg)
  assert.equal(claimed.data.zoneName, '华北-北京')
  assert.equal(claimed.data.expireAt, ctx.clock.now().getTime() + 120 * 60_000)
  assert.equal(await stockOf(ctx, ENJOY_GOOD, 3), before - 1)
  const [phone] = await phonesOf(ctx, me.userId)
  assert.equal(phone.id, claimed.data.deviceId)
  assert.equal(phone.goodId, ENJOY_GOOD)
  assert.equal(phone.status, 0)
  assert.equal(phone.orderId, null)

  const list = await get<PagedData<Device>>(ctx.app, '/device/list', me)
  assert.deepEqual(
    list.data.records.map((d) => d.deviceId),
    [claimed.data.deviceId],
  )
  const messages = await get<PagedData<Message>>(ctx.app, '/message/list', me, { type: '4' })
  assert.equal(messages.data.records[0].title, '试用云机领取成功')

  const stock = await totalStock(ctx)
  const again = await get<TrialPhone>(ctx.app, '/newUserGuide/getNewUserReceiveEquipment', me)
  assert.equal(again.code, 1080)
  assert.equal(again.msg, '您已领取过免费试用云机')
  assert.equal((await phonesOf(ctx, me.userId)).length, 1)
  assert.equal(await totalStock(ctx), stock)
  const offer = (
    await get<NewUserGuideConfig>(ctx.app, '/newUserGuide/getNewUserGuideConfig_V2', me)
  ).data.trialOffer
  assert.equal(offer.claimed, true)
  assert.equal(offer.enabled, false)

  // once ever: even after the trial phone is gone
  await ctx.database.db.delete(devices).where(eq(devices.userId, me.userId))
  assert.equal(
    (await get<TrialPhone>(ctx.app, '/newUserGuide/getNewUserReceiveEquipment', me)).code,
    1080,
  )
})

test('concurrent trial claims by one user make exactly one phone', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13500000003')
  const stock = await totalStock(ctx)
  const replies = await Promise.all(
    Array.from({ length: 6 }, () =>
      get<TrialPhone>(ctx.app, '/newUserGuide/getNewUserReceiveEquipment', me),
    ),
  )
  assert.equal(replies.filter((r) => r.code === 200).length, 1)
  for (const r of replies.filter((r) => r.code !== 200)) {
    assert.equal(r.msg, '您已领取过免费试用云机')
  }
  assert.equal((await phonesOf(ctx, me.userId)).length, 1)
  assert.equal(await claimsOf(ctx, me.userId), 1)
  assert.equal(await totalStock(ctx), stock - 1)
})

test('no trial phone without stock, and nothing is recorded', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13500000004')
  for (const zone of ZONES) await setStock(ctx, ENJOY_GOOD, zone, 0)
  const offer = (
    await get<NewUserGuideConfig>(ctx.app, '/newUserGuide/getNewUserGuideConfig_V2', me)
  ).data.trialOffer
  assert.equal(offer.inStock, false)
  assert.equal(offer.enabled, false)
  const reply = await get<TrialPhone>(ctx.app, '/newUserGuide/getNewUserReceiveEquipment', me)
  assert.equal(reply.code, 1017)
  assert.equal(reply.msg, '试用云机已领完，请稍后再试')
  assert.equal(await claimsOf(ctx, me.userId), 0)
  assert.equal((await phonesOf(ctx, me.userId)).length, 0)
  // stock comes back: the user can still claim
  await setStock(ctx, ENJOY_GOOD, 2, 5)
  assert.equal(
    (await get<TrialPhone>(ctx.app, '/newUserGuide/getNewUserReceiveEquipment', me)).code,
    200,
  )
})

test('play-trial landing config is public', async (t) => {
  const ctx = await buildTestApp(t)
  const reply = await get<PlayTrialConfig>(ctx.app, '/playTrial/getConfig')
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.gameName, '星海远征')
  assert.equal(reply.data.packageName, 'com.xinghai.expedition')
  assert.ok(reply.data.packageSize > 0)
  assert.match(reply.data.downloadUrl, /^https:\/\//)
  assert.deepEqual(
    { offered: reply.data.trial.offered, minutes: reply.data.trial.minutes },
    { offered: true, minutes: 120 },
  )
})

test('floating ball: defaults, validation, saving, and the control page reads it', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13500000005')
  const other = await loginWithSms(ctx, '13500000006')
  const defaults = await get<FloatingBallSettings>(ctx.app, '/user/getFloatingBall', me)
  assert.deepEqual(defaults.data, {
    visible: true,
    side: 'right',
    opacity: 80,
    shortcuts: ['返回', '主页', '多任务'],
  })

  const good = { visible: true, side: 'left', opacity: 60, shortcuts: ['重启', '返回', '重启'] }
  const bad: [Record<string, unknown>, string][] = [
    [{ opacity: 20 }, '透明度需在30%到100%之间'],
    [{ opacity: 101 }, '透明度需在30%到100%之间'],
    [{ opacity: 55.5 }, '透明度需在30%到100%之间'],
    [{ side: 'top' }, '悬浮球位置只能是左侧或右侧'],
    [{ shortcuts: ['返回', '关机'] }, '不支持的快捷功能：关机'],
  ]
  for (const [patch, msg] of bad) {
    const reply = await post<FloatingBallSettings>(
      ctx.app,
      '/user/saveFloatingBall',
      { ...good, ...patch },
      me,
    )
    assert.equal(reply.code, 1080, JSON.stringify(patch))
    assert.equal(reply.msg, msg)
  }
  const rows = await ctx.database.db.select().from(floatingBallSettings)
  assert.equal(rows.length, 0, 'a refused form writes nothing')

  const saved = await post<FloatingBallSettings>(ctx.app, '/user/saveFloatingBall', good, me)
  assert.equal(saved.code, 200, saved.msg)
  const expected = { visible: true, side: 'left', opacity: 60, shortcuts: ['返回', '重启'] }
  assert.deepEqual(saved.data, expected)
  assert.deepEqual(
    (await get<FloatingBallSettings>(ctx.app, '/user/getFloatingBall', me)).data,
    expected,
  )
  assert.equal(
    (await get<FloatingBallSettings>(ctx.app, '/user/getFloatingBall', other)).data.side,
    'right',
  )
  const hidden = await post<FloatingBallSettings>(
    ctx.app,
    '/user/saveFloatingBall',
    { ...good, visible: false },
    me,
  )
  assert.equal(hidden.data.visible, false)

  // the control page of my phone reads my settings through its session
  const [id] = await runningPhones(ctx, me.userId, 1)
  const issued = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', me, {
    deviceId: String(id),
  })
  const page = await ctx.app.inject({
    method: 'GET',
    url: `${issued.data.controlUrl}&token=${encodeURIComponent(issued.data.authToken)}&userId=${me.userId}&userType=2&isWeb=1`,
  })
  const session = controlPageData(page.body)?.session
  assert.ok(session)
  // the page draws the ball with the script that reads these settings
  assert.ok(
    page.body.includes(
      `/sandbox/supplier/control/floatingBall.js?session=${encodeURIComponent(session)}`,
    ),
  )
  const script = await ctx.app.inject({
    method: 'GET',
    url: '/vmcloud/api/sandbox/supplier/control/floatingBall.js',
  })
  assert.equal(script.statusCode, 200)
  assert.match(String(script.headers['content-type']), /javascript/)
  assert.match(script.body, /control\/floatingBall\?session=/)
  const forPage = await call<FloatingBallSettings>(
    ctx.app,
    'GET',
    '/sandbox/supplier/control/floatingBall',
    {
      query: { session },
    },
  )
  assert.deepEqual(forPage.data, { ...expected, visible: false })
  const forged = await call<FloatingBallSettings>(
    ctx.app,
    'GET',
    '/sandbox/supplier/control/floatingBall',
    {
      query: { session: 'forged' },
    },
  )
  assert.equal(forged.code, 2017)
  assert.equal(forged.data, null)
})

test('invites: bound once at registration, listed only for the inviter', async (t) => {
  const ctx = await buildTestApp(t)
  const alice = await loginWithSms(ctx, '13500000011')
  const carol = await loginWithSms(ctx, '13500000013')
  const code = (await get<UserInfo>(ctx.app, '/user/getUserInfo', alice)).data.inviteCode
  const carolCode = (await get<UserInfo>(ctx.app, '/user/getUserInfo', carol)).data.inviteCode
  assert.ok(code)

  const bob = await loginWithSms(ctx, '13500000012', { inviteCode: code })
  ctx.clock.advance(1000)
  await loginWithSms(ctx, '13500000014', { inviteCode: code })
  // a later login with another code does not rebind
  await loginWithSms(ctx, '13500000012', { inviteCode: carolCode })
  // unknown codes bind nothing
  const dave = await loginWithSms(ctx, '13500000015', { inviteCode: 'NOSUCHCODE' })

  const mine = await get<PagedData<Invitee>>(ctx.app, '/invite/list', alice)
  assert.equal(mine.code, 200, mine.msg)
  assert.deepEqual(mine.data.records, [
    { mobilePhone: '135****0014', joinedAt: mine.data.records[0].joinedAt },
    { mobilePhone: '135****0012', joinedAt: mine.data.records[1].joinedAt },
  ])
  assert.ok(mine.data.records[0].joinedAt > mine.data.records[1].joinedAt)
  assert.equal(mine.data.total, 2)
  assert.equal((await get<PagedData<Invitee>>(ctx.app, '/invite/list', carol)).data.total, 0)
  assert.equal((await get<PagedData<Invitee>>(ctx.app, '/invite/list', bob)).data.total, 0)
  const rows = await ctx.database.db.select().from(invites)
  assert.equal(rows.length, 2)
  assert.ok(rows.every((r) => r.inviterId === alice.userId))
  assert.ok(!rows.some((r) => r.inviteeId === dave.userId))
  assert.equal((await get<PagedData<Invitee>>(ctx.app, '/invite/list')).code, 2017)
})
