import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { jobs, smsCodes } from '../../src/db/schema'
import { JobScheduler, type JobDefinition } from '../../src/jobs/scheduler'
import { buildTestApp, loginWithSms, post } from '../helpers/test-app'

test('the purge job deletes old SMS codes and dead tokens and reschedules itself', async (t) => {
  const ctx = await buildTestApp(t)
  const { app, clock, database } = ctx
  const session = await loginWithSms(ctx, '13000000001')
  await post(app, '/user/exitLogin', {}, session)
  await app.jobs.ensureRecurring()
  await app.jobs.ensureRecurring()
  // Other recurring jobs (device expiry, order timeouts) have their own rows beside this one.
  const purgeRows = () => database.db.select().from(jobs).where(eq(jobs.kind, 'purge-expired'))
  assert.equal((await purgeRows()).length, 1, 'one row per recurring job, however often ensured')

  assert.ok((await app.jobs.runDue()) >= 1)
  assert.equal((await database.db.select().from(smsCodes)).length, 1, 'a fresh code is kept')
  assert.equal(await app.jobs.runDue(), 0, 'not due again yet')

  clock.advance(3 * 86_400_000)
  assert.ok((await app.jobs.runDue()) >= 1)
  assert.equal((await database.db.select().from(smsCodes)).length, 0)
  const [row] = await purgeRows()
  assert.equal(row.status, 'pending')
  assert.equal(row.runAt.getTime(), clock.now().getTime() + 60 * 60_000)

  // finished jobs go after a week; a failed one stays for an operator
  const old = new Date(clock.now().getTime() - 8 * 86_400_000)
  const recent = new Date(clock.now().getTime() - 86_400_000)
  const oneOff = (status: string, runAt: Date) => ({
    kind: 'sync-device',
    status,
    runAt,
    createdAt: runAt,
  })
  await database.db
    .insert(jobs)
    .values([oneOff('done', old), oneOff('done', recent), oneOff('failed', old)])
  clock.advance(60 * 60_000)
  assert.ok((await app.jobs.runDue()) >= 1)
  const left = await database.db.select().from(jobs).where(eq(jobs.kind, 'sync-device'))
  assert.deepEqual(left.map((j) => j.status).sort(), ['done', 'failed'])
  assert.equal(left.find((j) => j.status === 'done')!.runAt.getTime(), recent.getTime())
})

test('jobs retry after failure and are picked up again after a crash', async (t) => {
  const { app, clock, database } = await buildTestApp(t)
  const calls: string[] = []
  const flaky: JobDefinition = {
    kind: 'flaky',
    maxAttempts: 2,
    async run(payload) {
      calls.push(String(payload.name))
      throw new Error('supplier timeout')
    },
  }
  const scheduler = new JobScheduler(database.db, clock, app.log, [flaky])
  await scheduler.enqueue('flaky', { name: 'a' }, { uniqueKey: 'flaky:a' })
  await scheduler.enqueue('flaky', { name: 'a' }, { uniqueKey: 'flaky:a' })
  assert.equal(await scheduler.runDue(), 1, 'the unique key de-duplicates')
  let [row] = await database.db.select().from(jobs).where(eq(jobs.kind, 'flaky'))
  assert.equal(row.status, 'pending')
  assert.equal(row.lastError, 'supplier timeout')
  clock.advance(31_000)
  assert.equal(await scheduler.runDue(), 1)
  ;[row] = await database.db.select().from(jobs).where(eq(jobs.kind, 'flaky'))
  assert.equal(row.status, 'failed', 'gives up after maxAttempts')
  assert.deepEqual(calls, ['a', 'a'])

  // A process that died mid-job leaves it 'running'; once its lease is over, another instance takes it.
  const done: string[] = []
  const steady = new JobScheduler(database.db, clock, app.log, [
    { kind: 'steady', run: async (payload) => void done.push(String(payload.n)) },
  ])
  await database.db.insert(jobs).values({
    kind: 'steady',
    payload: { n: 1 },
    status: 'running',
    runAt: clock.now(),
    lockedUntil: new Date(clock.now().getTime() + 60_000),
    createdAt: clock.now(),
  })
  assert.equal(await steady.runDue(), 0, 'still leased')
  clock.advance(61_000)
  assert.equal(await steady.runDue(), 1)
  assert.deepEqual(done, ['1'])
})
