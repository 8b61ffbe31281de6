import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { devices, goodsStockSlots, messages } from '../../src/db/schema'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import {
  deviceRow,
  ENJOY_GOOD,
  FLAGSHIP_GOOD,
  givePhones,
  instanceRow,
  runningPhones,
  settle,
  stockOf,
  SUPPLIER_DELAY_MS,
} from '../helpers/fleet'
import type { PagedData } from '../../src/contract/common'
import type {
  AuthTokenResult,
  CommandResult,
  Device,
  DeviceCover,
  DeviceModel,
  DeviceSummary,
  SystemUpdateProgress,
} from '../../src/contract/device'
import type { DeviceGroup, MoveDevicesResult } from '../../src/contract/group'

test('provisioning takes a new phone from 创建中 to 运行中 once the supplier is done', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000001')
  const [id] = await givePhones(ctx, me.userId, 1)

  let phone = (await get<Device>(ctx.app, '/device/detail', me, { deviceId: String(id) })).data
  assert.equal(phone.status, 0)
  assert.equal(phone.statusName, '创建中')
  assert.equal(phone.name, `云手机-${id}`)
  assert.equal(phone.coverUrl, null, 'no screen before it runs')

  await ctx.app.jobs.runDue()
  assert.equal((await deviceRow(ctx, id)).status, 0, 'still creating right after the request')
  ctx.clock.advance(SUPPLIER_DELAY_MS - 1)
  await ctx.app.jobs.runDue()
  assert.equal((await deviceRow(ctx, id)).status, 0, 'not before the supplier delay')
  ctx.clock.advance(1)
  await ctx.app.jobs.runDue()

  phone = (await get<Device>(ctx.app, '/device/detail', me, { deviceId: String(id) })).data
  assert.equal(phone.status, 1)
  assert.equal(phone.statusName, '运行中')
  assert.match(
    phone.coverUrl!,
    // the frame's time, then the viewer's pass (screen-access.test.ts)
    /^\/vmcloud\/api\/sandbox\/supplier\/cover\/sbx_[0-9a-f]{20}\?t=\d+&d=\d+&v=\d+&e=\d+&s=[\w-]{43}$/,
  )
  assert.equal(phone.imageVersion, '10.0.2')
  assert.equal(phone.levelName, '旗舰版')
  assert.equal(phone.zoneName, '华东-上海')
  assert.deepEqual(phone.permissions.sort(), [
    'changeConfig',
    'upOrDownConfig',
    'videoChangeOpType',
    'zoneChangeOpType',
  ])
  assert.equal(phone.busy, false)
})

test('a supplier failure marks the phone 创建失败 with a message, and replace recovers it', async (t) => {
  const ctx = await buildTestApp(t, { config: { sandboxSupplierFailureRate: 1 } })
  const me = await loginWithSms(ctx, '13100000002')
  const [id] = await givePhones(ctx, me.userId, 1)
  await settle(ctx)
  const phone = (await get<Device>(ctx.app, '/device/detail', me, { deviceId: String(id) })).data
  assert.equal(phone.status, 5)
  assert.equal(phone.statusName, '创建失败')
  assert.ok(phone.failReason)
  const sent = await ctx.database.db.select().from(messages).where(eq(messages.userId, me.userId))
  const notice = sent.find((m) => m.title === '云手机创建失败')
  assert.ok(notice, 'the user is told')
  assert.equal(notice.type, 4)

  const refused = await post<CommandResult>(
    ctx.app,
    '/device/command',
    { deviceId: id, command: 'CleanVm' },
    me,
  )
  assert.equal(refused.code, 1080)
  assert.equal(refused.msg, '云手机创建失败，请更换云机')

  // A name with #fail fails too, whatever the rate: try one on a healthy supplier.
  const healthy = await buildTestApp(t)
  const other = await loginWithSms(healthy, '13100000003')
  const [named] = await givePhones(healthy, other.userId, 1)
  await post<Device>(healthy.app, '/device/rename', { deviceId: named, name: '测试#fail' }, other)
  await settle(healthy)
  assert.equal((await deviceRow(healthy, named)).status, 5)
  await post<Device>(healthy.app, '/device/rename', { deviceId: named, name: '测试机' }, other)
  const replaced = await post<Device>(healthy.app, '/device/replace', { deviceId: named }, other)
  assert.equal(replaced.code, 200, replaced.msg)
  assert.equal(replaced.data.status, 0)
  const before = await deviceRow(healthy, named)
  await settle(healthy)
  const after = await deviceRow(healthy, named)
  assert.equal(after.status, 1, 'a failed phone is replaced by a new instance')
  assert.notEqual(after.supplierInstanceId, before.supplierInstanceId)
  assert.equal(after.expireAt.getTime(), before.expireAt.getTime())
  assert.equal((await instanceRow(healthy, before.supplierInstanceId!)).status, 'released')
})

