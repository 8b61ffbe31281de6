/**
 * Jobs at scale, PostgreSQL only. Makes its own database `scale_jobs_bench` on the server of
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:55432/postgres) and drops it at the end.
 *
 *   node --import tsx bench/jobs-scale.ts                    # every part
 *   PARTS=queue node --import tsx bench/jobs-scale.ts        # queue | sync | expiry, comma separated
 *
 * 1. queue: QUEUE_JOBS (20,000) short jobs drained by one scheduler, then by two schedulers with their
 *    own connection pools (each its own process: bench/lib/drain-worker.ts), alternately, ROUNDS times;
 *    prints the rates and the ratio two : one (target ≥ 1.8) and checks every job ran exactly once.
 * 2. sync: the sync-device jobs of a STUDIO-phone studio (10,000) against the sandbox supplier, drained
 *    the way the server does (runDue every poll): time, jobs/s, the longest transaction.
 * 3. expiry: PHONES (1,000,000) phones over USERS (100,000) users expiring evenly over one day, the
 *    state seeded as if the jobs had kept up until START hours from the day's start (default -24: a day
 *    before the first expiry, so the window sees that day's reminders, expiries, stops and releases);
 *    then the clock moves HOURS (default 50) in steps of the job's period (30 s), polling the scheduler
 *    every 5 s as the server does. Prints per run: reminded / expired / stopped / released, the run's
 *    time, and at the end the longest run, the longest transaction (the longest any row lock was
 *    held), whether every run finished well inside its period (a third of it) and the backlog left.
 *
 * Times are this machine's (2 cores, shared): the queue part prints a ratio against its own baseline.
 */
import { fork } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { buildApp } from '../server/src/app'
import { testConfig } from '../server/test/helpers/test-config'
import { wrapPool, type Database } from '../server/src/db/client'
import { migrateDatabase } from '../server/src/db/migrate'
import { seedDatabase } from '../server/src/db/seed'
import { EXPIRE_JOB } from '../server/src/jobs/expire-devices'
import { jobDefinitions } from '../server/src/jobs'
import { JobScheduler, type JobDefinition } from '../server/src/jobs/scheduler'
import { SYNC_JOB } from '../server/src/services/devices/device-lifecycle'
import { timing, type Timing } from './lib/pg-timing'

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres'
const NAME = process.env.BENCH_DB ?? 'scale_jobs_bench'
/**
 * BENCH_SHORT=1 (scripts/bench-smoke.mjs): every part, each with a few hundred rows: 500 queued jobs
 * once, a 200-phone studio, 1,000 phones over 100 users with the clock over 3 h around the first expiry.
 */
const SHORT = process.env.BENCH_SHORT === '1'
const PARTS = (process.env.PARTS ?? 'queue,sync,expiry').split(',')
const QUEUE_JOBS = Number(process.env.QUEUE_JOBS ?? (SHORT ? 500 : 20_000))
/** How long each queued job waits on something remote, ms (several values: JOB_MS=0,5). */
const JOB_MS = (process.env.JOB_MS ?? '0,5').split(',').map(Number)
const ROUNDS = Number(process.env.ROUNDS ?? (SHORT ? 1 : 2))
const STUDIO = Number(process.env.STUDIO ?? (SHORT ? 200 : 10_000))
const PHONES = Number(process.env.PHONES ?? (SHORT ? 1_000 : 1_000_000))
const USERS = Number(process.env.USERS ?? (SHORT ? 100 : 100_000))
const START_H = Number(process.env.START ?? (SHORT ? -0.5 : -24))
const HOURS = Number(process.env.HOURS ?? (SHORT ? 3 : 50))
const PERIOD_MS = 30_000
const POLL_MS = 5_000
const HOUR = 3600_000
const DAY = 24 * HOUR
/** The day's start: phones expire evenly from here to a day later. */
const T0 = Date.parse('2026-06-01T00:00:00.000Z')

const url = (name: string) => {
  const u = new URL(SERVER)
  u.pathname = `/${name}`
  return u.toString()
}
const DB_URL = url(NAME)

async function admin<T>(work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: SERVER })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

class Clock {
  constructor(public ms: number) {}
  now() {
    return new Date(this.ms)
  }
}

const silentLog = {
  info() {},
  warn() {},
  error(...args: unknown[]) {
    console.error(...args)
  },
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return silentLog
  },
  level: 'error',
  silent() {},
} as never

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

