/**
 * Two server instances on one PostgreSQL (CI's PostgreSQL pass; skipped on the embedded database, which
 * one process owns): two job schedulers, each on its own connection pool, drain 200 jobs at the same
 * time. Every job runs exactly once, and both instances take part, also when every job outlasts its
 * lease (the holder's heartbeat keeps it).
 */
import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import pg from 'pg'
import { eq } from 'drizzle-orm'
import { wrapPool } from '../../src/db/client'
import { jobs } from '../../src/db/schema'
import { systemClock, type Clock } from '../../src/clock'
import { JobScheduler, type JobDefinition, type LeaseTimes } from '../../src/jobs/scheduler'
import { buildTestApp } from '../helpers/test-app'

const JOBS = 200
const onPostgres = {
  skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)',
}

/**
 * Two instances' schedulers, each on its own pool, with a job kind that records which instance ran
 * each job (by its payload's n); `drain` runs both twice over at once until nothing is due.
 */
async function twoInstances(
  t: TestContext,
  options: { maxAttempts: number; holdMs?: number; lease?: LeaseTimes; clock?: Clock },
) {
  const built = await buildTestApp(t)
  const { app, database } = built
  const clock = options.clock ?? built.clock
  assert.equal(database.kind, 'postgres')
  const url = (database as { pool: pg.Pool }).pool.options.connectionString as string
  const second = wrapPool(new pg.Pool({ connectionString: url, max: 5 }))
  t.after(() => second.close())

  const runs = new Map<number, string[]>()
  const counting = (instance: string): JobDefinition => ({
    kind: 'count-run',
    maxAttempts: options.maxAttempts,
    async run(payload) {
      const n = Number(payload.n)
      runs.set(n, [...(runs.get(n) ?? []), instance])
      // hold the claim a moment
      if (options.holdMs) await new Promise((resolve) => setTimeout(resolve, options.holdMs))
    },
  })
  const a = new JobScheduler(database.db, clock, app.log, [counting('a')], options.lease)
  const b = new JobScheduler(second.db, clock, app.log, [counting('b')], options.lease)
  const drain = async (scheduler: JobScheduler, limit: number) => {
    while ((await scheduler.runDue(limit)) > 0) {
      /* until nothing is due */
    }
  }
  return {
    clock,
    db: database.db,
    runs,
    drain: (limit: number) =>
      Promise.all([drain(a, limit), drain(b, limit), drain(a, limit), drain(b, limit)]),
  }
}

test('two instances on one PostgreSQL: every job runs once', onPostgres, async (t) => {
  const { clock, db, runs, drain } = await twoInstances(t, { maxAttempts: 1, holdMs: 2 })
  await db.insert(jobs).values(
    Array.from({ length: JOBS }, (_, n) => ({
      kind: 'count-run',
      payload: { n },
      runAt: clock.now(),
      createdAt: clock.now(),
    })),
  )
  await drain(10)

  assert.equal(runs.size, JOBS, 'every job ran')
  const twice = [...runs].filter(([, by]) => by.length > 1)
  assert.deepEqual(twice, [], 'no job ran twice')
  const byA = [...runs.values()].filter((by) => by[0] === 'a').length
  assert.ok(byA > 0 && byA < JOBS, `both instances ran jobs (a: ${byA}, b: ${JOBS - byA})`)
})

test(
  'two instances on one PostgreSQL: pending jobs and jobs whose lease ran out are each claimed once',
  onPostgres,
  async (t) => {
    const { clock, db, runs, drain } = await twoInstances(t, { maxAttempts: 3 })
    const now = clock.now()
    const lapsed = new Date(now.getTime() - 1)
    // every fifth job was claimed by a process that died: running, its lease over
    await db.insert(jobs).values(
      Array.from({ length: JOBS }, (_, n) => ({
        kind: 'count-run',
        payload: { n },
        runAt: new Date(now.getTime() - (JOBS - n)),
        createdAt: now,
        ...(n % 5 === 0 ? { status: 'running', lockedUntil: lapsed, attempts: 1 } : {}),
      })),
    )
    await drain(7)

    assert.equal(runs.size, JOBS, 'every job ran')
    assert.deepEqual(
      [...runs].filter(([, by]) => by.length > 1),
      [],
      'no job ran twice',
    )
    const rows = await db.select().from(jobs).where(eq(jobs.kind, 'count-run'))
    assert.ok(rows.every((row) => row.status === 'done'))
    const attempts = rows.map(
      (row) => row.attempts - ((row.payload as { n: number }).n % 5 === 0 ? 1 : 0),
    )
    assert.ok(
      attempts.every((n) => n === 1),
      'each claimed exactly once',
    )
  },
)

test(
  'two instances on one PostgreSQL: jobs that each outlast their lease run once, never taken over while they run',
  onPostgres,
  async (t) => {
    // the wall clock, and a lease a third of each job's run: only the heartbeat keeps a job its holder's
    const { db, runs, drain } = await twoInstances(t, {
      maxAttempts: 3,
      holdMs: 600,
      lease: { leaseMs: 200, heartbeatMs: 60 },
      clock: systemClock,
    })
    const now = new Date()
    await db.insert(jobs).values(
      Array.from({ length: 12 }, (_, n) => ({
        kind: 'count-run',
        payload: { n },
        runAt: now,
        createdAt: now,
      })),
    )
    await drain(1)
    assert.equal(runs.size, 12, 'every job ran')
    assert.deepEqual(
      [...runs].filter(([, by]) => by.length > 1),
      [],
      'no job ran twice',
    )
    const rows = await db.select().from(jobs).where(eq(jobs.kind, 'count-run'))
    assert.ok(rows.every((row) => row.status === 'done' && row.attempts === 1))
  },
)
