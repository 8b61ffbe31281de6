/**
 * An expired phone's instance stops running: expire-devices suspends it at the supplier
 * once the expiry committed, a renewal starts it again, and the interleavings an unlucky user meets:
 * a renewal racing the stop, a stop the supplier refused, a process that died between the expiry and
 * the stop, the release of a stopped instance. On the sandbox supplier, as the real server runs it.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { DeviceCommand } from '#domain/enums'
import { ResultCode } from '#domain/result-codes'
import { SandboxSupplier } from '../../src/adapters/supplier/sandbox/sandbox-supplier'
import type { SuspendOutcome } from '../../src/adapters/supplier/supplier-adapter'
import type { Clock } from '../../src/clock'
import { jobs } from '../../src/db/schema'
import { SUSPEND_RECHECK_MS } from '../../src/jobs/expire-devices'
import type { CommandResult } from '../../src/contract/device'
import { DAY_MS, deviceRow, instanceRow, runningPhones, SUPPLIER_DELAY_MS } from '../helpers/fleet'
import { createTestDatabase } from '../helpers/test-database'
import { buildTestApp, loginWithSms, post, type TestApp } from '../helpers/test-app'

/** The sandbox supplier with hooks into suspend and resume, counting what it was asked. */
class HookedSandbox extends SandboxSupplier {
  /** Runs inside suspend, before the instances are stopped (what happens while the call is on its way). */
  beforeSuspend: (() => Promise<void>) | null = null
  /** The next n suspend calls fail every instance (the supplier refused). */
  refuseSuspends = 0
  /** The next n suspend calls throw (the supplier unreachable, or the process dying in the call). */
  throwSuspends = 0
  /** The next n resume calls throw. */
  refuseResumes = 0
  readonly suspended: string[][] = []
  readonly resumed: string[] = []

  override async suspend(ids: string[]) {
    const hook = this.beforeSuspend
    this.beforeSuspend = null
    if (hook) await hook()
    if (this.throwSuspends > 0) {
      this.throwSuspends -= 1
      throw new Error('sandbox supplier unreachable')
    }
    if (this.refuseSuspends > 0) {
      this.refuseSuspends -= 1
      return new Map<string, SuspendOutcome>(
        ids.map((id) => [id, { ok: false, error: new Error('refused') }]),
      )
    }
    this.suspended.push(ids)
    return super.suspend(ids)
  }

  override async resume(id: string) {
    if (this.refuseResumes > 0) {
      this.refuseResumes -= 1
      throw new Error('sandbox supplier unreachable')
    }
    this.resumed.push(id)
    return super.resume(id)
  }
}

type Database = Awaited<ReturnType<typeof createTestDatabase>>

async function setup(t: Parameters<typeof buildTestApp>[0], database?: Database) {
  const db = database ?? (await createTestDatabase())
  let ctx: TestApp | null = null
  const clock: Clock = { now: () => ctx!.clock.now() }
  const supplier = new HookedSandbox(db.db, clock, {
    delayMs: SUPPLIER_DELAY_MS,
    failureRate: 0,
  })
  ctx = await buildTestApp(t, { database: db, supplier })
  await ctx.app.jobs.ensureRecurring()
  return { ctx, supplier }
}

/** Moves the clock to `at` and runs expire-devices there (and whatever else is due). */
async function runExpiryAt(ctx: TestApp, at: number) {
  ctx.clock.advance(at - ctx.clock.now().getTime())
  await ctx.database.db
    .update(jobs)
    .set({ runAt: ctx.clock.now() })
    .where(eq(jobs.kind, 'expire-devices'))
  await ctx.app.jobs.runDue()
}

async function renew(ctx: TestApp, deviceId: number) {
  const newExpireAt = ctx.clock.now().getTime() + 30 * DAY_MS
  await ctx.database.db.transaction((tx) =>
    ctx.app.services.lifecycle.extendDevices(tx, [{ deviceId, newExpireAt }]),
  )
}

/** The phone's instance as the supplier answers it now (a boot whose time has come has ended). */
async function instanceOf(ctx: TestApp, deviceId: number) {
  const id = (await deviceRow(ctx, deviceId)).supplierInstanceId!
  await ctx.app.services.ctx.supplier.state(id)
  return instanceRow(ctx, id)
}

