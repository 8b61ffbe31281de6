import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq } from 'drizzle-orm'
import { devices, jobs, messages, sandboxInstances } from '../../src/db/schema'
import { DEFAULT_COMMON_CONFIG } from '../../src/db/seed'
import { buildTestApp, loginWithSms, post } from '../helpers/test-app'
import {
  DAY_MS,
  deviceRow,
  ENJOY_GOOD,
  FLAGSHIP_GOOD,
  givePhones,
  instanceRow,
  runningPhones,
  stockOf,
} from '../helpers/fleet'
import type { Device } from '../../src/contract/device'

const HOUR_MS = 3600_000

async function renewalMessages(ctx: Awaited<ReturnType<typeof buildTestApp>>, userId: number) {
  return ctx.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.type, 2)))
    .orderBy(messages.id)
}

test('a phone expires at expireAt and is released exactly 2 hours later; a renewed one is not', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13300000001')
  await ctx.app.jobs.ensureRecurring()
  const [lapsed, renewed] = await runningPhones(ctx, me.userId, 2, { days: 1, zoneId: 2 })
  const stock = await stockOf(ctx, FLAGSHIP_GOOD, 2)
  const expireAt = (await deviceRow(ctx, lapsed)).expireAt.getTime()

  ctx.clock.advance(expireAt - ctx.clock.now().getTime() - 1)
  await ctx.app.jobs.runDue()
  assert.equal((await deviceRow(ctx, lapsed)).status, 1, 'running until the last millisecond')
  ctx.clock.advance(30_000)
  await ctx.app.jobs.runDue()
  assert.equal((await deviceRow(ctx, lapsed)).status, 2)
  assert.equal((await deviceRow(ctx, renewed)).status, 2)
  const expiredNotes = (await renewalMessages(ctx, me.userId)).filter(
    (m) => m.title === '云手机已到期',
  )
  assert.equal(expiredNotes.length, 2)
  assert.equal(
    expiredNotes[0].content,
    `「云手机-${lapsed}」${DEFAULT_COMMON_CONFIG.renewalReminderMsg}`,
  )

  // Renewal of the expired phone (as a paid renew order does) brings it back.
  const newExpireAt = ctx.clock.now().getTime() + 30 * DAY_MS
  await ctx.database.db.transaction((tx) =>
    ctx.app.services.lifecycle.extendDevices(tx, [{ deviceId: renewed, newExpireAt }]),
  )
  assert.equal((await deviceRow(ctx, renewed)).status, 1)
  await ctx.app.jobs.runDue()
  const instance = await instanceRow(ctx, (await deviceRow(ctx, renewed)).supplierInstanceId!)
  assert.equal(instance.expireAt.getTime(), newExpireAt, 'the supplier is told to renew')

  ctx.clock.advance(expireAt + 2 * HOUR_MS - ctx.clock.now().getTime() - 1)
  await ctx.app.jobs.runDue()
  assert.equal((await deviceRow(ctx, lapsed)).status, 2, 'kept until exactly 2 hours')
  ctx.clock.advance(1)
  // The recurring job runs every 30 s; make it due at this instant.
  await ctx.database.db
    .update(jobs)
    .set({ runAt: ctx.clock.now() })
    .where(eq(jobs.kind, 'expire-devices'))
  await ctx.app.jobs.runDue()
  const released = await deviceRow(ctx, lapsed)
  assert.equal(released.status, 3)
  assert.equal(released.releasedAt?.getTime(), ctx.clock.now().getTime())
  assert.equal(released.supplierReleased, true)
  assert.equal((await instanceRow(ctx, released.supplierInstanceId!)).status, 'released')
  assert.equal(await stockOf(ctx, FLAGSHIP_GOOD, 2), stock + 1, 'the unit goes back on sale')
  assert.equal((await deviceRow(ctx, renewed)).status, 1, 'the renewed phone runs on')

  // Running the job again changes nothing twice.
  ctx.clock.advance(30_000)
  await ctx.app.jobs.runDue()
  assert.equal(await stockOf(ctx, FLAGSHIP_GOOD, 2), stock + 1)
  assert.equal(
    (await renewalMessages(ctx, me.userId)).filter((m) => m.title === '云手机已到期').length,
    2,
  )

  // A released phone cannot be renewed.
  await assert.rejects(
    ctx.database.db.transaction((tx) =>
      ctx.app.services.lifecycle.extendDevices(tx, [{ deviceId: lapsed, newExpireAt }]),
    ),
    /云手机已释放，无法续费/,
  )
})

test('the 24-hour reminder goes out once per device and expiry time', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13300000002')
  await ctx.app.jobs.ensureRecurring()
  const [id] = await runningPhones(ctx, me.userId, 1, { days: 7 })
  const expireAt = (await deviceRow(ctx, id)).expireAt.getTime()
  const reminders = async () =>
    (await renewalMessages(ctx, me.userId)).filter((m) => m.title === '云手机即将到期')

  ctx.clock.advance(expireAt - 24 * HOUR_MS - ctx.clock.now().getTime() - 60_000)
  await ctx.app.jobs.runDue()
  assert.equal((await reminders()).length, 0, 'not earlier than 24 h before')
  ctx.clock.advance(60_000)
  await ctx.app.jobs.runDue()
  const [first] = await reminders()
  assert.ok(first)
  assert.match(
    first.content,
    new RegExp(`「云手机-${id}」将于\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}到期`),
  )
  for (let i = 0; i < 4; i++) {
    ctx.clock.advance(30_000)
    await ctx.app.jobs.runDue()
  }
  assert.equal((await reminders()).length, 1, 'once')

  // Renewed by a day: a new expiry, so one new reminder when its 24 h window comes.
  await ctx.database.db.transaction((tx) =>
    ctx.app.services.lifecycle.extendDevices(tx, [
      { deviceId: id, newExpireAt: expireAt + DAY_MS },
    ]),
  )
  ctx.clock.advance(DAY_MS)
  await ctx.app.jobs.runDue()
  ctx.clock.advance(30_000)
  await ctx.app.jobs.runDue()
  assert.equal((await reminders()).length, 2)
})

