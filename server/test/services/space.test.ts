import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { eq } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import { devices, jobs, sandboxInstances, spaceTasks } from '../../src/db/schema'
import { BASE_QUOTA_BYTES } from '../../src/services/space/space-quota'
import { SPACE_TASK_JOB } from '../../src/services/space/space-task-runner'
import { deviceRow, instanceRow, runningPhones, settle } from '../helpers/fleet'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { DeviceSpace, SpaceInfo, SpaceTask } from '../../src/contract/space'

/** Backups take 2× the sandbox delay, restores 3×. */
const RESTORE_MS = 3 * 3000

async function setup(t: TestContext, phones = 2) {
  // A fixed random: every backup of a fresh phone has the same size (1,250 MB), nothing fails.
  const ctx = await buildTestApp(t, { sandboxSupplierRandom: () => 0.5 })
  const me = await loginWithSms(ctx, '13100000001')
  const ids = await runningPhones(ctx, me.userId, phones)
  return { ctx, me, ids }
}

const backup = (ctx: TestApp, me: Session, deviceId: number) =>
  post<SpaceTask>(ctx.app, '/space/backup', { deviceId }, me)

async function backedUp(ctx: TestApp, me: Session, deviceId: number) {
  const started = await backup(ctx, me, deviceId)
  assert.equal(started.code, 200, started.msg)
  assert.equal(started.data.status, 'running')
  await settle(ctx, 2 * 3000)
  const done = await get<SpaceTask>(ctx.app, '/space/task', me, { id: String(started.data.id) })
  assert.equal(done.data.status, 'done')
  return done.data
}

test('a backup runs at the supplier, is stored, counts against the quota and shows in the history', async (t) => {
  const { ctx, me, ids } = await setup(t)
  const stored = await backedUp(ctx, me, ids[0])
  assert.equal(stored.sizeBytes, 1250 * 1024 * 1024)

  const info = await get<SpaceInfo>(ctx.app, '/space/info', me)
  assert.equal(info.data.quotaBytes, BASE_QUOTA_BYTES)
  assert.equal(info.data.usedBytes, stored.sizeBytes)
  assert.deepEqual(
    info.data.devices.map((d) => [d.deviceId, d.backupCount]),
    [[ids[0], 1]],
  )
  const phone = await get<DeviceSpace>(ctx.app, '/space/device', me, { deviceId: String(ids[0]) })
  assert.deepEqual(
    phone.data.backups.map((b) => b.id),
    [stored.id],
  )
  assert.equal(phone.data.running, null)

  const history = await get<PagedData<SpaceTask>>(ctx.app, '/space/history', me, {
    page: '1',
    rows: '10',
  })
  assert.equal(history.data.total, 1)
  assert.equal(history.data.records[0].kind, 'backup')
  assert.equal(history.data.records[0].sizeBytes, stored.sizeBytes)
})

test('quota: a backup that cannot fit is refused (1026), one that turns out too big is discarded (1039)', async (t) => {
  const { ctx, me, ids } = await setup(t)
  await backedUp(ctx, me, ids[0])
  // 2 GB − 1,250 MB is less than this phone's last backup.
  const refused = await backup(ctx, me, ids[0])
  assert.equal(refused.code, ResultCode.OVER_CLOUD_SPACE)
  assert.equal((await ctx.database.db.select().from(spaceTasks)).length, 1, 'nothing recorded')

  // The other phone has no backup yet, so it starts; finished, it does not fit.
  const started = await backup(ctx, me, ids[1])
  assert.equal(started.code, 200, started.msg)
  await settle(ctx, 2 * 3000)
  const task = await get<SpaceTask>(ctx.app, '/space/task', me, { id: String(started.data.id) })
  assert.equal(task.data.status, 'failed')
  assert.equal(task.data.failCode, ResultCode.NOT_ENOUGH_CLOUD_SPACE)
  const info = await get<SpaceInfo>(ctx.app, '/space/info', me)
  assert.equal(info.data.usedBytes, 1250 * 1024 * 1024, 'the discarded backup takes no space')

  // A failed backup must be deleted before that phone is backed up again.
  assert.equal((await backup(ctx, me, ids[1])).code, ResultCode.BACKUP_FAILURE_EXISTS)
  const deleted = await post<null>(
    ctx.app,
    '/space/deleteBackup',
    { backupId: started.data.id },
    me,
  )
  assert.equal(deleted.code, 200, deleted.msg)
  assert.equal((await backup(ctx, me, ids[1])).code, 200)
})

test('a supplier failure ends the backup with 1027 and its reason', async (t) => {
  const { ctx, me, ids } = await setup(t, 1)
  const device = await deviceRow(ctx, ids[0])
  await ctx.database.db
    .update(sandboxInstances)
    .set({ name: '测试#fail' })
    .where(eq(sandboxInstances.id, device.supplierInstanceId!))
  const started = await backup(ctx, me, ids[0])
  await settle(ctx, 2 * 3000)
  const task = await get<SpaceTask>(ctx.app, '/space/task', me, { id: String(started.data.id) })
  assert.equal(task.data.status, 'failed')
  assert.equal(task.data.failCode, ResultCode.BACKUP_FAILED)
  assert.match(task.data.failReason!, /备份失败/)
})

