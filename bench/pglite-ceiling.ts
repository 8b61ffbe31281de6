/**
 * PGlite's ceiling: how far the embedded default carries a business before PostgreSQL is
 * needed. The same tenant base as bench/seed-scale.ts at growing sizes (SMALL × 1, 4, 16: 1,000 to
 * 16,000 users, each with about 9 phones and 50 orders, beside a 10,000-phone studio), each in its own
 * PGlite data directory, measured the way a deployment meets it:
 *
 * - seeding time and the data directory's size on disk;
 * - a cold start: opening the directory until the first query answers, and the process's memory then;
 * - GET /device/list through the whole app: 200 requests one after another (p50, p99), then 50 at a
 *   time for DURATION_S (req/s and p99: PGlite runs one query at a time, so this is where it gives);
 * - what stops everything else while it runs, since PGlite runs one statement at a time: a migration's
 *   index build on orders, a whole-database VACUUM ANALYZE, and a report over every order;
 * - the same at the smallest size, as the baseline each ratio is against.
 *
 *   node --import tsx bench/pglite-ceiling.ts            (FACTORS=1,4,16 by default; DURATION_S=5)
 *
 * Data directories are made under the OS temp dir and removed after each size.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openPglite } from '../server/src/db/client'
import { migrateDatabase } from '../server/src/db/migrate'
import { seedDatabase } from '../server/src/db/seed'
import { benchApp, login } from './lib/api-load'
import { SMALL, scaleMobile, seedScale, TINY, type ScaleSizes } from './lib/scale-seed'

/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): the tiny tenant base (TINY), once, loaded for 2 s. */
const SHORT = process.env.BENCH_SHORT === '1'
const BASE = SHORT ? TINY : SMALL
const DURATION_S = Number(process.env.DURATION_S ?? (SHORT ? 2 : 5))
const FACTORS = (process.env.FACTORS ?? (SHORT ? '1' : '1,4,16')).split(',').map(Number)
const CONCURRENCY = 50

/** BASE with every per-user table `factor` times larger; the studios stay as they are. */
function scaled(factor: number): ScaleSizes {
  const studioPhones = BASE.bigStudioPhones + BASE.studios * BASE.studioPhones
  return {
    ...BASE,
    users: BASE.users * factor,
    phones: studioPhones + (BASE.phones - studioPhones) * factor,
    orders: BASE.orders * factor,
    ledgerRows: BASE.ledgerRows * factor,
    messages: BASE.messages * factor,
    coupons: BASE.coupons * factor,
    grants: BASE.grants * factor,
    backups: BASE.backups * factor,
    usageLogs: BASE.usageLogs * factor,
    doneJobs: BASE.doneJobs * factor,
    otherRows: BASE.otherRows * factor,
  }
}

function directoryBytes(dir: string): number {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const full = path.join(dir, entry.name)
    return sum + (entry.isDirectory() ? directoryBytes(full) : fs.statSync(full).size)
  }, 0)
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]

interface Result {
  factor: number
  users: number
  phones: number
  seedS: number
  diskMb: number
  startS: number
  rssMb: number
  serialP50: number
  serialP99: number
  rps: number
  loadP99: number
  indexS: number
  vacuumS: number
  reportS: number
}

async function measure(factor: number): Promise<Result> {
  const sizes = scaled(factor)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-ceiling-'))
  try {
    let started = performance.now()
    let database = await openPglite(dataDir)
    await migrateDatabase(database)
    await seedDatabase(database.db)
    if (database.kind !== 'pglite') throw new Error('expected PGlite')
    await seedScale(database.pglite, sizes)
    const seedS = (performance.now() - started) / 1000
    await database.close()
    const diskMb = directoryBytes(dataDir) / 1048576

    global.gc?.()
    started = performance.now()
    database = await openPglite(dataDir)
    await database.db.execute('select 1')
    const startS = (performance.now() - started) / 1000
    const rssMb = process.memoryUsage().rss / 1048576

    const { app, close } = await benchApp(database)
    try {
      const sessions = []
      for (let i = 0; i < CONCURRENCY; i++) {
        sessions.push(
          await login(app, scaleMobile(BASE.studios + 2 + ((i * 17) % (sizes.users - 2)))),
        )
      }
      const list = async (i: number) => {
        const session = sessions[i % sessions.length]
        const t0 = performance.now()
        const response = await app.inject({
          method: 'GET',
          url: '/vmcloud/api/device/list?rows=20',
          headers: { token: session.token, userid: String(session.userId) },
        })
        if ((response.json() as { code: number }).code !== 200) throw new Error(response.body)
        return performance.now() - t0
      }
      const serial: number[] = []
      for (let i = 0; i < 200; i++) serial.push(await list(i))
      serial.sort((a, b) => a - b)
      const loaded: number[] = []
      const until = performance.now() + DURATION_S * 1000
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, worker) => {
          for (let i = worker; performance.now() < until; i += CONCURRENCY)
            loaded.push(await list(i))
        }),
      )
      loaded.sort((a, b) => a - b)
      const timed = async (statement: string) => {
        const t0 = performance.now()
        await database.db.execute(statement)
        return (performance.now() - t0) / 1000
      }
      const indexS = await timed('create index ceiling_probe_idx on orders (amount, created_at)')
      await database.db.execute('drop index ceiling_probe_idx')
      const vacuumS = await timed('vacuum analyze')
      const reportS = await timed('select kind, count(*), sum(amount) from orders group by kind')
      return {
        factor,
        users: sizes.users,
        phones: sizes.phones,
        seedS,
        diskMb,
        startS,
        rssMb,
        serialP50: percentile(serial, 50),
        serialP99: percentile(serial, 99),
        rps: loaded.length / DURATION_S,
        loadP99: percentile(loaded, 99),
        indexS,
        vacuumS,
        reportS,
      }
    } finally {
      await close()
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main() {
  console.log(
    `PGlite, ${os.cpus().length} cores, node ${process.version}; 50 at a time for ${DURATION_S} s`,
  )
  const results: Result[] = []
  for (const factor of FACTORS) {
    results.push(await measure(factor))
    const r = results[results.length - 1]
    console.log(
      `  ×${factor}: ${r.users} users, ${r.phones} phones seeded in ${r.seedS.toFixed(0)} s`,
    )
  }
  const base = results[0]
  console.log(
    '\nusers     phones   disk MB  start s  RSS MB  list p50/p99 ms (1 at a time)  50 at a time: req/s  p99 ms  p99 vs smallest  index on orders s  vacuum s  report s',
  )
  for (const r of results) {
    console.log(
      [
        String(r.users).padStart(6),
        String(r.phones).padStart(9),
        r.diskMb.toFixed(0).padStart(9),
        r.startS.toFixed(1).padStart(8),
        r.rssMb.toFixed(0).padStart(7),
        `${r.serialP50.toFixed(1)}/${r.serialP99.toFixed(1)}`.padStart(31),
        r.rps.toFixed(0).padStart(20),
        r.loadP99.toFixed(0).padStart(7),
        `${(r.loadP99 / base.loadP99).toFixed(2)}×`.padStart(17),
        r.indexS.toFixed(1).padStart(18),
        r.vacuumS.toFixed(1).padStart(9),
        r.reportS.toFixed(1).padStart(9),
      ].join(' '),
    )
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