test('a phone bought for one day is not reminded the moment it is created', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13300000003')
  await ctx.app.jobs.ensureRecurring()
  await runningPhones(ctx, me.userId, 1, { days: 1 })
  ctx.clock.advance(30_000)
  await ctx.app.jobs.runDue()
  assert.equal((await renewalMessages(ctx, me.userId)).length, 0)
})

test('a provisioning job cut off by a crash resumes after its lease without a second instance', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13300000004')
  const [id] = await givePhones(ctx, me.userId, 1)
  const provisioning = eq(jobs.kind, 'provision-device')
  // The instance was requested, then the process died before it recorded the instance id.
  await ctx.app.services.ctx.supplier.create({
    requestId: `device-${id}-0`,
    name: `云手机-${id}`,
    goodId: FLAGSHIP_GOOD,
    zoneId: 1,
    expireAt: (await deviceRow(ctx, id)).expireAt,
  })
  await ctx.database.db
    .update(jobs)
    .set({ status: 'running', lockedUntil: new Date(ctx.clock.now().getTime() + 5 * 60_000) })
    .where(provisioning)
  assert.equal(await ctx.app.jobs.runDue(), 0, 'still leased')
  ctx.clock.advance(5 * 60_000)
  await ctx.app.jobs.runDue()
  const row = await deviceRow(ctx, id)
  assert.equal(row.status, 1)
  const instances = await ctx.database.db.query.sandboxInstances.findMany()
  assert.equal(instances.length, 1, 'the retried create returned the same instance')
  assert.equal(row.supplierInstanceId, instances[0].id)
})

test('paid changes from commerce: configuration, video edition, and the ownership check', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13300000005')
  const other = await loginWithSms(ctx, '13300000006')
  const [id] = await runningPhones(ctx, me.userId, 1, { goodId: ENJOY_GOOD })
  const [theirs] = await givePhones(ctx, other.userId, 1)
  const { lifecycle } = ctx.app.services
  const newExpireAt = (await deviceRow(ctx, id)).expireAt.getTime() + DAY_MS

  await ctx.database.db.transaction(async (tx) => {
    await lifecycle.applyConfigChange(tx, { deviceId: id, toGoodId: FLAGSHIP_GOOD, newExpireAt })
    await lifecycle.applyVideoEdition(tx, id)
  })
  const row = await deviceRow(ctx, id)
  assert.equal(row.goodId, FLAGSHIP_GOOD)
  assert.equal(row.level, 3)
  assert.equal(row.videoEdition, true)
  assert.equal(row.expireAt.getTime(), newExpireAt)
  await ctx.app.jobs.runDue()
  const instance = await instanceRow(ctx, row.supplierInstanceId!)
  assert.equal(instance.goodId, FLAGSHIP_GOOD, 'the supplier is told the new configuration')
  assert.equal(instance.expireAt.getTime(), newExpireAt)

  assert.deepEqual(await lifecycle.ownedDevices(ctx.database.db, me.userId, [id, id]), [
    {
      deviceId: id,
      goodId: FLAGSHIP_GOOD,
      zoneId: 1,
      status: 1,
      expireAt: newExpireAt,
      videoEdition: true,
      level: 3,
    },
  ])
  await assert.rejects(
    lifecycle.ownedDevices(ctx.database.db, me.userId, [id, theirs]),
    /云手机不存在/,
  )
  // A phone still being created cannot take a paid change; the order's transaction rolls back.
  await assert.rejects(
    ctx.database.db.transaction((tx) => lifecycle.applyVideoEdition(tx, theirs)),
    /云手机当前状态不能升级视频定制版/,
  )
})

test('a supplier that never finishes: provisioning gives up after 10 minutes, a zone change after 30', async (t) => {
  const ctx = await buildTestApp(t, { config: { sandboxSupplierDelayMs: 24 * HOUR_MS } })
  const me = await loginWithSms(ctx, '13300000007')
  const [id] = await givePhones(ctx, me.userId, 1)
  await ctx.app.jobs.runDue()
  ctx.clock.advance(10 * 60_000 - 1)
  await ctx.app.jobs.runDue()
  assert.equal((await deviceRow(ctx, id)).status, 0, 'still waiting just before the limit')
  ctx.clock.advance(1000) // the next poll, a second later
  await ctx.app.jobs.runDue()
  const failed = await deviceRow(ctx, id)
  assert.equal(failed.status, 5)
  assert.equal(failed.failReason, '创建超时')
  assert.equal((await instanceRow(ctx, failed.supplierInstanceId!)).status, 'released')

  // A phone that runs, then a zone change the supplier never completes.
  await ctx.database.db
    .update(sandboxInstances)
    .set({ status: 'running', op: null, opReadyAt: null })
    .where(eq(sandboxInstances.id, failed.supplierInstanceId!))
  await ctx.database.db.update(devices).set({ status: 1 }).where(eq(devices.id, id))
  const moved = await post<Device>(ctx.app, '/device/changeZone', { deviceId: id, zoneId: 2 }, me)
  assert.equal(moved.data.busyOp, 'changeZone')
  ctx.clock.advance(30 * 60_000)
  await ctx.app.jobs.runDue()
  const stuck = await deviceRow(ctx, id)
  assert.equal(stuck.busyOp, null)
  assert.equal(stuck.failReason, '更换地区超时，请重试或联系客服')
})