test('a backup the supplier fails to delete answers 1082 and stays listed', async (t) => {
  const { ctx, me, ids } = await setup(t, 1)
  const stored = await backedUp(ctx, me, ids[0])
  const device = await deviceRow(ctx, ids[0])
  const rename = (name: string) =>
    ctx.database.db
      .update(sandboxInstances)
      .set({ name })
      .where(eq(sandboxInstances.id, device.supplierInstanceId!))
  await rename('测试#fail')
  const failed = await post<null>(ctx.app, '/space/deleteBackup', { backupId: stored.id }, me)
  assert.deepEqual([failed.code, failed.msg], [ResultCode.DELETE_ERROR, '删除失败，请稍后重试'])
  const [row] = await ctx.database.db.select().from(spaceTasks).where(eq(spaceTasks.id, stored.id))
  assert.equal(row.deletedAt, null, 'still listed: the supplier still holds it')
  await rename('测试')
  const again = await post<null>(ctx.app, '/space/deleteBackup', { backupId: stored.id }, me)
  assert.equal(again.code, 200, again.msg)
})

test('one task at a time per phone, and busy backups cannot be deleted', async (t) => {
  const { ctx, me, ids } = await setup(t)
  const stored = await backedUp(ctx, me, ids[0])
  const running = await backup(ctx, me, ids[1])
  assert.equal(running.code, 200)
  assert.equal((await backup(ctx, me, ids[1])).code, ResultCode.BACKUP_IN_PROGRESS)
  const onto = await post<SpaceTask>(
    ctx.app,
    '/space/restore',
    { backupId: stored.id, deviceId: ids[1] },
    me,
  )
  assert.equal(onto.code, ResultCode.BACKUP_IN_PROGRESS)
  const del = await post<null>(ctx.app, '/space/deleteBackup', { backupId: running.data.id }, me)
  assert.equal(del.code, ResultCode.BACKUP_IN_PROGRESS)

  const restoring = await post<SpaceTask>(
    ctx.app,
    '/space/restore',
    { backupId: stored.id, deviceId: ids[0] },
    me,
  )
  assert.equal(restoring.code, 200, restoring.msg)
  assert.equal((await backup(ctx, me, ids[0])).code, ResultCode.RECOVERING)
  const again = await post<SpaceTask>(
    ctx.app,
    '/space/restore',
    { backupId: stored.id, deviceId: ids[0] },
    me,
  )
  assert.equal(again.code, ResultCode.RECOVERING)
  const inUse = await post<null>(ctx.app, '/space/deleteBackup', { backupId: stored.id }, me)
  assert.equal(inUse.code, ResultCode.IN_BACKUP_OR_RECOVERY)
  const running2 = await ctx.database.db
    .select()
    .from(spaceTasks)
    .where(eq(spaceTasks.status, 'running'))
  assert.equal(running2.length, 2)
})