test('an expired phone stops at the supplier; a renewal starts it; the release deletes it stopped', async (t) => {
  const { ctx, supplier } = await setup(t)
  const me = await loginWithSms(ctx, '13300000101')
  const [lapsed, renewed] = await runningPhones(ctx, me.userId, 2, { days: 1 })
  const expireAt = (await deviceRow(ctx, lapsed)).expireAt.getTime()

  await runExpiryAt(ctx, expireAt - 1)
  assert.equal((await instanceOf(ctx, lapsed)).status, 'running', 'runs until its expiry')
  assert.equal(supplier.suspended.length, 0)

  await runExpiryAt(ctx, expireAt)
  assert.equal((await deviceRow(ctx, lapsed)).status, 2)
  assert.equal((await instanceOf(ctx, lapsed)).status, 'suspended')
  assert.equal((await instanceOf(ctx, renewed)).status, 'suspended')
  assert.equal(supplier.suspended.length, 1, 'both phones in one call')
  assert.equal(supplier.suspended[0].length, 2)
  const state = await supplier.state((await deviceRow(ctx, lapsed)).supplierInstanceId!)
  assert.equal(state?.status, 'suspended')
  // A stopped instance runs nothing, as a powered-off pod would.
  const refused = await supplier.command((await deviceRow(ctx, lapsed)).supplierInstanceId!, {
    command: DeviceCommand.CleanVm,
  })
  assert.deepEqual(refused, { ok: false, msg: '云手机未运行' })
  // The user is told the phone expired (the device's own refusal comes first).
  const command = await post<CommandResult>(
    ctx.app,
    '/device/command',
    { deviceId: lapsed, command: 'CleanVm' },
    me,
  )
  assert.equal(command.code, ResultCode.SHOW_ERROR_TIPS)
  assert.equal(command.msg, '云手机已到期，请续费后再操作')

  // Later runs do not ask again for what this process stopped.
  await runExpiryAt(ctx, expireAt + 30_000)
  assert.equal(supplier.suspended.length, 1)

  // Renewal: the renewal's sync job starts the instance; it boots and runs.
  await renew(ctx, renewed)
  await ctx.app.jobs.runDue()
  assert.deepEqual(supplier.resumed, [(await deviceRow(ctx, renewed)).supplierInstanceId])
  assert.equal((await instanceOf(ctx, renewed)).status, 'rebooting')
  ctx.clock.advance(SUPPLIER_DELAY_MS)
  await ctx.app.jobs.runDue()
  assert.equal((await instanceOf(ctx, renewed)).status, 'running')
  assert.equal((await deviceRow(ctx, renewed)).status, 1)

  // The stop's own sync job, two minutes on, leaves the expired phone stopped and the renewed running.
  await runExpiryAt(ctx, ctx.clock.now().getTime() + SUSPEND_RECHECK_MS)
  assert.equal((await instanceOf(ctx, lapsed)).status, 'suspended')
  assert.equal((await instanceOf(ctx, renewed)).status, 'running')

  // Release 2 h after expiry: the stopped instance is released like any other.
  await runExpiryAt(ctx, expireAt + 2 * 3600_000)
  const released = await deviceRow(ctx, lapsed)
  assert.equal(released.status, 3)
  assert.equal(released.supplierReleased, true)
  assert.equal((await instanceOf(ctx, lapsed)).status, 'released')
  assert.equal((await instanceOf(ctx, renewed)).status, 'running')
})

