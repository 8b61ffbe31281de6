/**
 * Fills a PostgreSQL database with the scale target's large tenant base (bench/lib/scale-seed.ts): 100,000
 * users, 1,000,000 phones (one studio with 10,000, a hundred with 1,000), 5,000,000 orders and their
 * payments, 10,000,000 ledger rows, 2,000,000 each of messages, coupons, grants and backups, and 30 days
 * of usage logs. SCALE=small makes the same shape at 1/100 (the big studio keeps its 10,000 phones),
 * SCALE=tiny (the default under BENCH_SHORT=1) a tenth of that.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scale_large node --import tsx bench/seed-scale.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scale_small SCALE=small node --import tsx bench/seed-scale.ts
 *
 * Makes the database if it does not exist, migrates and seeds it like the server does, then fills it in
 * chunks of 100,000 rows, each committed with its progress: stopped or killed, it resumes where it was.
 * Prints each step's time and, at the end, every growing table's bytes per user or per phone.
 * Refuses to run under CI (never CI's database; short mode excepted) and on a database seeded with
 * other sizes.
 */
import pg from 'pg'
import { openPostgres } from '../server/src/db/client'
import { migrateDatabase } from '../server/src/db/migrate'
import { seedDatabase } from '../server/src/db/seed'
import { LARGE, SMALL, seedScale, tableBytes, TINY } from './lib/scale-seed'

/**
 * BENCH_SHORT=1 (scripts/bench-smoke.mjs): SCALE=tiny unless SCALE says otherwise, and allowed under CI
 * (the smoke runner makes the database for it and drops it afterwards).
 */
const SHORT = process.env.BENCH_SHORT === '1'
const SCALE = process.env.SCALE ?? (SHORT ? 'tiny' : 'large')

async function ensureDatabase(url: string) {
  const target = new URL(url)
  const name = decodeURIComponent(target.pathname.slice(1))
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name: ${name}`)
  const maintenance = new URL(url)
  maintenance.pathname = '/postgres'
  const client = new pg.Client({ connectionString: maintenance.toString() })
  await client.connect()
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name])
    if (!rowCount) await client.query(`create database ${name}`)
  } finally {
    await client.end()
  }
}

async function main() {
  if (process.env.CI && !SHORT) {
    throw new Error('seed-scale never runs under CI: it is for a bench database')
  }
  const url = process.env.DATABASE_URL
  if (!url) throw new Error('DATABASE_URL names the database to fill (made if missing)')
  const sizes = SCALE === 'tiny' ? TINY : SCALE === 'small' ? SMALL : LARGE
  const started = performance.now()
  await ensureDatabase(url)
  const database = openPostgres(url, 2)
  try {
    await migrateDatabase(database)
    await seedDatabase(database.db)
    let lastPrint = 0
    const client = await database.pool.connect()
    const report = await seedScale(client, sizes, {
      onChunk(step, done, total) {
        if (performance.now() - lastPrint < 5000 && done < total) return
        lastPrint = performance.now()
        const seconds = ((performance.now() - started) / 1000).toFixed(0)
        console.log(
          `${seconds.padStart(6)} s  ${step}: ${done.toLocaleString()} / ${total.toLocaleString()}`,
        )
      },
    })
    client.release()
    console.log('\nstep             rows        seconds   rows/s   (resumed from)')
    for (const row of report) {
      console.log(
        `${row.step.padEnd(16)} ${row.rows.toLocaleString().padStart(11)} ${row.seconds.toFixed(1).padStart(9)} ${Math.round(
          row.rows / Math.max(row.seconds, 0.001),
        )
          .toLocaleString()
          .padStart(9)}   ${row.resumedFrom ? row.resumedFrom.toLocaleString() : ''}`,
      )
    }
    console.log(
      `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s (with migrate, seed and analyze)\n`,
    )
    console.log('table                        rows        MB   bytes per user/phone')
    const tables = (await tableBytes(database.pool)).sort((a, b) => b.bytes - a.bytes)
    for (const row of tables) {
      console.log(
        `${row.table.padEnd(22)} ${row.rows.toLocaleString().padStart(11)} ${(row.bytes / 1048576).toFixed(0).padStart(9)} ${row.bytesPer.toLocaleString().padStart(9)} per ${row.per}`,
      )
    }
    const [{ bytes, users }] = (
      await database.pool.query<{ bytes: string; users: string }>(
        'select pg_database_size(current_database()) as bytes, (select count(*) from users) as users',
      )
    ).rows
    console.log(
      `database: ${(Number(bytes) / 1048576).toFixed(0)} MB, ${Math.round(Number(bytes) / Number(users)).toLocaleString()} bytes per user`,
    )
  } finally {
    await database.close()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