test('the list is paged newest first and filters by group, version, keyword and status', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000004')
  const other = await loginWithSms(ctx, '13100000005')
  const b = await runningPhones(ctx, me.userId, 3, { goodId: FLAGSHIP_GOOD })
  const h = await givePhones(ctx, me.userId, 2, { goodId: FLAGSHIP_GOOD + 1 })
  await givePhones(ctx, other.userId, 4)
  const group = (await post<DeviceGroup>(ctx.app, '/group/create', { name: '工作室A' }, me)).data
  await post<MoveDevicesResult>(
    ctx.app,
    '/group/moveDevices',
    { deviceIds: [b[0], h[0]], groupId: group.groupId },
    me,
  )
  await post<Device>(ctx.app, '/device/rename', { deviceId: b[1], name: '抖音一号' }, me)

  const list = (query: Record<string, string> = {}) =>
    get<PagedData<Device>>(ctx.app, '/device/list', me, query).then((r) => {
      assert.equal(r.code, 200, r.msg)
      return r.data
    })
  const all = await list()
  assert.equal(all.total, 5, "only my phones, never another user's")
  assert.deepEqual(
    all.records.map((d) => d.deviceId),
    [...b, ...h].sort((x, y) => y - x),
  )
  const paged = await list({ rows: '2', page: '3' })
  assert.equal(paged.records.length, 1)
  assert.equal(paged.totalPage, 3)
  const beyond = await list({ rows: '2', page: '4' })
  assert.deepEqual(
    [beyond.records, beyond.total, beyond.totalPage],
    [[], 5, 3],
    'a page past the end still counts',
  )
  for (const listed of all.records) {
    const detail = await get<Device>(ctx.app, '/device/detail', me, {
      deviceId: String(listed.deviceId),
    })
    assert.deepEqual(listed, detail.data, 'the list shows a phone as its detail does')
  }

  const ids = (page: { records: { deviceId: number }[] }) =>
    page.records.map((d) => d.deviceId).sort((x, y) => x - y)
  assert.deepEqual(ids(await list({ groupId: String(group.groupId) })), [b[0], h[0]])
  assert.deepEqual(ids(await list({ groupId: '0' })), [b[1], b[2], h[1]])
  assert.deepEqual(ids(await list({ version: '1' })), b)
  assert.deepEqual(ids(await list({ version: '2' })), h)
  assert.deepEqual(ids(await list({ keyword: '抖音' })), [b[1]])
  assert.deepEqual(ids(await list({ keyword: String(h[1]) })), [h[1]])
  assert.deepEqual(ids(await list({ keyword: '100%' })), [], 'wildcards are literal')
  assert.deepEqual(ids(await list({ status: '0' })), h)
  const inGroup = (await list({ groupId: String(group.groupId) })).records[0]
  assert.equal(inGroup.groupName, '工作室A')

  const bad = await get<PagedData<Device>>(ctx.app, '/device/list', me, { version: '3' })
  assert.equal(bad.status, 400)
  assert.equal(bad.msg, 'version 超出允许范围')
})

test('rename: 1–20 characters with a clear message', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000006')
  const [id] = await givePhones(ctx, me.userId, 1)
  const rename = (name: string) =>
    post<Device>(ctx.app, '/device/rename', { deviceId: id, name }, me)
  assert.equal((await rename('   ')).msg, '请输入云手机名称')
  assert.equal((await rename('一'.repeat(21))).msg, '云手机名称不能超过20个字')
  assert.equal((await deviceRow(ctx, id)).name, `云手机-${id}`, 'bad input changes nothing')
  const renamed = await rename(` ${'云'.repeat(20)} `)
  assert.equal(renamed.code, 200)
  assert.equal(renamed.data.name, '云'.repeat(20))
})

