/**
 * Batch installs on the sandbox supplier (services/apps/app-installs.ts, adapters/supplier/sandbox/
 * app-installs.ts): one app onto a list, a group or all of a user's phones; each phone skipped at once
 * (not yours, view-only, expired, not running) or sent in the supplier's batch size and followed until
 * installed or failed (an ABI the phone does not run, a phone gone offline mid-install); 安装中 n/N
 * then the sum; the newest batch for a page opened during it; then the phone's installed apps,
 * launch, and the SPEC's Uninstall command.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { INSTALL_SKIPS } from '#domain/apps'
import { ResultCode } from '#domain/result-codes'
import { SANDBOX_INSTALL_REFUSALS } from '../../../src/adapters/supplier/sandbox/app-installs'
import type {
  AppItem,
  InstalledApp,
  InstallProgress,
  InstallResult,
} from '../../../src/contract/app'
import type { PagedData } from '../../../src/contract/common'
import {
  appInstalls as installsTable,
  deviceGroups,
  devices,
  sandboxInstances,
} from '../../../src/db/schema'
import { INSTALL_FAILURES, INSTALL_SHOWN_MS } from '../../../src/services/apps/app-installs'
import { buildApk, uploadApk } from '../../helpers/apk'
import { runningPhones, SUPPLIER_DELAY_MS } from '../../helpers/fleet'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../../helpers/test-app'

async function upload(ta: TestApp, who: Session, spec: Parameters<typeof buildApk>[0] = {}) {
  const reply = await uploadApk(ta.app, who, buildApk(spec))
  assert.equal(reply.code, 200, reply.msg)
  return reply.data as AppItem
}

const install = (ta: TestApp, who: Session, body: Record<string, unknown>) =>
  post<InstallProgress>(ta.app, '/app/install', body, who)

const progress = (ta: TestApp, who: Session, installId: number) =>
  get<InstallProgress>(ta.app, '/app/install/progress', who, { installId: String(installId) })

async function results(ta: TestApp, who: Session, installId: number) {
  const reply = await get<PagedData<InstallResult>>(ta.app, '/app/install/results', who, {
    installId: String(installId),
    rows: '100',
  })
  assert.equal(reply.code, 200, reply.msg)
  return new Map(reply.data.records.map((r) => [r.deviceId, r]))
}

/** Runs the jobs, lets the sandbox finish its installs, runs them again. */
async function finishInstalls(ta: TestApp) {
  await ta.app.jobs.runDue(10_000)
  ta.clock.advance(SUPPLIER_DELAY_MS + 100)
  await ta.app.jobs.runDue(10_000)
}

async function instanceOf(ta: TestApp, deviceId: number) {
  const [row] = await ta.database.db.select().from(devices).where(eq(devices.id, deviceId))
  return row.supplierInstanceId!
}