test('a renewal racing the stop: the phone ends running, whether its sync ran before the stop landed or not', async (t) => {
  const { ctx, supplier } = await setup(t)
  const me = await loginWithSms(ctx, '13300000102')
  const [first, second] = await runningPhones(ctx, me.userId, 2, { days: 1 })
  const expireAt = (await deviceRow(ctx, first)).expireAt.getTime()

  // The job read both phones expired; before its stop lands, the first is renewed and its sync job
  // runs to the end (the instance was still running, so it had nothing to start).
  supplier.beforeSuspend = async () => {
    await renew(ctx, first)
    await ctx.app.jobs.runDue()
  }
  await runExpiryAt(ctx, expireAt)
  assert.equal((await deviceRow(ctx, first)).status, 1, 'renewed')
  assert.equal(supplier.suspended[0].length, 2, 'the stop named it: it was expired when read')
  assert.deepEqual(supplier.resumed, [(await deviceRow(ctx, first)).supplierInstanceId])
  ctx.clock.advance(SUPPLIER_DELAY_MS)
  await ctx.app.jobs.runDue()
  assert.equal((await instanceOf(ctx, first)).status, 'running')
  assert.equal((await instanceOf(ctx, second)).status, 'suspended')

  // Again with the second phone, and the job's own start refused (or the process died before it):
  // the sync job the job enqueued before its stop starts it two minutes later.
  await ctx.database.db.transaction((tx) =>
    ctx.app.services.lifecycle.extendDevices(tx, [
      { deviceId: second, newExpireAt: ctx.clock.now().getTime() + 60_000 },
    ]),
  )
  await ctx.app.jobs.runDue()
  ctx.clock.advance(SUPPLIER_DELAY_MS)
  await ctx.app.jobs.runDue()
  assert.equal((await instanceOf(ctx, second)).status, 'running', 'renewed for a minute')
  const secondExpiry = (await deviceRow(ctx, second)).expireAt.getTime()
  supplier.refuseResumes = 1
  supplier.beforeSuspend = async () => {
    await renew(ctx, second)
    await ctx.app.jobs.runDue()
  }
  await runExpiryAt(ctx, secondExpiry)
  assert.equal((await deviceRow(ctx, second)).status, 1)
  assert.equal((await instanceOf(ctx, second)).status, 'suspended', 'off while rented, for now')
  await runExpiryAt(ctx, ctx.clock.now().getTime() + SUSPEND_RECHECK_MS)
  assert.equal((await instanceOf(ctx, second)).status, 'rebooting')
  ctx.clock.advance(SUPPLIER_DELAY_MS)
  await ctx.app.jobs.runDue()
  assert.equal((await instanceOf(ctx, second)).status, 'running')
  assert.equal((await deviceRow(ctx, second)).status, 1)
})

test('a stop the supplier refused or never answered: expiry still happens, the stop is sent on the next run', async (t) => {
  const { ctx, supplier } = await setup(t)
  const me = await loginWithSms(ctx, '13300000103')
  const [phone] = await runningPhones(ctx, me.userId, 1, { days: 1 })
  const expireAt = (await deviceRow(ctx, phone)).expireAt.getTime()

  supplier.refuseSuspends = 1
  await runExpiryAt(ctx, expireAt)
  assert.equal((await deviceRow(ctx, phone)).status, 2, 'expired all the same')
  assert.equal((await instanceOf(ctx, phone)).status, 'running')

  supplier.throwSuspends = 1
  await runExpiryAt(ctx, expireAt + 30_000)
  assert.equal((await instanceOf(ctx, phone)).status, 'running')
  const [job] = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, 'expire-devices'))
  assert.equal(job.lastError, null, 'a supplier that throws does not fail the run')

  await runExpiryAt(ctx, expireAt + 60_000)
  assert.equal((await instanceOf(ctx, phone)).status, 'suspended')
  assert.equal(supplier.suspended.length, 1)
})

test('a process that died between the expiry commit and the stop: the next process stops it', async (t) => {
  const database = await createTestDatabase()
  // The first process's app must not close the shared database when it ends.
  const first = await setup(t, { ...database, close: async () => {} })
  const me = await loginWithSms(first.ctx, '13300000104')
  const [phone] = await runningPhones(first.ctx, me.userId, 1, { days: 1 })
  const expireAt = (await deviceRow(first.ctx, phone)).expireAt.getTime()
  // It committed the expiry, then died in the supplier call: nothing of the stop was recorded.
  first.supplier.throwSuspends = 1
  await runExpiryAt(first.ctx, expireAt)
  assert.equal((await deviceRow(first.ctx, phone)).status, 2)
  assert.equal((await instanceOf(first.ctx, phone)).status, 'running')
  await first.ctx.app.close()

  const second = await setup(t, database)
  await runExpiryAt(second.ctx, expireAt + 30_000)
  assert.equal((await instanceOf(second.ctx, phone)).status, 'suspended')
  assert.equal(second.supplier.suspended.length, 1)
})