test('commands: reboot passes through 重启中, arguments are checked, results are per command', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000007')
  const [id] = await runningPhones(ctx, me.userId, 1)
  const command = (body: Record<string, unknown>) =>
    post<CommandResult>(ctx.app, '/device/command', { deviceId: id, ...body }, me)

  const clean = await command({ command: 'CleanVm' })
  assert.deepEqual(clean.data, { deviceId: id, ok: true, msg: '清理完成' })
  assert.equal(
    (await command({ command: 'OpenUrl', url: 'javascript:alert(1)' })).msg,
    '请输入以 http:// 或 https:// 开头的网址',
  )
  assert.equal((await command({ command: 'OpenUrl', url: 'https://example.com/a' })).data.ok, true)
  assert.equal(
    (await command({ command: 'Uninstall', packageName: '../etc' })).msg,
    '请输入正确的应用包名，如 com.example.app',
  )
  // SPEC 8: an app that is not installed is APP_DOES_NOT_EXIST (1090), not a generic tip (1080)
  const missingApp = await command({ command: 'Uninstall', packageName: 'com.not.installed' })
  assert.deepEqual([missingApp.code, missingApp.msg], [1090, '应用不存在'])
  // a batch answers 200 with each phone's result: the refusal is that phone's text
  const batch = await post<CommandResult[]>(
    ctx.app,
    '/device/batchCommand',
    { deviceIds: [id], command: 'Uninstall', packageName: 'com.not.installed' },
    me,
  )
  assert.deepEqual(batch.data, [{ deviceId: id, ok: false, msg: '应用不存在' }])
  assert.equal(
    (await command({ command: 'Uninstall', packageName: 'com.sina.weibo' })).data.msg,
    '已卸载',
  )
  const unknown = await command({ command: 'FormatDisk' })
  assert.equal(unknown.status, 400)

  const reboot = await command({ command: 'Reboot' })
  assert.equal(reboot.data.msg, '正在重启')
  let phone = (await get<Device>(ctx.app, '/device/detail', me, { deviceId: String(id) })).data
  assert.equal(phone.status, 4)
  assert.equal(phone.statusName, '重启中')
  assert.equal((await command({ command: 'CleanVm' })).msg, '云手机重启中，请稍后')
  const bootScreen = await get<DeviceCover>(ctx.app, '/device/cover', me, { deviceId: String(id) })
  assert.equal(bootScreen.code, 200, 'a rebooting phone still shows its screen')
  assert.match((await ctx.app.inject({ method: 'GET', url: bootScreen.data.url })).body, /正在重启/)
  await settle(ctx)
  phone = (await get<Device>(ctx.app, '/device/detail', me, { deviceId: String(id) })).data
  assert.equal(phone.status, 1, 'back to running after a few seconds')

  const cover = await get<DeviceCover>(ctx.app, '/device/cover', me, { deviceId: String(id) })
  assert.equal(cover.data.updatedAt, ctx.clock.now().getTime())
  const image = await ctx.app.inject({ method: 'GET', url: cover.data.url })
  assert.equal(image.statusCode, 200)
  assert.match(String(image.headers['content-type']), /image\/svg\+xml/)
  assert.match(String(image.headers['cache-control']), /max-age=/)
  assert.match(image.body, new RegExp(`云手机-${id}`))
})

test('batch commands over 300 phones report a result per phone', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000008')
  const other = await loginWithSms(ctx, '13100000009')
  const mine = await runningPhones(ctx, me.userId, 305)
  const [creating] = await givePhones(ctx, me.userId, 1)
  const [theirs] = await givePhones(ctx, other.userId, 1)

  const ids = [...mine, creating, theirs, 99_999]
  const reply = await post<CommandResult[]>(
    ctx.app,
    '/device/batchCommand',
    { deviceIds: ids, command: 'Reboot' },
    me,
  )
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.length, ids.length)
  const byId = new Map(reply.data.map((r) => [r.deviceId, r]))
  assert.ok(mine.every((id) => byId.get(id)!.ok))
  assert.deepEqual(byId.get(creating), {
    deviceId: creating,
    ok: false,
    msg: '云手机创建中，请稍后再试',
  })
  assert.deepEqual(byId.get(theirs), { deviceId: theirs, ok: false, msg: '云手机不存在' })
  assert.deepEqual(byId.get(99_999), { deviceId: 99_999, ok: false, msg: '云手机不存在' })
  assert.equal((await deviceRow(ctx, theirs)).status, 0, "another user's phone is untouched")
  assert.equal((await deviceRow(ctx, mine[0])).status, 4)
  await settle(ctx)
  assert.equal((await deviceRow(ctx, mine[304])).status, 1)

  const tooMany = Array.from({ length: 501 }, (_, i) => i + 1)
  assert.equal(
    (
      await post<CommandResult[]>(
        ctx.app,
        '/device/batchCommand',
        { deviceIds: tooMany, command: 'CleanVm' },
        me,
      )
    ).msg,
    '一次最多操作500台',
  )
  assert.equal(
    (
      await post<CommandResult[]>(
        ctx.app,
        '/device/batchCommand',
        { deviceIds: [], command: 'CleanVm' },
        me,
      )
    ).msg,
    '请选择云手机',
  )
})