async function makeDatabase(): Promise<Database> {
  await admin(async (client) => {
    await client.query(`drop database if exists ${NAME} with (force)`)
    await client.query(`create database ${NAME}`)
  })
  const database = wrapPool(new pg.Pool({ connectionString: DB_URL, max: 10 }))
  await migrateDatabase(database)
  await seedDatabase(database.db)
  return database
}

// --- 1. queue drain ----------------------------------------------------------------------------------

async function insertNoops(pool: pg.Pool, n: number, at: Date) {
  await pool.query(
    `insert into jobs (kind, payload, run_at, created_at)
     select 'bench-noop', jsonb_build_object('n', g), $2, $2 from generate_series(1, $1) g`,
    [n, at],
  )
}

/** Drains every due 'bench-noop' job with `instances` processes; returns jobs/s. */
async function drain(
  instances: number,
  at: Date,
  jobMs: number,
): Promise<{ rate: number; ms: number; cpuMsPerJob: number }> {
  const workers = Array.from({ length: instances }, () =>
    fork(path.join(__dirname, 'lib/drain-worker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        DRAIN_DATABASE_URL: DB_URL,
        DRAIN_AT: String(at.getTime()),
        DRAIN_JOB_MS: String(jobMs),
      },
    }),
  )
  // every worker connects first, then all start at once
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))))
  const t0 = performance.now()
  const done = workers.map(
    (w) =>
      new Promise<{ ran: number; cpuMs: number }>((resolve, reject) => {
        w.once('message', (m: { ran: number; cpuMs: number }) => resolve(m))
        w.once('exit', (code) => (code ? reject(new Error(`drain worker exit ${code}`)) : null))
      }),
  )
  for (const w of workers) w.send('go')
  const answers = await Promise.all(done)
  const ms = performance.now() - t0
  const ran = answers.reduce((a, b) => a + b.ran, 0)
  const cpuMs = answers.reduce((a, b) => a + b.cpuMs, 0)
  return { rate: (ran / ms) * 1000, ms, cpuMsPerJob: cpuMs / ran }
}

/** The machine's CPU idle time so far, in jiffies summed over its cores (Linux /proc/stat). */
function idleJiffies(): { idle: number; total: number } {
  const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n')
  const fields = cpu.split(/\s+/).slice(1).map(Number)
  return { idle: fields[3] + fields[4], total: fields.reduce((x, y) => x + (y || 0), 0) }
}

async function queuePart(database: Database) {
  const pool = (database as { pool: pg.Pool }).pool
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  for (const jobMs of JOB_MS) {
    console.log(
      `\n## Queue drain: ${fmt(QUEUE_JOBS)} jobs ${jobMs ? `waiting ${jobMs} ms each (a remote call)` : 'doing nothing'}, ` +
        `one instance vs two (processes, each its own pool)`,
    )
    const at = new Date(T0)
    const rates: { one: number[]; two: number[] } = { one: [], two: [] }
    for (let round = 0; round < ROUNDS; round++) {
      for (const instances of round % 2 === 0 ? [1, 2] : [2, 1]) {
        await pool.query(`delete from jobs where kind = 'bench-noop'`)
        await insertNoops(pool, QUEUE_JOBS, at)
        await pool.query('vacuum analyze jobs')
        const cpu0 = idleJiffies()
        const { rate, ms, cpuMsPerJob } = await drain(instances, at, jobMs)
        const cpu1 = idleJiffies()
        const idle = (cpu1.idle - cpu0.idle) / (cpu1.total - cpu0.total)
        const left = await pool.query(
          `select count(*) filter (where status <> 'done')::int as left,
                  count(*) filter (where attempts <> 1)::int as twice
           from jobs where kind = 'bench-noop'`,
        )
        const { left: notDone, twice } = left.rows[0] as { left: number; twice: number }
        console.log(
          `round ${round + 1}, ${instances} instance${instances > 1 ? 's' : ''}: ${fmt(ms)} ms, ${fmt(rate)} jobs/s, ` +
            `scheduler CPU ${fmt(cpuMsPerJob, 2)} ms/job, machine idle ${fmt(idle * 100)}%` +
            `${notDone ? `, ${notDone} NOT DONE` : ''}${twice ? `, ${twice} CLAIMED MORE THAN ONCE` : ', each claimed once'}`,
        )
        ;(instances === 1 ? rates.one : rates.two).push(rate)
      }
    }
    const one = median(rates.one)
    const two = median(rates.two)
    console.log(
      `queue (${jobMs} ms jobs): one instance ${fmt(one)} jobs/s, two ${fmt(two)} jobs/s, ` +
        `ratio ${fmt(two / one, 2)}× (target ≥ 1.8×)`,
    )
  }
  await pool.query(`delete from jobs where kind = 'bench-noop'`)
}

