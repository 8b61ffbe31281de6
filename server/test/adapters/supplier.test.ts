import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SandboxSupplier } from '../../src/adapters/supplier/sandbox/sandbox-supplier'
import { buildTestApp, get, loginWithSms, post } from '../helpers/test-app'
import { deviceRow, runningPhones, settle, SUPPLIER_DELAY_MS } from '../helpers/fleet'
import type { AuthTokenResult, CommandResult, Device } from '../../src/contract/device'
import { controlPageData } from '../helpers/control-page'

const request = (requestId: string, name = '云手机-1') => ({
  requestId,
  name,
  goodId: 301,
  zoneId: 1,
  expireAt: new Date('2026-04-01T00:00:00.000Z'),
})

test('sandbox supplier: work finishes by timestamps, even in a new process', async (t) => {
  const { database, clock } = await buildTestApp(t)
  const supplier = new SandboxSupplier(database.db, clock, { delayMs: 3000, failureRate: 0 })
  const { instanceId } = await supplier.create(request('r1'))
  assert.deepEqual(await supplier.create(request('r1')), { instanceId }, 'idempotent per requestId')
  let state = await supplier.state(instanceId)
  assert.equal(state?.status, 'creating')
  assert.equal(state?.readyAt?.getTime(), clock.now().getTime() + 3000)

  clock.advance(3000)
  // A second supplier object on the same database (as after a restart) sees the same outcome.
  const restarted = new SandboxSupplier(database.db, clock, { delayMs: 3000, failureRate: 0 })
  state = await restarted.state(instanceId)
  assert.equal(state?.status, 'running')
  assert.equal(state?.readyAt, null)

  assert.deepEqual(await restarted.command(instanceId, { command: 'Reboot' }), {
    ok: true,
    msg: '正在重启',
  })
  assert.equal((await restarted.state(instanceId))?.status, 'rebooting')
  assert.deepEqual(await restarted.command(instanceId, { command: 'CleanVm' }), {
    ok: false,
    msg: '云手机重启中，请稍后',
  })
  clock.advance(3000)
  assert.equal((await supplier.state(instanceId))?.status, 'running')

  await supplier.systemUpdate(instanceId)
  clock.advance(3000)
  state = await supplier.state(instanceId)
  assert.equal(state?.op, 'systemUpdate')
  assert.equal(state?.progress, 20)
  clock.advance(12_000)
  state = await supplier.state(instanceId)
  assert.equal(state?.op, null)
  assert.equal(state?.imageVersion, supplier.latestImageVersion())

  await supplier.release(instanceId)
  await supplier.release(instanceId)
  assert.equal((await supplier.state(instanceId))?.status, 'released')
  assert.equal((await supplier.command(instanceId, { command: 'CleanVm' })).ok, false)
})

test('sandbox supplier fails when told: by rate, or by #fail in the name', async (t) => {
  const { database, clock } = await buildTestApp(t)
  const always = new SandboxSupplier(database.db, clock, { delayMs: 10, failureRate: 1 })
  const never = new SandboxSupplier(database.db, clock, { delayMs: 10, failureRate: 0 })
  const a = await always.create(request('a'))
  const b = await never.create(request('b', '测试#fail'))
  const c = await never.create(request('c'))
  clock.advance(10)
  assert.equal((await never.state(a.instanceId))?.status, 'failed')
  assert.equal((await never.state(a.instanceId))?.failReason, '云手机启动失败，资源分配异常')
  assert.equal((await never.state(b.instanceId))?.status, 'failed')
  assert.equal((await never.state(c.instanceId))?.status, 'running')
  assert.deepEqual(await always.command(c.instanceId, { command: 'CleanMem' }), {
    ok: false,
    msg: '云手机响应超时，请重试',
  })
  assert.equal((await never.command(c.instanceId, { command: 'CleanMem' })).ok, true)
})

test('the screen is an SVG of the phone that changes over time, with cache headers', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13400000001')
  const [id] = await runningPhones(ctx, me.userId, 1)
  const { coverUrl } = (await get<Device>(ctx.app, '/device/detail', me, { deviceId: String(id) }))
    .data
  const shot = () => ctx.app.inject({ method: 'GET', url: coverUrl! })
  const first = await shot()
  assert.equal(first.statusCode, 200)
  assert.match(String(first.headers['content-type']), /^image\/svg\+xml/)
  assert.equal(first.headers['cache-control'], 'private, max-age=5')
  assert.match(first.body, /^<svg /)
  assert.match(first.body, new RegExp(`云手机-${id}`))
  assert.match(first.body, /10:0\d/, 'the clock in China time (the test clock is 02:00 UTC)')
  ctx.clock.advance(60_000)
  const later = await shot()
  assert.notEqual(later.body, first.body, 'the screen changes over time')

  await post<CommandResult>(ctx.app, '/device/command', { deviceId: id, command: 'Reboot' }, me)
  assert.match((await shot()).body, /正在重启/)
  await post<Device>(ctx.app, '/device/rename', { deviceId: id, name: '<b>我的</b>' }, me)
  await settle(ctx)
  const renamed = (await shot()).body
  assert.match(renamed, /&lt;b&gt;我的&lt;\/b&gt;/, 'names are escaped')

  // the instance id is no credential (screen-access.test.ts): an unknown one without a pass is refused
  const missing = await ctx.app.inject({
    method: 'GET',
    url: '/vmcloud/api/sandbox/supplier/cover/sbx_00000000000000000000',
  })
  assert.equal(missing.statusCode, 403)
  const malformed = await ctx.app.inject({
    method: 'GET',
    url: '/vmcloud/api/sandbox/supplier/cover/..%2Fetc',
  })
  assert.equal(malformed.statusCode, 400)
})