test('change zone takes stock in the new zone, gives the old back, and keeps the phone busy', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000010')
  const [id] = await runningPhones(ctx, me.userId, 1, { zoneId: 1 })
  const [z1, z2] = [await stockOf(ctx, FLAGSHIP_GOOD, 1), await stockOf(ctx, FLAGSHIP_GOOD, 2)]

  await ctx.database.db
    .update(goodsStockSlots)
    .set({ stock: 0 })
    .where(eq(goodsStockSlots.zoneId, 3))
  const soldOut = await post<Device>(ctx.app, '/device/changeZone', { deviceId: id, zoneId: 3 }, me)
  assert.equal(soldOut.code, 1017)
  assert.equal(soldOut.msg, '所选地区库存不足，请选择其他地区')
  assert.equal(await stockOf(ctx, FLAGSHIP_GOOD, 1), z1, 'a refusal changes nothing')
  assert.equal(
    (await post<Device>(ctx.app, '/device/changeZone', { deviceId: id, zoneId: 1 }, me)).msg,
    '云手机已在该地区，无需更换',
  )
  assert.equal(
    (await post<Device>(ctx.app, '/device/changeZone', { deviceId: id, zoneId: 77 }, me)).msg,
    '所选地区不存在',
  )

  const moved = await post<Device>(ctx.app, '/device/changeZone', { deviceId: id, zoneId: 2 }, me)
  assert.equal(moved.code, 200, moved.msg)
  assert.equal(moved.data.busy, true)
  assert.equal(moved.data.busyOp, 'changeZone')
  assert.equal(await stockOf(ctx, FLAGSHIP_GOOD, 1), z1 + 1)
  assert.equal(await stockOf(ctx, FLAGSHIP_GOOD, 2), z2 - 1)
  assert.equal(
    (
      await post<CommandResult>(
        ctx.app,
        '/device/command',
        { deviceId: id, command: 'CleanVm' },
        me,
      )
    ).msg,
    '正在更换地区，请稍后',
  )
  await settle(ctx, SUPPLIER_DELAY_MS)
  assert.equal((await deviceRow(ctx, id)).busyOp, 'changeZone', 'data migration takes 2× the delay')
  await settle(ctx, SUPPLIER_DELAY_MS)
  const done = (await get<Device>(ctx.app, '/device/detail', me, { deviceId: String(id) })).data
  assert.equal(done.busy, false)
  assert.equal(done.zoneName, '华南-广州')
  const row = await deviceRow(ctx, id)
  assert.equal((await instanceRow(ctx, row.supplierInstanceId!)).zoneId, 2)

  // 畅享版 may change zone but has no changeConfig: no model choice.
  const [enjoy] = await runningPhones(ctx, me.userId, 1, { goodId: ENJOY_GOOD })
  assert.equal(
    (await post<Device>(ctx.app, '/device/setModel', { deviceId: enjoy, modelId: 'vivo-x90' }, me))
      .msg,
    '该云手机不支持选择机型',
  )
})

test('replace keeps id, expiry, group and (for a running phone) its data', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000011')
  const [id] = await runningPhones(ctx, me.userId, 1)
  const group = (await post<DeviceGroup>(ctx.app, '/group/create', { name: '保留' }, me)).data
  await post<MoveDevicesResult>(
    ctx.app,
    '/group/moveDevices',
    { deviceIds: [id], groupId: group.groupId },
    me,
  )
  await post<CommandResult>(
    ctx.app,
    '/device/command',
    { deviceId: id, command: 'Uninstall', packageName: 'com.xingin.xhs' },
    me,
  )
  const before = await deviceRow(ctx, id)

  const reply = await post<Device>(ctx.app, '/device/replace', { deviceId: id }, me)
  assert.equal(reply.data.busyOp, 'replace')
  assert.equal(reply.data.status, 1, 'the old instance serves until the new one runs')
  await settle(ctx)
  const after = await deviceRow(ctx, id)
  assert.notEqual(after.supplierInstanceId, before.supplierInstanceId)
  assert.equal(after.busyOp, null)
  assert.equal(after.expireAt.getTime(), before.expireAt.getTime())
  assert.equal(after.groupId, group.groupId)
  const fresh = await instanceRow(ctx, after.supplierInstanceId!)
  assert.ok(!fresh.apps.includes('com.xingin.xhs'), 'the data came along')
  assert.ok(fresh.apps.includes('com.tencent.mm'))
  assert.equal((await instanceRow(ctx, before.supplierInstanceId!)).status, 'released')
})

