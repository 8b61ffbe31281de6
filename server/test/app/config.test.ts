import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { realAdapters } from '../../src/adapters'
import {
  assertProductionSafe,
  loadConfig,
  SANDBOX_SWITCHES,
  type SandboxAdapter,
} from '../../src/config'
import { usageLogs } from '../../src/db/schema'
import { buildTestApp, get, loginWithSms, post } from '../helpers/test-app'
import packageJson from '../../../package.json'
import type { PagedData } from '../../src/contract/common'
import type {
  CommonConfig,
  CustomerServiceInfo,
  DeviceStatusEntry,
  DictEntry,
  FeedbackTicket,
} from '../../src/contract/config'

test('config, dictionaries, usage logs, customer service', async (t) => {
  const ctx = await buildTestApp(t, {
    config: { customerServiceUrl: 'https://kefu.example.com/chat' },
  })
  const { app } = ctx

  await t.test('common config has the default renewal reminder text', async () => {
    const reply = await get<CommonConfig>(app, '/configure/getCommonConfig')
    assert.equal(
      reply.data.renewalReminderMsg,
      '您的云手机已到期，系统将为您保留2小时，请及时续费，以免数据丢失',
    )
    assert.equal(reply.data.appVersion, packageJson.version)
  })

  await t.test('dictionaries: industries and work types under them', async () => {
    const industries = (
      await get<DictEntry[]>(app, '/dict/getDictList', undefined, { dictType: 'industry' })
    ).data
    assert.ok(industries.some((d) => d.name === '互联网/电商'))
    const worktypes = (
      await get<DictEntry[]>(app, '/dict/getDictList', undefined, { dictType: 'worktype' })
    ).data
    const streamer = worktypes.find((d) => d.name === '主播')
    assert.equal(industries.find((d) => d.id === streamer!.parentId)!.name, '新媒体/直播')
  })

  await t.test('device status list', async () => {
    const statuses = (await get<DeviceStatusEntry[]>(app, '/dict/getDeviceStatusList')).data
    assert.deepEqual(
      statuses.map((s) => s.name),
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
    assert.equal((await post<null>(app, '/userUsageLog/saveUserUsageLog', body)).code, 200)
    const session = await loginWithSms(ctx, '13300000001')
    ctx.clock.advance(30_000)
    const second = await post<null>(
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
    const bad = await post<null>(app, '/userUsageLog/saveUserUsageLog', {
      ...body,
      client: 'desktop',
    })
    assert.equal(bad.status, 400)
    const invalidToken = await post<null>(
      app,
      '/userUsageLog/saveUserUsageLog',
      { ...body, logId: 'x2' },
      { token: 'a'.repeat(64), userId: 1 },
    )
    assert.equal(invalidToken.code, 200, 'an invalid token does not block the usage log')
  })

  await t.test('customer service contact and feedback tickets', async () => {
    assert.deepEqual(
      (await get<CustomerServiceInfo>(app, '/customer/customerService/getUrl')).data,
      {
        url: 'https://kefu.example.com/chat',
        phone: '400-820-8820',
        hours: '每天 9:00-21:00',
      },
    )
    const session = await loginWithSms(ctx, '13300000002')
    assert.equal(
      (await post<FeedbackTicket>(app, '/customer/feedback', { content: '短' }, session)).status,
      400,
    )
    const created = await post<FeedbackTicket>(
      app,
      '/customer/feedback',
      { content: '云手机画面偶尔卡顿', contact: '微信 abc' },
      session,
    )
    assert.equal(created.code, 200)
    assert.equal(created.data.status, 0)
    const list = await get<PagedData<FeedbackTicket>>(app, '/customer/feedback/list', session)
    assert.equal(list.data.total, 1)
    assert.equal(list.data.records[0].content, '云手机画面偶尔卡顿')
    const stranger = await loginWithSms(ctx, '13300000003')
    assert.equal(
      (await get<PagedData<FeedbackTicket>>(app, '/customer/feedback/list', stranger)).data.total,
      0,
    )
  })
})

/** Production's other secrets and its database, set so that only the sandboxes are in question. */
const OWN_SECRET = {
  SANDBOX_PAY_SECRET: 'a-long-secret-of-our-own',
  BENEFIT_PEPPER: 'a-pepper-of-our-own',
  DATABASE_URL: 'postgres://cloudphone@db.internal/cloudphone',
}
const ADAPTERS = Object.keys(SANDBOX_SWITCHES) as SandboxAdapter[]
const switchesOn = (adapters: SandboxAdapter[]) =>
  Object.fromEntries(adapters.map((adapter) => [SANDBOX_SWITCHES[adapter], '1']))

/** The refusal assertProductionSafe gives, or null when it lets the server start. */
function refusal(env: NodeJS.ProcessEnv): string | null {
  try {
    assertProductionSafe(loadConfig(env))
    return null
  } catch (error) {
    return (error as Error).message
  }
}

test('NODE_ENV is read trimmed and in any letter case; an unknown value is refused', () => {
  for (const value of ['production', 'Production', 'PRODUCTION ', ' production\n']) {
    assert.equal(loadConfig({ NODE_ENV: value }).production, true, JSON.stringify(value))
  }
  for (const value of [undefined, '', ' ', 'development', 'Development', 'test', 'TEST']) {
    assert.equal(loadConfig({ NODE_ENV: value }).production, false, JSON.stringify(value))
  }
  for (const value of ['prod', 'staging', 'pro duction']) {
    assert.throws(
      () => loadConfig({ NODE_ENV: value }),
      /NODE_ENV must be one of development, test, production/,
    )
  }
})

test('each sandbox is allowed in production by its own switch and by no other', () => {
  // all 16 combinations: the refusal asks for exactly the switches that are off
  for (let mask = 0; mask < 2 ** ADAPTERS.length; mask++) {
    const allowed = ADAPTERS.filter((_, i) => mask & (1 << i))
    const message = refusal({ NODE_ENV: 'Production', ...OWN_SECRET, ...switchesOn(allowed) })
    if (allowed.length === ADAPTERS.length) {
      assert.equal(message, null)
      continue
    }
    assert.ok(message, `refused with only ${allowed.join(', ') || 'no switch'}`)
    for (const adapter of ADAPTERS) {
      assert.equal(
        message.includes(`${SANDBOX_SWITCHES[adapter]}=1`),
        !allowed.includes(adapter),
        `${adapter} with ${allowed.join(', ') || 'no switch'}: ${message}`,
      )
    }
  }
  // real SMS and WeChat providers need no sandbox switch of theirs
  assert.equal(
    refusal({
      NODE_ENV: 'production',
      SMS_PROVIDER: 'aliyun',
      WECHAT_PROVIDER: 'wechat',
      ...OWN_SECRET,
      ...switchesOn(['payment', 'supplier']),
    }),
    null,
  )
})

test('the retired all-at-once switch opens nothing: production refuses to start while it is set', () => {
  const retiredAlone = refusal({
    NODE_ENV: 'production',
    ALLOW_SANDBOX_IN_PRODUCTION: '1',
    ...OWN_SECRET,
  })
  assert.ok(retiredAlone)
  assert.match(
    retiredAlone,
    /ALLOW_SANDBOX_IN_PRODUCTION is retired.*ALLOW_SANDBOX_SMS, ALLOW_SANDBOX_WECHAT, ALLOW_SANDBOX_PAYMENT, ALLOW_SANDBOX_SUPPLIER/,
  )
  for (const name of Object.values(SANDBOX_SWITCHES)) assert.ok(retiredAlone.includes(`${name}=1`))
  // even beside the new switches, so nobody keeps it thinking it still matters
  const beside = refusal({
    NODE_ENV: 'production',
    ALLOW_SANDBOX_IN_PRODUCTION: '1',
    ...OWN_SECRET,
    ...switchesOn(ADAPTERS),
  })
  assert.match(
    beside ?? '',
    /^Refusing to start with NODE_ENV=production:\n- ALLOW_SANDBOX_IN_PRODUCTION is retired[^\n]*$/,
  )
  // outside production it means nothing
  assert.equal(refusal({ ALLOW_SANDBOX_IN_PRODUCTION: '1' }), null)
})

test('production refuses the development payment secret, however NODE_ENV is written', () => {
  for (const nodeEnv of ['production', 'Production', ' PRODUCTION ']) {
    const message = refusal({ NODE_ENV: nodeEnv, ...switchesOn(ADAPTERS) })
    assert.match(message ?? '', /the default SANDBOX_PAY_SECRET/, JSON.stringify(nodeEnv))
  }
  // with nothing set, every problem is in the one message
  const everything = refusal({ NODE_ENV: 'production' }) ?? ''
  for (const named of [...Object.values(SANDBOX_SWITCHES), 'SANDBOX_PAY_SECRET']) {
    assert.ok(everything.includes(named), `${named} in ${everything}`)
  }
  assert.equal(refusal({}), null, 'development starts as it is')
  // the adapters cannot be made for a production that was not checked
  assert.throws(() => realAdapters(loadConfig({ NODE_ENV: 'Production' })), /Refusing to start/)
})

test('switches take 1 or 0; anything else is refused as a typo', () => {
  for (const name of [...Object.values(SANDBOX_SWITCHES), 'ENABLE_API_DOCS']) {
    assert.throws(() => loadConfig({ [name]: 'true' }), new RegExp(`${name} must be 1 or 0`))
    assert.doesNotThrow(() => loadConfig({ [name]: '0' }))
  }
})

test('JOB_POLL_MS: every 5 s unless set; from 100 ms to a minute, anything else refused', () => {
  assert.equal(loadConfig({}).jobPollMs, 5_000)
  assert.equal(loadConfig({ JOB_POLL_MS: '500' }).jobPollMs, 500)
  for (const value of ['99', '0', '60001', '1.5', 'soon', ' 500x']) {
    assert.throws(
      () => loadConfig({ JOB_POLL_MS: value }),
      /JOB_POLL_MS must be a whole number from 100 to 60000/,
    )
  }
})

test('API docs: on outside production, in production only with ENABLE_API_DOCS=1', () => {
  assert.equal(loadConfig({}).apiDocs, true)
  assert.equal(loadConfig({ ENABLE_API_DOCS: '0' }).apiDocs, false)
  assert.equal(loadConfig({ NODE_ENV: 'Production' }).apiDocs, false)
  assert.equal(loadConfig({ NODE_ENV: 'Production', ENABLE_API_DOCS: '1' }).apiDocs, true)
})