test('a restore brings the backed-up apps back; it needs an idle phone of the same user', async (t) => {
  const { ctx, me, ids } = await setup(t)
  const stored = await backedUp(ctx, me, ids[0])
  const device = await deviceRow(ctx, ids[0])
  const instanceId = device.supplierInstanceId!
  const before = (await instanceRow(ctx, instanceId)).apps
  await ctx.database.db
    .update(sandboxInstances)
    .set({ apps: before.slice(1) })
    .where(eq(sandboxInstances.id, instanceId))

  // Someone else: cannot restore my backup, nor restore onto my phone.
  const other = await loginWithSms(ctx, '13100000002')
  const [theirs] = await runningPhones(ctx, other.userId, 1)
  const mine = await post<SpaceTask>(
    ctx.app,
    '/space/restore',
    { backupId: stored.id, deviceId: theirs },
    other,
  )
  assert.equal(mine.code, ResultCode.TASK_NOT_EXIST)
  const ontoTheirs = await post<SpaceTask>(
    ctx.app,
    '/space/restore',
    { backupId: stored.id, deviceId: theirs },
    me,
  )
  assert.equal(ontoTheirs.code, ResultCode.GET_DEVICE_FAILED)
  const peek = await get<SpaceTask>(ctx.app, '/space/task', other, { id: String(stored.id) })
  assert.equal(peek.code, ResultCode.TASK_NOT_EXIST)
  const theirDelete = await post<null>(
    ctx.app,
    '/space/deleteBackup',
    { backupId: stored.id },
    other,
  )
  assert.equal(theirDelete.code, ResultCode.TASK_NOT_EXIST)

  // A rebooting phone cannot be shut down for a restore.
  await ctx.database.db.update(devices).set({ status: 4 }).where(eq(devices.id, ids[1]))
  const busy = await post<SpaceTask>(
    ctx.app,
    '/space/restore',
    { backupId: stored.id, deviceId: ids[1] },
    me,
  )
  assert.equal(busy.code, ResultCode.DEVICE_NOT_SHUT_DOWN)
  await ctx.database.db.update(devices).set({ status: 1 }).where(eq(devices.id, ids[1]))

  const restoring = await post<SpaceTask>(
    ctx.app,
    '/space/restore',
    { backupId: stored.id, deviceId: ids[0] },
    me,
  )
  assert.equal(restoring.code, 200, restoring.msg)
  await settle(ctx, RESTORE_MS)
  const done = await get<SpaceTask>(ctx.app, '/space/task', me, { id: String(restoring.data.id) })
  assert.equal(done.data.status, 'done')
  assert.equal(done.data.backupId, stored.id)
  assert.deepEqual((await instanceRow(ctx, instanceId)).apps, before)

  const history = await get<PagedData<SpaceTask>>(ctx.app, '/space/history', me, {
    page: '1',
    rows: '1',
  })
  assert.equal(history.data.total, 2)
  assert.equal(history.data.totalPage, 2)
  assert.equal(history.data.records[0].kind, 'restore', 'newest first')
  const restores = await get<PagedData<SpaceTask>>(ctx.app, '/space/history', me, {
    kind: 'restore',
  })
  assert.equal(restores.data.total, 1)
  assert.equal(
    (await get<SpaceTask>(ctx.app, '/space/task', me, { id: '999' })).code,
    ResultCode.TASK_NOT_EXIST,
  )
})

test('a task survives a crash: after the lease it resumes; one not handed over within 30 min is interrupted (1072)', async (t) => {
  const { ctx, me, ids } = await setup(t)
  const crashed = async () => {
    // The process died while running the job: its row stays 'running' under a lease.
    await ctx.database.db
      .update(jobs)
      .set({ status: 'running', lockedUntil: new Date(ctx.clock.now().getTime() + 5 * 60_000) })
      .where(eq(jobs.kind, SPACE_TASK_JOB))
  }
  const resumed = await backup(ctx, me, ids[0])
  await ctx.app.jobs.runDue() // handed to the supplier
  await crashed()
  ctx.clock.advance(60_000)
  await ctx.app.jobs.runDue()
  let task = await get<SpaceTask>(ctx.app, '/space/task', me, { id: String(resumed.data.id) })
  assert.equal(task.data.status, 'running', 'still leased to the dead process')
  ctx.clock.advance(5 * 60_000)
  await ctx.app.jobs.runDue()
  task = await get<SpaceTask>(ctx.app, '/space/task', me, { id: String(resumed.data.id) })
  assert.equal(task.data.status, 'done')
  assert.ok(task.data.sizeBytes > 0)

  const cut = await backup(ctx, me, ids[1])
  await crashed() // before the supplier was asked
  ctx.clock.advance(31 * 60_000)
  await ctx.app.jobs.runDue()
  task = await get<SpaceTask>(ctx.app, '/space/task', me, { id: String(cut.data.id) })
  assert.equal(task.data.status, 'interrupted')
  assert.equal(task.data.failCode, ResultCode.TASK_INTERRUPTED)
  // An interrupted backup blocks the next one until deleted, like a failed one.
  assert.equal((await backup(ctx, me, ids[1])).code, ResultCode.BACKUP_FAILURE_EXISTS)
})

test('bad input changes nothing', async (t) => {
  const { ctx, me } = await setup(t, 1)
  assert.equal((await backup(ctx, me, 99999)).code, ResultCode.GET_DEVICE_FAILED)
  const bad = await post<SpaceTask>(ctx.app, '/space/backup', { deviceId: 'x' }, me)
  assert.notEqual(bad.code, 200)
  const gone = await post<null>(ctx.app, '/space/deleteBackup', { backupId: 12345 }, me)
  assert.equal(gone.code, ResultCode.TASK_NOT_EXIST)
  assert.equal((await ctx.database.db.select().from(spaceTasks)).length, 0)
})

test('concurrent backups of one phone start exactly one task', async (t) => {
  const { ctx, me, ids } = await setup(t, 1)
  const replies = await Promise.all(Array.from({ length: 5 }, () => backup(ctx, me, ids[0])))
  assert.equal(replies.filter((reply) => reply.code === 200).length, 1)
  for (const reply of replies.filter((r) => r.code !== 200)) {
    assert.ok(
      [ResultCode.BACKUP_IN_PROGRESS, ResultCode.IN_BACKUP_OR_RECOVERY].includes(
        reply.code as never,
      ),
      reply.msg,
    )
  }
  assert.equal((await ctx.database.db.select().from(spaceTasks)).length, 1)
})
