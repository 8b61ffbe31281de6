/**
 * The scheduler's claim: one statement takes the earliest pending job and the earliest one
 * whose lease ran out; runDue(limit) never runs more than `limit` jobs, so runDue(1) runs one at a time.
 * The lease: kept by the heartbeat while a job outlasts it, and once taken over, no longer its old
 * holder's to start or end.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { jobs } from '../../src/db/schema'
import { systemClock } from '../../src/clock'
import { JobScheduler, type JobDefinition } from '../../src/jobs/scheduler'
import { buildTestApp } from '../helpers/test-app'

test('runDue(1) runs one job a call: pending ones first, then one whose lease ran out', async (t) => {
  const { app, clock, database } = await buildTestApp(t)
  const ran: string[] = []
  const scheduler = new JobScheduler(database.db, clock, app.log, [
    {
      kind: 'claim-probe',
      maxAttempts: 3,
      async run(payload) {
        ran.push(String(payload.name))
      },
    },
  ])
  const now = clock.now()
  await database.db.insert(jobs).values([
    {
      kind: 'claim-probe',
      payload: { name: 'lapsed' },
      runAt: new Date(now.getTime() - 60_000),
      createdAt: now,
      status: 'running',
      attempts: 1,
      lockedUntil: new Date(now.getTime() - 1),
    },
    { kind: 'claim-probe', payload: { name: 'pending' }, runAt: now, createdAt: now },
    {
      kind: 'claim-probe',
      payload: { name: 'held' },
      runAt: now,
      createdAt: now,
      status: 'running',
      attempts: 1,
      lockedUntil: new Date(now.getTime() + 60_000),
    },
  ])
  assert.equal(await scheduler.runDue(1), 1)
  assert.deepEqual(ran, ['pending'])
  assert.equal(await scheduler.runDue(1), 1)
  assert.deepEqual(ran, ['pending', 'lapsed'])
  assert.equal(await scheduler.runDue(1), 0, 'a job whose lease runs is nobody else’s')
  const rows = await database.db.select().from(jobs).where(eq(jobs.kind, 'claim-probe'))
  const byName = Object.fromEntries(
    rows.map((row) => [(row.payload as { name: string }).name, row]),
  )
  assert.equal(byName.pending.status, 'done')
  assert.equal(byName.pending.attempts, 1)
  assert.equal(byName.lapsed.status, 'done')
  assert.equal(byName.lapsed.attempts, 2, 'claimed again once')
  assert.equal(byName.held.status, 'running')
})

test('a poll drains a backlog run after run, and ends at the first run short of a batch', async (t) => {
  const { app, clock, database } = await buildTestApp(t)
  let ran = 0
  // what waits for the event loop (a request) has had its turn by the time a later run's jobs run
  let turn = false
  const sawTurn: boolean[] = []
  const scheduler = new JobScheduler(database.db, clock, app.log, [
    {
      kind: 'backlog-probe',
      async run() {
        ran++
        sawTurn.push(turn)
      },
    },
  ])
  const now = clock.now()
  // a studio's renewal leaves one sync job a phone: more than a run's batch of them
  await database.db.insert(jobs).values(
    Array.from({ length: 25 }, (_, i) => ({
      kind: 'backlog-probe',
      payload: { i },
      runAt: now,
      createdAt: now,
    })),
  )
  setImmediate(() => (turn = true))
  assert.equal(await scheduler.poll(10), 25, 'three runs in one poll: 10, 10 and 5')
  assert.equal(ran, 25)
  assert.ok(sawTurn.slice(10).every(Boolean), 'the event loop had a turn between runs')
  const left = await database.db.select().from(jobs).where(eq(jobs.kind, 'backlog-probe'))
  assert.ok(left.every((row) => row.status === 'done'))
  assert.equal(await scheduler.poll(10), 0, 'nothing due: one empty run')
})

test('a stopped scheduler ends its poll after the run under way', async (t) => {
  const { app, clock, database } = await buildTestApp(t)
  let ran = 0
  let scheduler: JobScheduler | null = null
  scheduler = new JobScheduler(database.db, clock, app.log, [
    {
      kind: 'stop-probe',
      async run() {
        ran++
        if (ran === 1) void scheduler!.stop()
      },
    },
  ])
  const now = clock.now()
  await database.db.insert(jobs).values(
    Array.from({ length: 12 }, (_, i) => ({
      kind: 'stop-probe',
      payload: { i },
      runAt: now,
      createdAt: now,
    })),
  )
  assert.equal(await scheduler.poll(4), 4, 'the run under way ends, no other starts')
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('a job that outlasts its lease keeps it while its process lives: another scheduler polling all along never takes it', async (t) => {
  const { app, database } = await buildTestApp(t)
  const lease = { leaseMs: 300, heartbeatMs: 100 }
  const runs: string[] = []
  const slow = (name: string): JobDefinition => ({
    kind: 'slow-probe',
    maxAttempts: 3,
    async run() {
      runs.push(name)
      await sleep(4 * lease.leaseMs)
    },
  })
  // real time: the lease runs out by the wall clock unless the heartbeat extends it
  const a = new JobScheduler(database.db, systemClock, app.log, [slow('a')], lease)
  const b = new JobScheduler(database.db, systemClock, app.log, [slow('b')], lease)
  const now = new Date()
  await database.db.insert(jobs).values({ kind: 'slow-probe', runAt: now, createdAt: now })
  const running = a.runDue(1)
  let tookOver = 0
  const until = Date.now() + 5 * lease.leaseMs
  while (Date.now() < until) {
    tookOver += await b.runDue(1)
    await sleep(20)
  }
  assert.equal(await running, 1)
  assert.equal(tookOver, 0, 'the other scheduler found nothing to take')
  assert.deepEqual(runs, ['a'])
  const [row] = await database.db.select().from(jobs).where(eq(jobs.kind, 'slow-probe'))
  assert.deepEqual([row.status, row.attempts, row.leaseToken], ['done', 1, null])
})

test('a holder stalled past its lease inside a job starts nothing else it lost, and its end writes nothing over the new holder’s', async (t) => {
  const { app, clock, database } = await buildTestApp(t)
  // beats far apart: only the check before each job extends the lease (the heartbeat is late)
  const lease = { leaseMs: 1_000, heartbeatMs: 60_000 }
  const runs: string[] = []
  const later = new Date(clock.now().getTime() + 3_600_000)
  let b: JobScheduler | null = null
  const a = new JobScheduler(
    database.db,
    clock,
    app.log,
    [
      {
        kind: 'stall-probe',
        async run(payload) {
          runs.push(`a:${String(payload.name)}`)
          if (payload.name !== 'first') return
          // this process stalls past its lease: meanwhile another takes everything it held
          clock.advance(2 * lease.leaseMs)
          assert.equal(await b!.runDue(2), 2)
        },
      },
    ],
    lease,
  )
  b = new JobScheduler(
    database.db,
    clock,
    app.log,
    [
      {
        kind: 'stall-probe',
        async run(payload) {
          runs.push(`b:${String(payload.name)}`)
          // the new holder asks to run it again later: what a's end would have overwritten
          return payload.name === 'first' ? { rerunAt: later } : undefined
        },
      },
    ],
    lease,
  )
  const now = clock.now()
  await database.db.insert(jobs).values([
    {
      kind: 'stall-probe',
      payload: { name: 'first' },
      runAt: new Date(now.getTime() - 2),
      createdAt: now,
    },
    // claimed by a process that died: running, its lease over
    {
      kind: 'stall-probe',
      payload: { name: 'second' },
      runAt: new Date(now.getTime() - 1),
      createdAt: now,
      status: 'running',
      attempts: 1,
      lockedUntil: new Date(now.getTime() - 1),
    },
  ])
  // a claims both at once (the pending one and the lapsed one) and runs the first
  assert.equal(await a.runDue(2), 1, 'the second was no longer a’s to start')
  // a stall inside a job cannot be undone: jobs are written to be run again (fulfil-order locks its order)
  assert.deepEqual(runs, ['a:first', 'b:first', 'b:second'])
  const rows = await database.db.select().from(jobs).where(eq(jobs.kind, 'stall-probe'))
  const byName = Object.fromEntries(
    rows.map((row) => [(row.payload as { name: string }).name, row]),
  )
  assert.deepEqual(
    [byName.first.status, byName.first.runAt.getTime(), byName.first.leaseToken],
    ['pending', later.getTime(), null],
    'as b left it, not done by a',
  )
  // claimed by the dead process, by a, then by b: run once
  assert.deepEqual([byName.second.status, byName.second.attempts], ['done', 3])
})