test('control page: the token works once, for its user and phone, within 2 minutes', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13400000002')
  const other = await loginWithSms(ctx, '13400000003')
  const [id, second] = await runningPhones(ctx, me.userId, 2)
  const open = (url: string) => ctx.app.inject({ method: 'GET', url })

  // The client adds the SPEC 7 hand-off to the control address (src/pages/webView/control-url.ts).
  const handOff = (data: { authToken: string; controlUrl: string }, userId = me.userId) =>
    `${data.controlUrl}&token=${encodeURIComponent(data.authToken)}&userId=${userId}&userType=2&isWeb=1`

  const issued = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', me, {
    deviceId: String(id),
  })
  assert.equal(issued.code, 200, issued.msg)
  assert.equal(issued.data.expiresAt, ctx.clock.now().getTime() + 120_000)
  assert.equal(issued.data.controlUrl, `/vmcloud/api/sandbox/supplier/control?deviceId=${id}`)
  const entry = handOff(issued.data)

  // The same token for another phone or another user is refused (and stays unused).
  const forOtherPhone = entry.replace(`deviceId=${id}`, `deviceId=${second}`)
  assert.equal((await open(forOtherPhone)).statusCode, 403)
  assert.equal((await open(handOff(issued.data, other.userId))).statusCode, 403)

  // A hand-off appended twice still opens the page (the first value counts).
  const page = await open(`${entry}&token=x&userId=1`)
  assert.equal(page.statusCode, 200)
  assert.match(String(page.headers['content-type']), /text\/html/)
  assert.match(page.body, new RegExp(`云手机-${id}`))
  assert.equal(controlPageData(page.body)?.canControl, true, 'the owner controls it')
  const session = controlPageData(page.body)?.session
  assert.ok(session, 'the page carries its session')

  const again = await open(entry)
  assert.equal(again.statusCode, 401, 'a token works once')
  assert.match(again.body, /链接已失效，请返回重新进入/)
  assert.equal((await open('/vmcloud/api/sandbox/supplier/control')).statusCode, 401)
  assert.equal(
    (
      await open(
        `/vmcloud/api/sandbox/supplier/control?token=forged&userId=${me.userId}&deviceId=${id}`,
      )
    ).statusCode,
    401,
  )

  const late = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', me, {
    deviceId: String(id),
  })
  ctx.clock.advance(120_000)
  const expired = await open(handOff(late.data))
  assert.equal(expired.statusCode, 401)
  assert.match(expired.body, /链接已失效，请返回重新进入/)

  // Someone else cannot get a token for my phone at all.
  const stolen = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', other, {
    deviceId: String(id),
  })
  assert.equal(stolen.code, 1031)

  // The page's buttons work through its session: reboot shows 重启中, then 运行中.
  const state = async () =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: `/vmcloud/api/sandbox/supplier/control/state?session=${encodeURIComponent(session)}`,
      })
    ).json()
  const command = async (name: string, secret = session) =>
    (
      await ctx.app.inject({
        method: 'POST',
        url: '/vmcloud/api/sandbox/supplier/control/command',
        payload: { session: secret, command: name },
      })
    ).json()
  assert.equal((await state()).data.statusName, '运行中')
  assert.match((await state()).data.screenUrl, /\/sandbox\/supplier\/cover\/sbx_/)
  assert.equal((await command('CleanVm')).data.msg, '清理完成')
  assert.equal((await command('Reboot')).data.msg, '正在重启')
  assert.equal((await state()).data.statusName, '重启中')
  assert.equal((await command('CleanMem')).msg, '云手机重启中，请稍后')
  await settle(ctx)
  assert.equal((await state()).data.statusName, '运行中')
  assert.equal((await deviceRow(ctx, id)).status, 1)
  const forged = await command('CleanVm', 'not-a-session')
  assert.equal(forged.code, 2017)
  assert.equal(forged.msg, '页面已过期，请返回重新进入')
  assert.equal((await command('Uninstall')).code, 400, 'only the page buttons are accepted')
  ctx.clock.advance(30 * 60_000)
  assert.equal((await state()).code, 2017, 'the session ends after 30 minutes')
})

test('no token for a phone that is not running', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13400000004')
  const [id] = await runningPhones(ctx, me.userId, 1)
  await post<CommandResult>(ctx.app, '/device/command', { deviceId: id, command: 'Reboot' }, me)
  const reply = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', me, {
    deviceId: String(id),
  })
  assert.equal(reply.code, 1080)
  assert.equal(reply.msg, '云手机重启中，请稍后')
  ctx.clock.advance(SUPPLIER_DELAY_MS)
  await ctx.app.jobs.runDue()
  const ready = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', me, {
    deviceId: String(id),
  })
  assert.equal(ready.code, 200, 'once it runs again')
})
