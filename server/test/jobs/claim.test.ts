/**
 * The scheduler's claim (issue 29): one statement takes the earliest pending job and the earliest one
 * whose lease ran out; runDue(limit) never runs more than `limit` jobs, so runDue(1) runs one at a time.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { jobs } from '../../src/db/schema'
import { JobScheduler } from '../../src/jobs/scheduler'
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
