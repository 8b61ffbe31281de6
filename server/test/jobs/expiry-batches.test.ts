/**
 * expire-devices at scale: it changes phones in conditional batch updates of at most BATCH
 * phones a transaction, drains a backlog larger than one batch within a run, and two instances running
 * it at the same moment (two servers, each on its own connection pool on PostgreSQL) remind, expire,
 * stop and release each phone exactly once: one message each, the stock back once, each instance
 * released once.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq, inArray, sql } from 'drizzle-orm'
import pg from 'pg'
import { RETENTION_MS } from '#domain/device-lifecycle'
import { wrapPool } from '../../src/db/client'
import { devices, goods, messages, sandboxInstances } from '../../src/db/schema'
import { BATCH, expireDevicesJob, REMINDER_BEFORE_MS } from '../../src/jobs/expire-devices'
import { MessageKind } from '../../src/services/engagement/message-service'
import { DAY_MS, FLAGSHIP_GOOD, stockOf } from '../helpers/fleet'
import { buildTestApp, loginWithSms, type TestApp } from '../helpers/test-app'

/** "In one run" is what these tests assert, however slow the machine: no step budget. */
const NO_BUDGET = Infinity

/** More than two batches: one run must take several. */
const PHONES = 2 * BATCH + 137
const ZONE = 1

/** `n` running phones of `userId` expiring at `expireAt`, with running sandbox instances. */
async function insertRunningPhones(ctx: TestApp, userId: number, n: number, expireAt: Date) {
  const [good] = await ctx.database.db.select().from(goods).where(eq(goods.id, FLAGSHIP_GOOD))
  const created = new Date(expireAt.getTime() - 30 * DAY_MS)
  const rows = await ctx.database.db
    .insert(devices)
    .values(
      Array.from({ length: n }, (_, i) => ({
        userId,
        name: `批量-${i}`,
        goodId: good.id,
        level: good.level,
        zoneId: ZONE,
        androidVersion: good.androidVersion,
        imageType: good.imageType,
        status: 1,
        supplierInstanceId: `batch-${userId}-${i}`,
        expireAt,
        createdAt: created,
      })),
    )
    .returning({ id: devices.id, instanceId: devices.supplierInstanceId })
  await ctx.database.db.insert(sandboxInstances).values(
    rows.map((row) => ({
      id: row.instanceId!,
      requestId: `req-${row.instanceId}`,
      name: row.instanceId!,
      goodId: good.id,
      zoneId: ZONE,
      status: 'running',
      expireAt,
      model: 'SM-G9910',
      imageVersion: 'v1',
      apps: [],
      hue: 0,
      createdAt: created,
    })),
  )
  return rows.map((row) => row.id)
}

async function countMessages(ctx: TestApp, userId: number, title: string) {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        eq(messages.type, MessageKind.RENEWAL),
        eq(messages.title, title),
      ),
    )
  return row.n
}

async function statusCounts(ctx: TestApp, ids: number[]) {
  const rows = await ctx.database.db
    .select({ status: devices.status, n: sql<number>`count(*)::int` })
    .from(devices)
    .where(inArray(devices.id, ids))
    .groupBy(devices.status)
  return Object.fromEntries(rows.map((row) => [row.status, row.n]))
}

async function instanceCounts(ctx: TestApp, userId: number) {
  const rows = await ctx.database.db
    .select({ status: sandboxInstances.status, n: sql<number>`count(*)::int` })
    .from(sandboxInstances)
    .where(sql`${sandboxInstances.id} like ${`batch-${userId}-%`}`)
    .groupBy(sandboxInstances.status)
  return Object.fromEntries(rows.map((row) => [row.status, row.n]))
}

test('one run drains more than two batches, never more than BATCH phones a transaction', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13300000101')
  const start = ctx.clock.now().getTime()
  const expireAt = new Date(start + 2 * DAY_MS)
  const ids = await insertRunningPhones(ctx, me.userId, PHONES, expireAt)
  const stock = await stockOf(ctx, FLAGSHIP_GOOD, ZONE)

  const batches: number[] = []
  const send = ctx.app.services.messages.sendMessages.bind(ctx.app.services.messages)
  ctx.app.services.messages.sendMessages = async (type, items, db) => {
    batches.push(items.length)
    return send(type, items, db)
  }
  const job = expireDevicesJob(ctx.database.db, ctx.app.services, NO_BUDGET)

  await job.run({}, new Date(expireAt.getTime() - REMINDER_BEFORE_MS + 1))
  assert.equal(
    await countMessages(ctx, me.userId, '云手机即将到期'),
    PHONES,
    'every phone reminded',
  )
  assert.deepEqual(batches, [BATCH, BATCH, PHONES - 2 * BATCH], 'in batches of BATCH')

  batches.length = 0
  await job.run({}, expireAt)
  assert.deepEqual(await statusCounts(ctx, ids), { 2: PHONES }, 'every phone expired in one run')
  assert.equal(await countMessages(ctx, me.userId, '云手机已到期'), PHONES)
  assert.deepEqual(batches, [BATCH, BATCH, PHONES - 2 * BATCH])
  assert.deepEqual(await instanceCounts(ctx, me.userId), { suspended: PHONES }, 'every one stopped')
  // each marked stopped for its expiry: the next run asks the supplier about none of them
  const supplier = ctx.app.services.ctx.supplier
  const suspend = supplier.suspend.bind(supplier)
  const asked: string[] = []
  supplier.suspend = (instanceIds) => {
    asked.push(...instanceIds)
    return suspend(instanceIds)
  }
  await job.run({}, new Date(expireAt.getTime() + 30_000))
  assert.deepEqual(asked, [], 'not asked again')

  await job.run({}, new Date(expireAt.getTime() + RETENTION_MS))
  assert.deepEqual(await statusCounts(ctx, ids), { 3: PHONES }, 'every phone released in one run')
  assert.equal(await stockOf(ctx, FLAGSHIP_GOOD, ZONE), stock + PHONES, 'each unit back once')
  assert.deepEqual(await instanceCounts(ctx, me.userId), { released: PHONES })
  const [{ left }] = await ctx.database.db
    .select({ left: sql<number>`count(*)::int` })
    .from(devices)
    .where(and(inArray(devices.id, ids), eq(devices.supplierReleased, false)))
  assert.equal(left, 0, 'every instance released at the supplier')
})

