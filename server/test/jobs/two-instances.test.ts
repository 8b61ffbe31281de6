/**
 * Two server instances on one PostgreSQL (CI's PostgreSQL pass; skipped on the embedded database, which
 * one process owns): two job schedulers, each on its own connection pool, drain 200 jobs at the same
 * time. Every job runs exactly once, and both instances take part.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import pg from 'pg'
import { eq } from 'drizzle-orm'
import { wrapPool } from '../../src/db/client'
import { jobs } from '../../src/db/schema'
import { JobScheduler, type JobDefinition } from '../../src/jobs/scheduler'
import { buildTestApp } from '../helpers/test-app'

const JOBS = 200

test(
  'two instances on one PostgreSQL: every job runs once',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' },
  async (t) => {
    const { app, clock, database } = await buildTestApp(t)
    assert.equal(database.kind, 'postgres')
    const url = (database as { pool: pg.Pool }).pool.options.connectionString as string
    const second = wrapPool(new pg.Pool({ connectionString: url, max: 5 }))
    t.after(() => second.close())

    const runs = new Map<number, string[]>()
    const counting = (instance: string): JobDefinition => ({
      kind: 'count-run',
      maxAttempts: 1,
      async run(payload) {
        const n = Number(payload.n)
        runs.set(n, [...(runs.get(n) ?? []), instance])
        await new Promise((resolve) => setTimeout(resolve, 2)) // hold the claim a moment
      },
    })
    const a = new JobScheduler(database.db, clock, app.log, [counting('a')])
    const b = new JobScheduler(second.db, clock, app.log, [counting('b')])
    await database.db.insert(jobs).values(
      Array.from({ length: JOBS }, (_, n) => ({
        kind: 'count-run',
        payload: { n },
        runAt: clock.now(),
        createdAt: clock.now(),
      })),
    )
    const drain = async (scheduler: JobScheduler) => {
      while ((await scheduler.runDue(10)) > 0) {
        /* until nothing is due */
      }
    }
    await Promise.all([drain(a), drain(b), drain(a), drain(b)])

    assert.equal(runs.size, JOBS, 'every job ran')
    const twice = [...runs].filter(([, by]) => by.length > 1)
    assert.deepEqual(twice, [], 'no job ran twice')
    const byA = [...runs.values()].filter((by) => by[0] === 'a').length
    assert.ok(byA > 0 && byA < JOBS, `both instances ran jobs (a: ${byA}, b: ${JOBS - byA})`)
  },
)

test(
  'two instances on one PostgreSQL: pending jobs and jobs whose lease ran out are each claimed once',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' },
  async (t) => {
    const { app, clock, database } = await buildTestApp(t)
    assert.equal(database.kind, 'postgres')
    const url = (database as { pool: pg.Pool }).pool.options.connectionString as string
    const second = wrapPool(new pg.Pool({ connectionString: url, max: 5 }))
    t.after(() => second.close())

    const runs = new Map<number, string[]>()
    const counting = (instance: string): JobDefinition => ({
      kind: 'count-run',
      maxAttempts: 3,
      async run(payload) {
        const n = Number(payload.n)
        runs.set(n, [...(runs.get(n) ?? []), instance])
      },
    })
    const a = new JobScheduler(database.db, clock, app.log, [counting('a')])
    const b = new JobScheduler(second.db, clock, app.log, [counting('b')])
    const now = clock.now()
    const lapsed = new Date(now.getTime() - 1)
    // every fifth job was claimed by a process that died: running, its lease over
    await database.db.insert(jobs).values(
      Array.from({ length: JOBS }, (_, n) => ({
        kind: 'count-run',
        payload: { n },
        runAt: new Date(now.getTime() - (JOBS - n)),
        createdAt: now,
        ...(n % 5 === 0 ? { status: 'running', lockedUntil: lapsed, attempts: 1 } : {}),
      })),
    )
    const drain = async (scheduler: JobScheduler) => {
      while ((await scheduler.runDue(7)) > 0) {
        /* until nothing is due */
      }
    }
    await Promise.all([drain(a), drain(b), drain(a), drain(b)])

    assert.equal(runs.size, JOBS, 'every job ran')
    assert.deepEqual(
      [...runs].filter(([, by]) => by.length > 1),
      [],
      'no job ran twice',
    )
    const rows = await database.db.select().from(jobs).where(eq(jobs.kind, 'count-run'))
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