test('a list of phones: each skipped with why or installed, 安装中 n/N, then the phone lists, opens and uninstalls it', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004601')
  const other = await loginWithSms(ta, '13500004602')
  const [a, b, c, expired, offline] = await runningPhones(ta, me.userId, 5)
  const [theirs, viewOnly, control] = await runningPhones(ta, other.userId, 3)
  for (const [deviceId, permission] of [
    [viewOnly, 1],
    [control, 2],
  ]) {
    const granted = await post(
      ta.app,
      '/device/empower',
      { deviceIds: [deviceId], mobilePhone: '13500004601', permission, days: 7 },
      other,
    )
    assert.equal(granted.code, 200, granted.msg)
  }
  const db = ta.database.db
  await db.update(devices).set({ status: 2 }).where(eq(devices.id, expired))
  await db.update(devices).set({ status: 4 }).where(eq(devices.id, offline))
  const app = await upload(ta, me, { packageName: 'com.studio.helper' })

  const started = await install(ta, me, {
    appId: app.appId,
    deviceIds: [a, b, c, expired, offline, theirs, viewOnly, control, 999_999],
  })
  assert.equal(started.code, 200, started.msg)
  const batch = started.data
  assert.equal(batch.total, 8) // 999,999 is no phone at all: left out
  assert.equal(batch.skipped, 4)
  assert.equal(batch.text, '安装中 4/8')
  assert.equal(batch.finished, false)
  const early = await results(ta, me, batch.installId)
  assert.equal(early.get(expired)?.reason, INSTALL_SKIPS.expired)
  assert.equal(early.get(offline)?.reason, INSTALL_SKIPS.offline)
  assert.equal(early.get(theirs)?.reason, INSTALL_SKIPS.notYours)
  assert.equal(early.get(viewOnly)?.reason, INSTALL_SKIPS.viewOnly)
  assert.equal(early.get(a)?.status, 'pending')

  await ta.app.jobs.runDue(10_000)
  assert.equal((await results(ta, me, batch.installId)).get(a)?.status, 'installing')
  assert.equal((await progress(ta, me, batch.installId)).data.text, '安装中 4/8')
  ta.clock.advance(SUPPLIER_DELAY_MS + 100)
  await ta.app.jobs.runDue(10_000)
  const done = (await progress(ta, me, batch.installId)).data
  assert.equal(done.finished, true)
  assert.equal(done.installed, 4)
  assert.equal(done.text, '安装完成：成功 4，跳过 4')
  const after = await results(ta, me, batch.installId)
  for (const id of [a, b, c, control]) assert.equal(after.get(id)?.status, 'installed')

  // on the phone: listed under its library name, opened, uninstalled by the SPEC's command
  const listed = await get<InstalledApp[]>(ta.app, '/app/installed', me, { deviceId: String(a) })
  assert.equal(listed.code, 200, listed.msg)
  const mine = listed.data.find((x) => x.packageName === 'com.studio.helper')
  assert.deepEqual(mine, {
    packageName: 'com.studio.helper',
    name: '演示应用',
    versionName: '1.2.0',
  })
  const launched = await post(
    ta.app,
    '/app/launch',
    { deviceId: a, packageName: 'com.studio.helper' },
    me,
  )
  assert.equal(launched.code, 200, launched.msg)
  const [instance] = await db
    .select()
    .from(sandboxInstances)
    .where(eq(sandboxInstances.id, await instanceOf(ta, a)))
  assert.equal(instance.lastCommand, 'Launch com.studio.helper')
  const removed = await post(
    ta.app,
    '/device/command',
    { deviceId: a, command: 'Uninstall', packageName: 'com.studio.helper' },
    me,
  )
  assert.equal(removed.code, 200, removed.msg)
  const relisted = await get<InstalledApp[]>(ta.app, '/app/installed', me, { deviceId: String(a) })
  assert.ok(!relisted.data.some((x) => x.packageName === 'com.studio.helper'))
  const notThere = await post(
    ta.app,
    '/app/launch',
    { deviceId: a, packageName: 'com.studio.helper' },
    me,
  )
  assert.equal(notThere.code, ResultCode.SHOW_ERROR_TIPS)
  assert.equal(notThere.msg, SANDBOX_INSTALL_REFUSALS.notInstalled)

  // the per-phone routes: a view-only phone, someone else's, one not running
  const view = await get(ta.app, '/app/installed', me, { deviceId: String(viewOnly) })
  assert.equal(view.code, ResultCode.SHOW_ERROR_TIPS)
  const notMine = await get(ta.app, '/app/installed', me, { deviceId: String(theirs) })
  assert.equal(notMine.code, ResultCode.GET_DEVICE_FAILED)
  const stopped = await post(
    ta.app,
    '/app/launch',
    { deviceId: offline, packageName: 'com.x.y' },
    me,
  )
  assert.equal(stopped.code, ResultCode.SHOW_ERROR_TIPS)
  assert.equal(stopped.msg, INSTALL_SKIPS.offline)
})

test('an APK for an ABI the phone does not run is refused; one that stops mid-install fails as offline', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004603')
  const [p1, p2, p3] = await runningPhones(ta, me.userId, 3)
  const so = (abi: string) => ({ name: `lib/${abi}/libcore.so`, data: Buffer.from('\x7fELF') })
  const x86 = await upload(ta, me, { packageName: 'com.only.x86', extra: [so('x86_64')] })
  const arm = await upload(ta, me, {
    packageName: 'com.arm.app',
    extra: [so('arm64-v8a'), so('x86')],
  })

  const refused = (await install(ta, me, { appId: x86.appId, deviceIds: [p1] })).data
  await finishInstalls(ta)
  const r1 = await results(ta, me, refused.installId)
  assert.deepEqual(
    [r1.get(p1)?.status, r1.get(p1)?.reason],
    ['failed', SANDBOX_INSTALL_REFUSALS.abi],
  )
  assert.equal((await progress(ta, me, refused.installId)).data.text, '安装完成：成功 0，失败 1')

  const batch = (await install(ta, me, { appId: arm.appId, deviceIds: [p2, p3] })).data
  await ta.app.jobs.runDue(10_000)
  // p3's instance is reset at the supplier while its install runs: offline when the job asks
  await ta.app.services.ctx.supplier.reset(await instanceOf(ta, p3))
  ta.clock.advance(SUPPLIER_DELAY_MS + 100)
  await ta.app.jobs.runDue(10_000)
  const r2 = await results(ta, me, batch.installId)
  assert.equal(r2.get(p2)?.status, 'installed')
  assert.deepEqual(
    [r2.get(p3)?.status, r2.get(p3)?.reason],
    ['failed', SANDBOX_INSTALL_REFUSALS.offline],
  )
})