// --- shared: seed users, phones and their sandbox instances ------------------------------------------

async function seedFleet(
  pool: pg.Pool,
  opts: { users: number; phones: number; firstExpire: number; spanMs: number; stateAt: number },
) {
  const [good] = (
    await pool.query(
      `select g.id, g.level, g.android_version, g.image_type, i.zone_id
       from goods g join goods_inventory i on i.good_id = g.id order by g.id, i.zone_id limit 1`,
    )
  ).rows as {
    id: number
    level: number
    android_version: string
    image_type: number
    zone_id: number
  }[]
  const created = new Date(opts.firstExpire - 30 * DAY)
  const firstUser = (
    await pool.query(
      `insert into users (mobile_phone, invite_code, created_at)
       select '19' || lpad(g::text, 9, '0'), 'B' || g, $2 from generate_series(1, $1) g
       returning id`,
      [opts.users, created],
    )
  ).rows[0] as { id: number }
  const hasStopped = (
    await pool.query(
      `select 1 from information_schema.columns where table_name = 'devices' and column_name = 'stopped_for_expire_at'`,
    )
  ).rowCount
  // phone g expires at firstExpire + g·span/phones; its state is what the jobs would have made of it by
  // stateAt: released 2 h after expiry, expired (and stopped) at expiry, reminded a day before.
  await pool.query(
    `insert into devices (user_id, name, good_id, level, zone_id, android_version, image_type, status,
       supplier_instance_id, expire_at, released_at, supplier_released, reminded_for_expire_at,
       ${hasStopped ? 'stopped_for_expire_at,' : ''} created_at)
     select $1::int + (g % $2::int), '云手机' || g, $3, $4, $5, $6, $7,
       case when e <= $10::timestamptz - interval '2 hours' then 3 when e <= $10::timestamptz then 2 else 1 end,
       'bench-' || g, e,
       case when e <= $10::timestamptz - interval '2 hours' then e + interval '2 hours' end,
       e <= $10::timestamptz - interval '2 hours',
       case when e <= $10::timestamptz + interval '24 hours' then e end,
       ${hasStopped ? 'case when e <= $10::timestamptz then e end,' : ''}
       $11
     from (select g, date_trunc('milliseconds',
             $8::timestamptz + (g * $9::float8 / $12::float8) * interval '1 millisecond') as e
           from generate_series(0, $12::int - 1) g) s`,
    [
      firstUser.id,
      opts.users,
      good.id,
      good.level,
      good.zone_id,
      good.android_version,
      good.image_type,
      new Date(opts.firstExpire),
      opts.spanMs,
      new Date(opts.stateAt),
      created,
      opts.phones,
    ],
  )
  await pool.query(
    `insert into sandbox_supplier_instances (id, request_id, name, good_id, zone_id, status, expire_at,
       model, image_version, apps, hue, created_at, released_at)
     select supplier_instance_id, 'bench-req-' || id, name, good_id, zone_id,
       case status when 3 then 'released' when 2 then 'suspended' else 'running' end,
       expire_at, 'SM-G9910', 'v1', '[]'::jsonb, 0, created_at, released_at
     from devices where supplier_instance_id like 'bench-%'`,
  )
  await pool.query('vacuum analyze')
  return { firstUser: firstUser.id, good }
}

// --- 2. studio sync ----------------------------------------------------------------------------------