test('system update reports progress until the latest image is installed', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000012')
  const [id] = await runningPhones(ctx, me.userId, 1)
  const progress = () =>
    get<SystemUpdateProgress>(ctx.app, '/device/systemUpdateProgress', me, {
      deviceId: String(id),
    }).then((r) => r.data)
  assert.deepEqual(await progress(), {
    deviceId: id,
    updating: false,
    progress: 0,
    imageVersion: '10.0.2',
    latestVersion: '10.0.3',
    updateAvailable: true,
  })
  const started = await post<SystemUpdateProgress>(
    ctx.app,
    '/device/systemUpdate',
    { deviceId: id },
    me,
  )
  assert.equal(started.data.updating, true)
  assert.equal(started.data.progress, 0)
  ctx.clock.advance(SUPPLIER_DELAY_MS * 2.5)
  assert.equal((await progress()).progress, 50)
  await settle(ctx, SUPPLIER_DELAY_MS * 2.5)
  const done = await progress()
  assert.equal(done.updating, false)
  assert.equal(done.progress, 100)
  assert.equal(done.imageVersion, '10.0.3')
  assert.equal(
    (await post<SystemUpdateProgress>(ctx.app, '/device/systemUpdate', { deviceId: id }, me)).msg,
    '已是最新系统版本，无需更新',
  )
})

test('models and setModel', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000013')
  const [id] = await runningPhones(ctx, me.userId, 1)
  const models = (await get<DeviceModel[]>(ctx.app, '/device/models', me)).data
  assert.deepEqual(
    models.map((m) => m.name),
    ['小米13', '华为Mate50', 'OPPO Find X6', 'vivo X90', '三星S23'],
  )
  assert.equal(
    (await post<Device>(ctx.app, '/device/setModel', { deviceId: id, modelId: 'nokia' }, me)).msg,
    '所选机型不存在',
  )
  const set = await post<Device>(
    ctx.app,
    '/device/setModel',
    { deviceId: id, modelId: 'vivo-x90' },
    me,
  )
  assert.equal(set.data.model, 'vivo-x90')
  assert.equal(set.data.modelName, 'vivo X90')
  assert.equal(
    (await instanceRow(ctx, (await deviceRow(ctx, id)).supplierInstanceId!)).model,
    'vivo-x90',
  )
})

test('summary counts by status, expiring soon and group', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000014')
  const running = await runningPhones(ctx, me.userId, 2, { days: 1 })
  await givePhones(ctx, me.userId, 1, { days: 30 })
  const group = (await post<DeviceGroup>(ctx.app, '/group/create', { name: '甲' }, me)).data
  await post<MoveDevicesResult>(
    ctx.app,
    '/group/moveDevices',
    { deviceIds: [running[0]], groupId: group.groupId },
    me,
  )
  // the 1-day phones are expiring soon once they have lived longer than they have left (isExpiringSoon)
  assert.equal((await get<DeviceSummary>(ctx.app, '/device/summary', me)).data.expiringSoon, 0)
  ctx.clock.advance(13 * 3600_000)
  const summary = (await get<DeviceSummary>(ctx.app, '/device/summary', me)).data
  assert.equal(summary.total, 3)
  assert.equal(summary.byStatus.find((s) => s.status === 1)!.count, 2)
  assert.equal(summary.byStatus.find((s) => s.status === 0)!.count, 1)
  assert.equal(summary.expiringSoon, 2)
  assert.equal(summary.ungrouped, 2)
  assert.deepEqual(summary.groups, [{ groupId: group.groupId, name: '甲', count: 1 }])
})

