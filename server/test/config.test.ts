import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { usageLogs } from '../src/db/schema'
import { buildTestApp, get, loginWithSms, post } from './helpers/test-app'

test('config, dictionaries, usage logs, customer service', async (t) => {
  const ctx = await buildTestApp(t, { customerServiceUrl: 'https://kefu.example.com/chat' })
  const { app } = ctx

  await t.test('common config has the default renewal reminder text', async () => {
    const reply = await get(app, '/configure/getCommonConfig')
    assert.equal(
      reply.data.renewalReminderMsg,
      '您的云手机已到期，系统将为您保留2小时，请及时续费，以免数据丢失',
    )
    assert.equal(reply.data.appVersion, '2.4.8')
  })

  await t.test('dictionaries: industries and work types under them', async () => {
    const industries = (await get(app, '/dict/getDictList', undefined, { dictType: 'industry' }))
      .data
    assert.ok(industries.some((d: { name: string }) => d.name === '互联网/电商'))
    const worktypes = (await get(app, '/dict/getDictList', undefined, { dictType: 'worktype' }))
      .data
    const streamer = worktypes.find((d: { name: string }) => d.name === '主播')
    assert.equal(
      industries.find((d: { id: number }) => d.id === streamer.parentId).name,
      '新媒体/直播',
    )
  })

  await t.test('device status list', async () => {
    const statuses = (await get(app, '/dict/getDeviceStatusList')).data
    assert.deepEqual(
      statuses.map((s: { name: string }) => s.name),
      ['创建中', '运行中', '已到期', '已释放', '重启中', '创建失败'],
    )
  })

  await t.test('usage log is upserted by logId and picks up the user when logged in', async () => {
    const body = {
      logId: '1700000000000_0000000000_1234567',
      client: 'h5',
      version: 1,
      terminalType: 'android',
      accessingPages: '/pages/Home/index',
      exitMark: 0,
    }
    assert.equal((await post(app, '/userUsageLog/saveUserUsageLog', body)).code, 200)
    const session = await loginWithSms(ctx, '13300000001')
    ctx.clock.advance(30_000)
    const second = await post(
      app,
      '/userUsageLog/saveUserUsageLog',
      { ...body, accessingPages: '/pages/user/recharge', exitMark: 1 },
      session,
    )
    assert.equal(second.code, 200)
    const rows = await ctx.database.db
      .select()
      .from(usageLogs)
      .where(eq(usageLogs.logId, body.logId))
    assert.equal(rows.length, 1)
    assert.equal(rows[0].reportCount, 2)
    assert.equal(rows[0].userId, session.userId)
    assert.equal(rows[0].exitMark, 1)
    assert.equal(rows[0].accessingPages, '/pages/user/recharge')
    assert.equal(rows[0].client, 'h5')
    assert.equal(rows[0].lastAt.getTime() - rows[0].firstAt.getTime(), 30_000 + 61_000)
    const bad = await post(app, '/userUsageLog/saveUserUsageLog', { ...body, client: 'desktop' })
    assert.equal(bad.status, 400)
    const invalidToken = await post(
      app,
      '/userUsageLog/saveUserUsageLog',
      { ...body, logId: 'x2' },
      { token: 'a'.repeat(64), userId: 1 },
    )
    assert.equal(invalidToken.code, 200, 'an invalid token does not block the usage log')
  })

  await t.test('customer service contact and feedback tickets', async () => {
    assert.deepEqual((await get(app, '/customer/customerService/getUrl')).data, {
      url: 'https://kefu.example.com/chat',
      phone: '400-820-8820',
      hours: '每天 9:00-21:00',
    })
    const session = await loginWithSms(ctx, '13300000002')
    assert.equal((await post(app, '/customer/feedback', { content: '短' }, session)).status, 400)
    const created = await post(
      app,
      '/customer/feedback',
      { content: '云手机画面偶尔卡顿', contact: '微信 abc' },
      session,
    )
    assert.equal(created.code, 200)
    assert.equal(created.data.status, 0)
    const list = await get(app, '/customer/feedback/list', session)
    assert.equal(list.data.total, 1)
    assert.equal(list.data.records[0].content, '云手机画面偶尔卡顿')
    const stranger = await loginWithSms(ctx, '13300000003')
    assert.equal((await get(app, '/customer/feedback/list', stranger)).data.total, 0)
  })
})