async function syncPart(database: Database, t: Timing) {
  const pool = (database as { pool: pg.Pool }).pool
  console.log(`\n## Studio sync: the sync-device jobs of one user's ${fmt(STUDIO)} phones`)
  const clock = new Clock(T0)
  const seeded = performance.now()
  const { firstUser } = await seedFleet(pool, {
    users: 1,
    phones: STUDIO,
    firstExpire: T0 + 30 * DAY,
    spanMs: 0,
    stateAt: T0,
  })
  console.log(`seeded in ${fmt(performance.now() - seeded)} ms`)
  // the studio renewed every phone: the supplier's expiry is a month behind, so each job renews
  await pool.query(
    `update sandbox_supplier_instances set expire_at = expire_at - interval '30 days'
     where id like 'bench-%'`,
  )
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-scale-'))
  const app = await buildApp({
    config: testConfig({ filesDir }),
    database,
    overrides: { clock, logger: false },
  })
  const ids = (
    await pool.query('select id, op_seq from devices where user_id = $1', [firstUser])
  ).rows.map((r: { id: number; op_seq: number }) => ({ deviceId: r.id, opSeq: r.op_seq }))
  const enqueued = performance.now()
  await app.services.lifecycle.enqueueSyncs(database.db, ids)
  const enqueueMs = performance.now() - enqueued
  const scheduler = new JobScheduler(
    database.db,
    clock,
    silentLog,
    jobDefinitions(database.db, app.services).filter((d) => d.kind === SYNC_JOB),
  )
  t.reset()
  const started = performance.now()
  let polls = 0
  let most = 0
  for (;;) {
    const p0 = performance.now()
    const ran = await scheduler.runDue()
    most = Math.max(most, performance.now() - p0)
    if (ran === 0) break
    polls++
  }
  const ms = performance.now() - started
  const renewed = (
    await pool.query(
      `select count(*)::int as n from sandbox_supplier_instances s join devices d on d.supplier_instance_id = s.id
       where d.user_id = $1 and s.expire_at = d.expire_at`,
      [firstUser],
    )
  ).rows[0] as { n: number }
  console.log(
    `enqueue ${fmt(ids.length)} jobs: ${fmt(enqueueMs)} ms (one insert); drained in ${fmt(ms)} ms ` +
      `(${fmt((ids.length / ms) * 1000)} jobs/s) over ${polls} polls of ≤ 100, longest poll ${fmt(most)} ms; ` +
      `renewed at the supplier ${fmt(renewed.n)} / ${fmt(ids.length)}; longest transaction ${fmt(t.longestTx, 1)} ms, ` +
      `longest statement ${fmt(t.longestStatement, 1)} ms`,
  )
  await app.close()
  fs.rmSync(filesDir, { recursive: true, force: true })
  await pool.query(`delete from jobs where kind = $1`, [SYNC_JOB])
  await pool.query(`delete from devices where user_id = $1`, [firstUser])
  await pool.query(`delete from sandbox_supplier_instances where id like 'bench-%'`)
  await pool.query(`delete from users where id = $1`, [firstUser])
}

// --- 3. a day of expiries ----------------------------------------------------------------------------