/** Every call that names one phone, each with input that would otherwise be accepted. */
function everyDeviceCall(ctx: TestApp, session: Session, id: number) {
  const deviceId = String(id)
  return [
    get<Device>(ctx.app, '/device/detail', session, { deviceId }),
    get<DeviceCover>(ctx.app, '/device/cover', session, { deviceId }),
    get<SystemUpdateProgress>(ctx.app, '/device/systemUpdateProgress', session, { deviceId }),
    get<AuthTokenResult>(ctx.app, '/user/getAuthToken', session, { deviceId }),
    post<Device>(ctx.app, '/device/rename', { deviceId: id, name: '新名字' }, session),
    post<CommandResult>(ctx.app, '/device/command', { deviceId: id, command: 'Reboot' }, session),
    post<Device>(ctx.app, '/device/changeZone', { deviceId: id, zoneId: 2 }, session),
    post<Device>(ctx.app, '/device/replace', { deviceId: id }, session),
    post<SystemUpdateProgress>(ctx.app, '/device/systemUpdate', { deviceId: id }, session),
    post<Device>(ctx.app, '/device/setModel', { deviceId: id, modelId: 'vivo-x90' }, session),
    post<MoveDevicesResult>(
      ctx.app,
      '/group/moveDevices',
      { deviceIds: [id], groupId: 0 },
      session,
    ),
  ]
}

test("another user's phone is refused by every device endpoint", async (t) => {
  const ctx = await buildTestApp(t)
  const owner = await loginWithSms(ctx, '13100000015')
  const intruder: Session = await loginWithSms(ctx, '13100000016')
  const [id] = await runningPhones(ctx, owner.userId, 1)
  const before = await deviceRow(ctx, id)
  for (const reply of await Promise.all(everyDeviceCall(ctx, intruder, id))) {
    assert.equal(reply.code, 1031)
    assert.equal(reply.msg, '云手机不存在')
  }
  const batch = await post<CommandResult[]>(
    ctx.app,
    '/device/batchCommand',
    { deviceIds: [id], command: 'Reboot' },
    intruder,
  )
  assert.deepEqual(batch.data, [{ deviceId: id, ok: false, msg: '云手机不存在' }])
  assert.deepEqual(await deviceRow(ctx, id), before, 'nothing changed')
  assert.equal((await get<PagedData<Device>>(ctx.app, '/device/list', intruder)).data.total, 0)
  const anonymous = await get<PagedData<Device>>(ctx.app, '/device/list')
  assert.equal(anonymous.code, 2017)
})

test('a released phone refuses everything with 云手机已释放', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000017')
  const [id] = await runningPhones(ctx, me.userId, 1)
  await ctx.database.db.update(devices).set({ status: 3 }).where(eq(devices.id, id))
  for (const reply of await Promise.all(everyDeviceCall(ctx, me, id))) {
    assert.equal(reply.code, 1080)
    assert.equal(reply.msg, '云手机已释放')
  }
  assert.equal(
    (await get<PagedData<Device>>(ctx.app, '/device/list', me)).data.total,
    0,
    'not listed by default',
  )
  assert.equal(
    (await get<PagedData<Device>>(ctx.app, '/device/list', me, { status: '3' })).data.total,
    1,
  )
})

test('malformed device requests get a clear 400 and change nothing', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13100000018')
  const [id] = await runningPhones(ctx, me.userId, 1)
  const before = await deviceRow(ctx, id)
  const cases: [Promise<{ status: number; msg: string }>, string][] = [
    [get<Device>(ctx.app, '/device/detail', me), '缺少参数 deviceId'],
    [get<Device>(ctx.app, '/device/detail', me, { deviceId: 'abc' }), 'deviceId 类型不正确'],
    [get<DeviceCover>(ctx.app, '/device/cover', me, { deviceId: '0' }), 'deviceId 超出允许范围'],
    [post<CommandResult>(ctx.app, '/device/command', { deviceId: id }, me), '缺少参数 command'],
    [post<Device>(ctx.app, '/device/rename', { deviceId: id }, me), '缺少参数 name'],
    [
      post<Device>(ctx.app, '/device/changeZone', { deviceId: id, zoneId: 'north' }, me),
      'zoneId 类型不正确',
    ],
    [
      post<CommandResult[]>(
        ctx.app,
        '/device/batchCommand',
        { deviceIds: 'all', command: 'Reboot' },
        me,
      ),
      'deviceIds 类型不正确', // a body is not coerced: a string is not wrapped into a list
    ],
    [get<PagedData<Device>>(ctx.app, '/device/list', me, { rows: '1000' }), 'rows 超出允许范围'],
  ]
  for (const [reply, msg] of cases) {
    const { status, msg: got } = await reply
    assert.equal(status, 400)
    assert.equal(got, msg)
  }
  assert.deepEqual(await deviceRow(ctx, id), before)
})