test('全选 and a group; the supplier is called in its batch size', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004604')
  const phones = await runningPhones(ta, me.userId, 5)
  const app = await upload(ta, me)
  const installer = ta.app.services.ctx.supplier.apps!
  const calls: number[] = []
  const original = installer.install.bind(installer)
  Object.assign(installer, {
    batchSize: 2,
    install: (ids: string[], a: Parameters<typeof original>[1]) => {
      calls.push(ids.length)
      return original(ids, a)
    },
  })
  const all = (await install(ta, me, { appId: app.appId, all: true })).data
  assert.equal(all.total, 5)
  await finishInstalls(ta)
  assert.deepEqual(calls, [2, 2, 1])
  assert.equal((await progress(ta, me, all.installId)).data.installed, 5)

  const [group] = await ta.database.db
    .insert(deviceGroups)
    .values({ userId: me.userId, name: '工作室A', sort: 0, createdAt: ta.clock.now() })
    .returning()
  await ta.database.db.update(devices).set({ groupId: group.id }).where(eq(devices.id, phones[0]))
  const grouped = (await install(ta, me, { appId: app.appId, groupId: group.id })).data
  assert.equal(grouped.total, 1)
  const empty = await ta.database.db
    .insert(deviceGroups)
    .values({ userId: me.userId, name: '空分组', sort: 1, createdAt: ta.clock.now() })
    .returning()
  const none = await install(ta, me, { appId: app.appId, groupId: empty[0].id })
  assert.equal(none.code, ResultCode.SHOW_ERROR_TIPS)
  assert.equal(none.msg, '该分组没有云手机')
})

test('refusals: an app not yours or hidden, no selection or two, an install not yours, an app removed meanwhile', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004605')
  const other = await loginWithSms(ta, '13500004606')
  const [phone] = await runningPhones(ta, me.userId, 1)
  const theirs = await upload(ta, other)
  const hidden = await ta.app.services.apps.upload(
    null,
    buildApk({ packageName: 'com.cat.hidden' }),
  )
  await ta.app.services.apps.setHidden(hidden.appId, true)
  for (const appId of [theirs.appId, hidden.appId, 424242]) {
    const reply = await install(ta, me, { appId, deviceIds: [phone] })
    assert.equal(reply.code, ResultCode.APP_DOES_NOT_EXIST, String(appId))
  }
  const mine = await upload(ta, me)
  for (const body of [
    { appId: mine.appId },
    { appId: mine.appId, deviceIds: [phone], all: true },
    { appId: mine.appId, deviceIds: [] },
  ]) {
    const reply = await install(ta, me, body)
    assert.equal(reply.code, ResultCode.SHOW_ERROR_TIPS, JSON.stringify(body))
    assert.equal(reply.msg, '请选择云手机')
  }
  const mineBatch = (await install(ta, me, { appId: mine.appId, deviceIds: [phone] })).data
  const peek = await progress(ta, other, mineBatch.installId)
  assert.equal(peek.code, ResultCode.TASK_NOT_EXIST)
  const peekResults = await get(ta.app, '/app/install/results', other, {
    installId: String(mineBatch.installId),
  })
  assert.equal(peekResults.code, ResultCode.TASK_NOT_EXIST)

  // removed from the library before the job ran: the open phones fail with why
  const removed = await post(ta.app, '/app/delete', { appId: mine.appId }, me)
  assert.equal(removed.code, 200, removed.msg)
  await ta.app.jobs.runDue(10_000)
  const r = await results(ta, me, mineBatch.installId)
  assert.deepEqual(
    [r.get(phone)?.status, r.get(phone)?.reason],
    ['failed', INSTALL_FAILURES.appRemoved],
  )
  const [row] = await ta.database.db
    .select()
    .from(installsTable)
    .where(eq(installsTable.id, mineBatch.installId))
  assert.ok(row.finishedAt)
  assert.equal(row.appName, '演示应用')
})

test('the newest batch: none before, while it runs and for an hour after it ended, never another user’s', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004611')
  const other = await loginWithSms(ta, '13500004612')
  const latest = async (who: Session) => {
    const reply = await get<InstallProgress | null>(ta.app, '/app/install/latest', who)
    assert.equal(reply.code, 200, reply.msg)
    return reply.data
  }
  assert.equal(await latest(me), null)
  const phones = await runningPhones(ta, me.userId, 2)
  const app = await upload(ta, me)
  const first = await install(ta, me, { appId: app.appId, deviceIds: [phones[0]] })
  const second = await install(ta, me, { appId: app.appId, deviceIds: phones })
  assert.equal(second.code, 200, second.msg)
  assert.notEqual(first.data.installId, second.data.installId)
  assert.deepEqual(await latest(me), second.data, 'the newer of two running batches, as it started')
  assert.equal(await latest(other), null, "another user's batch is not theirs")

  await finishInstalls(ta)
  const ended = await latest(me)
  assert.equal(ended?.installId, second.data.installId)
  assert.equal(ended?.finished, true)
  assert.equal(ended?.text, '安装完成：成功 2')
  ta.clock.advance(INSTALL_SHOWN_MS - 1_000)
  assert.equal((await latest(me))?.installId, second.data.installId, 'within the hour')
  ta.clock.advance(2_000)
  assert.equal(await latest(me), null, 'an hour after it ended')
})