async function expiryPart(database: Database, t: Timing) {
  const pool = (database as { pool: pg.Pool }).pool
  const startAt = T0 + START_H * HOUR
  console.log(
    `\n## A day of expiries: ${fmt(PHONES)} phones over ${fmt(USERS)} users expiring evenly over 24 h; ` +
      `clock from day ${START_H >= 0 ? '+' : ''}${START_H} h for ${HOURS} h`,
  )
  const seeded = performance.now()
  await seedFleet(pool, {
    users: USERS,
    phones: PHONES,
    firstExpire: T0,
    spanMs: DAY,
    stateAt: startAt,
  })
  console.log(`seeded in ${fmt(performance.now() - seeded)} ms`)
  const clock = new Clock(startAt)
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-scale-'))
  const app = await buildApp({
    config: testConfig({ filesDir }),
    database,
    overrides: { clock, logger: false },
  })
  const runs: { at: number; ms: number; longestTx: number }[] = []
  const definitions = jobDefinitions(database.db, app.services).map((d): JobDefinition =>
    d.kind === EXPIRE_JOB
      ? {
          ...d,
          async run(payload, now) {
            t.reset()
            const r0 = performance.now()
            await d.run(payload, now)
            runs.push({ at: now.getTime(), ms: performance.now() - r0, longestTx: t.longestTx })
          },
        }
      : d,
  )
  const scheduler = new JobScheduler(database.db, clock, silentLog, definitions)
  await pool.query(`delete from jobs`)
  await scheduler.ensureRecurring()

  const counts = async () => {
    const row = (
      await pool.query(
        `select
           (select count(*) from messages where title = '云手机即将到期')::int as reminded,
           (select count(*) from messages where title = '云手机已到期')::int as expired,
           (select count(*) from jobs where kind = 'sync-device' and unique_key like '%suspended@%')::int as stopped,
           (select coalesce(sum(stock), 0) from goods_stock_slots)::int as stock`,
      )
    ).rows[0] as { reminded: number; expired: number; stopped: number; stock: number }
    return row
  }
  let last = await counts()
  const totals = { reminded: 0, expired: 0, stopped: 0, released: 0 }
  let worstLag = { expire: 0, release: 0 }
  const steps = Math.round((HOURS * HOUR) / PERIOD_MS)
  const wall = performance.now()
  for (let step = 0; step < steps; step++) {
    for (let poll = 0; poll < PERIOD_MS / POLL_MS; poll++) {
      clock.ms += POLL_MS
      await scheduler.runDue()
    }
    if ((step + 1) % 10 === 0 || step === steps - 1) {
      const now = await counts()
      const d = {
        reminded: now.reminded - last.reminded,
        expired: now.expired - last.expired,
        stopped: now.stopped - last.stopped,
        released: now.stock - last.stock,
      }
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += d[k]
      last = now
      const lag = (
        await pool.query(
          `select extract(epoch from $1::timestamptz - (select min(expire_at) from devices where status in (1, 4)))::float8 as expire,
                  extract(epoch from $1::timestamptz - interval '2 hours' - (select min(expire_at) from devices where status = 2))::float8 as release`,
          [clock.now()],
        )
      ).rows[0] as { expire: number | null; release: number | null }
      worstLag = {
        expire: Math.max(worstLag.expire, lag.expire ?? 0),
        release: Math.max(worstLag.release, lag.release ?? 0),
      }
      const recent = runs.slice(-10)
      if ((step + 1) % 120 === 0 || step === steps - 1 || process.env.VERBOSE) {
        console.log(
          `${new Date(clock.ms).toISOString().slice(5, 16)} last 10 runs: reminded ${d.reminded}, expired ${d.expired}, ` +
            `stopped ${d.stopped}, released ${d.released}; run ${fmt(Math.max(...recent.map((r) => r.ms)))} ms max; ` +
            `lag expire ${fmt(Math.max(0, lag.expire ?? 0))} s, release ${fmt(Math.max(0, lag.release ?? 0))} s ` +
            `(wall ${fmt((performance.now() - wall) / 1000)} s)`,
        )
      }
    }
  }
  const longest = runs.reduce((a, b) => (b.ms > a.ms ? b : a), runs[0])
  const longestTx = Math.max(...runs.map((r) => r.longestTx))
  const mean = runs.reduce((a, b) => a + b.ms, 0) / runs.length
  const backlog = (
    await pool.query(
      `select
         (select count(*) from devices where status in (1, 4) and expire_at <= $1)::int as to_expire,
         (select count(*) from devices where status = 2 and expire_at <= $1::timestamptz - interval '2 hours')::int as to_release,
         (select count(*) from devices where status = 3 and not supplier_released)::int as to_release_at_supplier,
         (select count(*) from devices where status in (1, 4) and expire_at > $1 and expire_at <= $1::timestamptz + interval '24 hours'
            and reminded_for_expire_at is distinct from expire_at)::int as to_remind,
         (select count(*) from sandbox_supplier_instances s join devices d on d.supplier_instance_id = s.id
            where d.status = 2 and s.status = 'running')::int as to_stop`,
      [clock.now()],
    )
  ).rows[0]
  console.log(
    `expiry: ${runs.length} runs; reminded ${fmt(totals.reminded)}, expired ${fmt(totals.expired)}, ` +
      `stopped ${fmt(totals.stopped)}, released ${fmt(totals.released)} ` +
      `(per run on average ${fmt(totals.reminded / runs.length)} / ${fmt(totals.expired / runs.length)} / ` +
      `${fmt(totals.stopped / runs.length)} / ${fmt(totals.released / runs.length)})`,
  )
  console.log(
    `runs: mean ${fmt(mean)} ms, longest ${fmt(longest.ms)} ms at ${new Date(longest.at).toISOString()}; ` +
      `longest transaction ${fmt(longestTx, 1)} ms; ` +
      `every run inside a third of its period (10 s): ${longest.ms < PERIOD_MS / 3 ? 'yes' : 'NO'}`,
  )
  console.log(
    `worst lag: expiry ${fmt(worstLag.expire)} s, release ${fmt(worstLag.release)} s; backlog at the end: ${JSON.stringify(backlog)}`,
  )
  await app.close()
  fs.rmSync(filesDir, { recursive: true, force: true })
}

async function main() {
  const t = timing()
  const database = await makeDatabase()
  try {
    if (PARTS.includes('queue')) await queuePart(database)
    if (PARTS.includes('sync')) await syncPart(database, t)
    if (PARTS.includes('expiry')) await expiryPart(database, t)
  } finally {
    await database.close()
    if (!process.env.KEEP) {
      await admin((client) => client.query(`drop database if exists ${NAME} with (force)`))
    }
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
