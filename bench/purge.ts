/**
 * The retention purge at scale ("Growth"): a million usage logs past USAGE_LOG_KEEP_MS,
 * deleted by the purge's batches (purge-batches.ts), against one unbatched DELETE of the same rows in
 * the same run. Prints rows/s, the longest single statement, and how long a writer touching the due rows
 * (a late report for an old session) waited at most while each ran. PostgreSQL only, on a database of
 * your own (it is migrated, and its usage_logs emptied):
 *
 *   createdb -h 127.0.0.1 -p 55432 -U postgres bench_purge
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/bench_purge node --import tsx bench/purge.ts
 *
 * BENCH_ROWS changes the number of due rows (default 1,000,000); 100,000 recent rows stay in both runs.
 */
import { getTableName } from 'drizzle-orm'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { wrapPool } from '../server/src/db/client'
import { migrateDatabase } from '../server/src/db/migrate'
import { PURGE_BATCH, purgeInBatches, type PurgeBudget } from '../server/src/db/purge-batches'
import { USAGE_LOG_KEEP_MS, retentionTargets } from '../server/src/jobs/purge-expired'

const url = process.env.BENCH_DATABASE_URL
if (!url) throw new Error('BENCH_DATABASE_URL: a PostgreSQL database of your own (never CI’s)')
/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): a few batches' worth of due rows, a few hundred kept. */
const SHORT = process.env.BENCH_SHORT === '1'
const ROWS = Number(process.env.BENCH_ROWS ?? (SHORT ? 3 * PURGE_BATCH + 500 : 1_000_000))
const KEPT = SHORT ? 500 : 100_000
const NOW = new Date()

const pool = new pg.Pool({ connectionString: url, max: 4 })
const database = wrapPool(pool)

async function fill() {
  const start = performance.now()
  await pool.query('truncate usage_logs')
  const oldest = new Date(NOW.getTime() - USAGE_LOG_KEEP_MS - 1000)
  // due: a millisecond apart going back from past the edge; kept: the last day
  await pool.query(
    `insert into usage_logs (log_id, client, version, terminal_type, accessing_pages, exit_mark, first_at, last_at)
     select 'due-' || g, 'h5', 1, 'bench', '/pages/home/index,/pages/device/index', 0,
            $1::timestamptz - g * interval '1 ms', $1::timestamptz - g * interval '1 ms'
     from generate_series(1, $2::int) g`,
    [oldest, ROWS],
  )
  await pool.query(
    `insert into usage_logs (log_id, client, version, terminal_type, accessing_pages, exit_mark, first_at, last_at)
     select 'kept-' || g, 'h5', 1, 'bench', '/pages/home/index', 0,
            $1::timestamptz - g * interval '500 ms', $1::timestamptz
     from generate_series(1, $2::int) g`,
    [NOW, KEPT],
  )
  await pool.query('vacuum analyze usage_logs')
  return performance.now() - start
}

/**
 * Updates due rows one after another on its own connection until stopped; the longest wait is how
 * long the purge kept a writer of this table waiting.
 */
function writer() {
  let stop = false
  let longest = 0
  let updates = 0
  const done = (async () => {
    const client = await pool.connect()
    try {
      while (!stop) {
        const logId = `due-${1 + Math.floor(Math.random() * ROWS)}`
        const start = performance.now()
        await client.query(
          'update usage_logs set report_count = report_count + 1 where log_id = $1',
          [logId],
        )
        longest = Math.max(longest, performance.now() - start)
        updates += 1
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    } finally {
      client.release()
    }
  })()
  return {
    async finish() {
      stop = true
      await done
      return { longest, updates }
    },
  }
}

const oneStatement = (): PurgeBudget => {
  let left = 1
  return { spent: () => left-- <= 0 }
}

async function batched() {
  const target = retentionTargets(NOW).find((one) => getTableName(one.table) === 'usage_logs')!
  const w = writer()
  await new Promise((resolve) => setTimeout(resolve, 200))
  const start = performance.now()
  let deleted = 0
  let statements = 0
  const times: number[] = []
  for (;;) {
    // one statement per call: the helper itself, timed statement by statement
    const t0 = performance.now()
    const outcome = await purgeInBatches(database.db, target, { budget: oneStatement() })
    times.push(performance.now() - t0)
    deleted += outcome.deleted
    statements += outcome.statements
    if (outcome.finished) break
  }
  const ms = performance.now() - start
  times.sort((a, b) => a - b)
  const longest = times[times.length - 1]
  const median = times[Math.floor(times.length / 2)]
  return { deleted, statements, ms, longest, median, writer: await w.finish() }
}

async function unbatched() {
  const w = writer()
  await new Promise((resolve) => setTimeout(resolve, 200))
  const start = performance.now()
  const result = await pool.query('delete from usage_logs where first_at < $1', [
    new Date(NOW.getTime() - USAGE_LOG_KEEP_MS),
  ])
  const ms = performance.now() - start
  const deleted = result.rowCount ?? 0
  return { deleted, statements: 1, ms, longest: ms, median: ms, writer: await w.finish() }
}

async function main() {
  await migrateDatabase(database)
  const rows: Record<string, string | number>[] = []
  const report = (label: string, run: Awaited<ReturnType<typeof unbatched>>) => {
    rows.push({
      label,
      deleted: run.deleted,
      statements: run.statements,
      seconds: (run.ms / 1000).toFixed(1),
      'rows/s': Math.round(run.deleted / (run.ms / 1000)),
      'median statement ms': Math.round(run.median),
      'longest statement ms': Math.round(run.longest),
      'writer updates': run.writer.updates,
      'writer longest wait ms': Math.round(run.writer.longest),
    })
  }
  console.log(`filling ${ROWS} due + ${KEPT} kept usage logs`)
  console.log(`  filled in ${((await fill()) / 1000).toFixed(1)} s`)
  const one = await unbatched()
  report('one DELETE (baseline)', one)
  if ((await pool.query('select count(*)::int as n from usage_logs')).rows[0].n !== KEPT) {
    throw new Error('the unbatched delete left due rows')
  }
  console.log(`  refilled in ${((await fill()) / 1000).toFixed(1)} s`)
  const many = await batched()
  report(`batches of ${PURGE_BATCH}`, many)
  if ((await pool.query('select count(*)::int as n from usage_logs')).rows[0].n !== KEPT) {
    throw new Error('the batched purge left due rows')
  }
  console.table(rows)
  const rate = (run: typeof one) => run.deleted / run.ms
  console.log(
    `batched/unbatched: throughput ${(rate(many) / rate(one)).toFixed(2)}×, longest statement ` +
      `${(many.longest / one.longest).toFixed(3)}×, writer's longest wait ` +
      `${(many.writer.longest / one.writer.longest).toFixed(3)}×`,
  )
}

main()
  .catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => pool.end())