test('two instances running expire-devices at the same moment change each phone once', async (t) => {
  const ctx = await buildTestApp(t)
  // On PostgreSQL the second instance has its own pool, so the two really run at once.
  let second = ctx.database.db
  if (ctx.database.kind === 'postgres') {
    const url = ctx.database.pool.options.connectionString as string
    const pool = wrapPool(new pg.Pool({ connectionString: url, max: 5 }))
    t.after(() => pool.close())
    second = pool.db
  }
  const me = await loginWithSms(ctx, '13300000102')
  const start = ctx.clock.now().getTime()
  const expireAt = new Date(start + 2 * DAY_MS)
  const ids = await insertRunningPhones(ctx, me.userId, PHONES, expireAt)
  const stock = await stockOf(ctx, FLAGSHIP_GOOD, ZONE)
  const a = expireDevicesJob(ctx.database.db, ctx.app.services, NO_BUDGET)
  const b = expireDevicesJob(second, ctx.app.services, NO_BUDGET)
  const both = async (at: number) => {
    await Promise.all([a.run({}, new Date(at)), b.run({}, new Date(at))])
    // and once more each: a repeated run changes nothing
    await Promise.all([a.run({}, new Date(at)), b.run({}, new Date(at))])
  }

  await both(expireAt.getTime() - REMINDER_BEFORE_MS + 1)
  assert.equal(await countMessages(ctx, me.userId, '云手机即将到期'), PHONES, 'one reminder each')

  await both(expireAt.getTime())
  assert.deepEqual(await statusCounts(ctx, ids), { 2: PHONES })
  assert.equal(await countMessages(ctx, me.userId, '云手机已到期'), PHONES, 'one expiry note each')
  assert.deepEqual(await instanceCounts(ctx, me.userId), { suspended: PHONES })

  await both(expireAt.getTime() + RETENTION_MS)
  assert.deepEqual(await statusCounts(ctx, ids), { 3: PHONES })
  assert.equal(await stockOf(ctx, FLAGSHIP_GOOD, ZONE), stock + PHONES, 'each unit back once')
  assert.deepEqual(await instanceCounts(ctx, me.userId), { released: PHONES })
})

test('a run spends at most its step budget: a backlog is drained over the next runs', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13300000109')
  const expireAt = new Date(ctx.clock.now().getTime() + 2 * DAY_MS)
  await insertRunningPhones(ctx, me.userId, PHONES, expireAt)
  const job = expireDevicesJob(ctx.database.db, ctx.app.services, 0) // spent after one batch
  const at = new Date(expireAt.getTime() - REMINDER_BEFORE_MS + 1)
  await job.run({}, at)
  assert.equal(await countMessages(ctx, me.userId, '云手机即将到期'), BATCH, 'one batch a run')
  await job.run({}, at)
  await job.run({}, at)
  assert.equal(await countMessages(ctx, me.userId, '云手机即将到期'), PHONES, 'the rest next runs')
})

test('a user who switched renewal messages off gets none from a batch; others in it do', async (t) => {
  const ctx = await buildTestApp(t)
  const quiet = await loginWithSms(ctx, '13300000103')
  const loud = await loginWithSms(ctx, '13300000104')
  await ctx.app.services.messages.updateSettings(quiet.userId, { renewal: false })
  const expireAt = new Date(ctx.clock.now().getTime() + 2 * DAY_MS)
  await insertRunningPhones(ctx, quiet.userId, 3, expireAt)
  await insertRunningPhones(ctx, loud.userId, 2, expireAt)
  const job = expireDevicesJob(ctx.database.db, ctx.app.services)
  await job.run({}, new Date(expireAt.getTime() - REMINDER_BEFORE_MS + 1))
  await job.run({}, expireAt)
  assert.equal(await countMessages(ctx, quiet.userId, '云手机即将到期'), 0)
  assert.equal(await countMessages(ctx, quiet.userId, '云手机已到期'), 0)
  assert.equal(await countMessages(ctx, loud.userId, '云手机即将到期'), 2)
  assert.equal(await countMessages(ctx, loud.userId, '云手机已到期'), 2)
})
