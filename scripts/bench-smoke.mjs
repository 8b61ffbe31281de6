#!/usr/bin/env node
/**
 * Every bench of bench/README.md's table, once each, in short mode (BENCH_SHORT=1: the same code path
 * with a few seconds of load and the smallest sizes), in two lanes at once (those in Chromium, and
 * those that load the server and its databases), so that a bench that no longer runs is seen the day it
 * breaks. Figures are printed, never judged: a bench fails when it exits with
 * an error, is killed, or runs past its time limit (its whole process group is killed then).
 *
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/cloudphone_ci node scripts/bench-smoke.mjs
 *   node scripts/bench-smoke.mjs purge seed-scale        # only these (names without .ts/.mjs)
 *
 * Which benches there are and how node starts each (`--import tsx`, `--expose-gc`) is read from the
 * README's table, so the table stays the one list; what each needs besides is said below (NEEDS).
 * - PostgreSQL: BENCH_POSTGRES_URL, a superuser's URL to an existing database of the server (the
 *   maintenance one). The runner makes each bench's databases on that server and drops them after, and
 *   drops leftovers of the databases a bench makes itself; without the URL those benches fail with
 *   "needs BENCH_POSTGRES_URL".
 * - The H5 build: `npm run build:h5` first (dist/h5, or H5_DIST); missing, those benches fail.
 * - Chromium: /usr/bin/chromium or CHROMIUM_PATH (scripts/lib/chromium.mjs).
 * The database URLs and bench knobs of the caller's environment are not passed on: each bench runs
 * with its short-mode defaults and the databases named here. Prints a line when a bench starts, its
 * banner and whole output when it ends, and at the end a table of every bench's seconds and result; exits 1 if any failed.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { chromiumPath } from './lib/chromium.mjs'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const README = path.join(REPO, 'bench/README.md')
const H5_DIST = path.resolve(REPO, process.env.H5_DIST || 'dist/h5')
const SERVER = process.env.BENCH_POSTGRES_URL
/** After SIGTERM to a bench's process group, how long it has to end before SIGKILL. */
const GRACE_MS = 5_000
/**
 * The empty Taro app's H5 build, made by the first bench that needs it and used by the others
 * (bench/lib/empty-taro-app.mjs emptyH5Output): package-size, h5-lighthouse and h5-startup.
 */
const EMPTY_H5 = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-empty-h5-'))

/** A database `name` on the server of BENCH_POSTGRES_URL. */
const db = (name) => {
  const url = new URL(SERVER)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * Per bench (its file name in bench/): `limit`, its time limit in seconds in short mode (two to five
 * times what it took on the 2-core build machine while test suites ran beside it); `h5` and `chromium`, what it
 * loads; `postgres`, that it needs BENCH_POSTGRES_URL; `makes`, databases the runner makes fresh for it;
 * `leftovers`, databases it makes itself, dropped before and after in case a killed run left them;
 * `setup`, bench commands run first (within the limit); `env`, what it is told of them.
 */
const NEEDS = {
  'package-size.mjs': { limit: 300, h5: true, chromium: true },
  'h5-lighthouse.mjs': { limit: 240, h5: true, chromium: true },
  'h5-startup.mjs': { limit: 180, h5: true, chromium: true },
  'fleet-render.mjs': { limit: 180, h5: true, chromium: true },
  'device-list-server.ts': { limit: 120 },
  'seed-scale.ts': {
    limit: 120,
    postgres: true,
    makes: ['bench_scale_tiny'],
    env: () => ({ DATABASE_URL: db('bench_scale_tiny') }),
  },
  'api-scale.ts': {
    limit: 300,
    postgres: true,
    makes: ['bench_scale_tiny', 'bench_scale_small'],
    // its small and large databases, made by seed-scale: SCALE=tiny against SCALE=small (10× the rows)
    setup: () => [
      { file: 'seed-scale.ts', env: { DATABASE_URL: db('bench_scale_tiny'), SCALE: 'tiny' } },
      { file: 'seed-scale.ts', env: { DATABASE_URL: db('bench_scale_small'), SCALE: 'small' } },
    ],
    env: () => ({
      SMALL_DATABASE_URL: db('bench_scale_tiny'),
      LARGE_DATABASE_URL: db('bench_scale_small'),
    }),
  },
  'pglite-ceiling.ts': { limit: 120 },
  'jobs-scale.ts': {
    limit: 180,
    postgres: true,
    leftovers: ['bench_jobs'],
    env: () => ({ BENCH_DATABASE_URL: SERVER, BENCH_DB: 'bench_jobs' }),
  },
  // createTestDatabase: a database of its own from the tests' template, dropped by the bench
  'batch-renew.ts': { limit: 120, postgres: true, env: () => ({ TEST_DATABASE_URL: SERVER }) },
  'auto-renew.ts': { limit: 120, postgres: true, env: () => ({ TEST_DATABASE_URL: SERVER }) },
  'app-install.ts': { limit: 120 },
  'studio-renew-h5.mjs': {
    limit: 240,
    h5: true,
    chromium: true,
    postgres: true,
    leftovers: ['studio_renew_h5'],
    env: () => ({ PG_URL: SERVER }),
  },
  'purge.ts': {
    limit: 120,
    postgres: true,
    makes: ['bench_purge'],
    env: () => ({ BENCH_DATABASE_URL: db('bench_purge') }),
  },
  'api-throughput.ts': { limit: 240, postgres: true, env: () => ({ TEST_DATABASE_URL: SERVER }) },
}

/** The caller's settings that would change what a bench runs against or how long: not passed on. */
const NOT_PASSED = [
  ...['DATABASE_URL', 'TEST_DATABASE_URL', 'BENCH_DATABASE_URL', 'BENCH_DB', 'PG_URL'],
  ...['SMALL_DATABASE_URL', 'LARGE_DATABASE_URL', 'SCALE', 'KEEP', 'VERBOSE'],
  ...['SIZES', 'RUNS', 'RENDER_RUNS', 'ROUNDS', 'DURATION_S', 'ROUTES', 'FACTORS', 'BENCH_ROWS'],
  ...['PARTS', 'QUEUE_JOBS', 'JOB_MS', 'STUDIO', 'PHONES', 'USERS', 'START', 'HOURS'],
]

/** The benches of bench/README.md's table: file name and node's options from its `run` cell. */
function readmeBenches() {
  const benches = []
  for (const line of fs.readFileSync(README, 'utf8').split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim())
    const file = /^`([\w.-]+\.(?:ts|mjs))`$/.exec(cells[0] ?? '')?.[1]
    if (!file || cells.length < 3) continue
    // `node --expose-gc --import tsx bench/x.ts`: node's options, each with its value if it has one
    const escaped = file.replace(/[.]/g, '\\.')
    const command = new RegExp(`\\bnode ((?:-\\S+(?: [^-\\s]\\S*)? )*)bench/${escaped}\\b`)
    const options = command.exec(cells.at(-1))?.[1].split(/\s+/).filter(Boolean)
    benches.push({ file, nodeOptions: options ?? null })
  }
  return benches
}

async function admin(statements) {
  const client = new pg.Client({ connectionString: SERVER })
  await client.connect()
  try {
    for (const statement of statements) await client.query(statement)
  } finally {
    await client.end()
  }
}

const dropAll = (names) =>
  admin(names.map((name) => `drop database if exists ${name} with (force)`))

function benchEnv(extra) {
  const env = { ...process.env }
  for (const name of NOT_PASSED) delete env[name]
  return { ...env, BENCH_SHORT: '1', BENCH_EMPTY_H5: EMPTY_H5, ...extra }
}

/** A process group still has members (the leader may be gone). */
function groupAlive(pid) {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Whether the group still has members 2 s after its leader ended: helpers end just after it (tsx's
 * esbuild service when its pipe closes), a browser or server the bench did not stop does not.
 */
async function leftRunning(pid) {
  for (let waited = 0; waited < 2_000 && groupAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return groupAlive(pid)
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}

/** The children now running (each one's pid is its process group's id), for a signal to the runner. */
const running = new Set()

/**
 * Runs `node <options> bench/<file>` in a process group of its own until it ends or `deadline` (ms
 * since the epoch) passes; then the group is killed. Its output is appended to `output` (the two lanes
 * run at once, so a bench's output is printed whole when it ends). Resolves to what happened.
 */
function runNode(nodeOptions, file, env, deadline, output) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeOptions, path.join('bench', file)], {
      cwd: REPO,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.add(child)
    child.stdout.on('data', (chunk) => output.push(chunk))
    child.stderr.on('data', (chunk) => output.push(chunk))
    let timedOut = false
    const timer = setTimeout(
      () => {
        timedOut = true
        killGroup(child.pid, 'SIGTERM')
        setTimeout(() => killGroup(child.pid, 'SIGKILL'), GRACE_MS).unref()
      },
      Math.max(0, deadline - Date.now()),
    )
    child.on('error', (error) => {
      clearTimeout(timer)
      running.delete(child)
      resolve({ ok: false, note: `could not start: ${error.message}` })
    })
    child.on('exit', async (code, signal) => {
      clearTimeout(timer)
      // a browser or server it started and did not stop: not a failure of the bench, nor left running
      const leftBehind = await leftRunning(child.pid)
      if (leftBehind) killGroup(child.pid, 'SIGKILL')
      running.delete(child)
      const left = leftBehind ? ' (processes it left running were killed)' : ''
      if (timedOut) resolve({ ok: false, note: 'timed out' })
      else if (code === 0) resolve({ ok: true, note: `ok${left}` })
      else resolve({ ok: false, note: `failed (${signal ?? `exit ${code}`})${left}` })
    })
  })
}

/** Runs one bench with what it needs; resolves to { ok, note }. */
async function runBench({ file, nodeOptions }, output) {
  const log = (line) => output.push(`${line}\n`)
  const needs = NEEDS[file]
  if (!needs) return { ok: false, note: 'not in scripts/bench-smoke.mjs: say what it needs there' }
  if (!nodeOptions) return { ok: false, note: 'no `node … bench/<file>` in its README run cell' }
  if (!fs.existsSync(path.join(REPO, 'bench', file))) return { ok: false, note: 'file missing' }
  if (needs.postgres && !SERVER) return { ok: false, note: 'needs BENCH_POSTGRES_URL' }
  if (needs.h5) {
    const index = path.join(H5_DIST, 'index.html')
    if (!fs.existsSync(index)) {
      return {
        ok: false,
        note: `needs the H5 build: ${index} is missing (npm run build:h5)`,
      }
    }
    log(`-- H5 build: ${H5_DIST}, made ${fs.statSync(index).mtime.toISOString()}`)
  }
  if (needs.chromium && !fs.existsSync(chromiumPath())) {
    return { ok: false, note: `needs Chromium at ${chromiumPath()} (CHROMIUM_PATH)` }
  }
  const deadline = Date.now() + needs.limit * 1000
  const databases = [...(needs.makes ?? []), ...(needs.leftovers ?? [])]
  try {
    if (databases.length > 0) {
      await dropAll(databases)
      await admin((needs.makes ?? []).map((name) => `create database ${name}`))
      log(`-- databases on BENCH_POSTGRES_URL's server: ${databases.join(', ')}`)
    }
    for (const step of needs.setup?.() ?? []) {
      const options = readmeBenches().find((bench) => bench.file === step.file)?.nodeOptions ?? []
      const settings = Object.entries(step.env).map(([key, value]) => `${key}=${value}`)
      log(`-- setup: ${settings.join(' ')} bench/${step.file}`)
      const done = await runNode(options, step.file, benchEnv(step.env), deadline, output)
      if (!done.ok) return { ok: false, note: `setup bench/${step.file}: ${done.note}` }
    }
    return await runNode(nodeOptions, file, benchEnv(needs.env?.() ?? {}), deadline, output)
  } catch (error) {
    return { ok: false, note: `PostgreSQL: ${error.message}` }
  } finally {
    if (databases.length > 0) {
      await dropAll(databases).catch((error) => {
        log(`-- could not drop ${databases.join(', ')}: ${error.message}`)
      })
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child.pid, 'SIGKILL')
    fs.rmSync(EMPTY_H5, { recursive: true, force: true })
    process.exit(130)
  })
}

const started = Date.now()
const seconds = (from) => ((Date.now() - from) / 1000).toFixed(1)
const wanted = process.argv.slice(2)
const named = (bench) => bench.file.replace(/\.(ts|mjs)$/, '')
const benches = readmeBenches().filter((bench) => !wanted.length || wanted.includes(named(bench)))
const unknown = wanted.filter((name) => !benches.some((bench) => named(bench) === name))
if (unknown.length > 0) {
  console.error(`not a bench of ${path.relative(REPO, README)}'s table: ${unknown.join(' ')}`)
  fs.rmSync(EMPTY_H5, { recursive: true, force: true })
  process.exit(1)
}
/**
 * Two lanes at once, each bench after the other in its lane: those that drive Chromium (the first of
 * them builds the empty app the others reuse), and those that load the server and its databases.
 * Their databases have different names; the tests' template is made under a lock. Figures taken while
 * the other lane runs mean even less, and none is judged here.
 */
async function runLane(lane) {
  for (const bench of lane) {
    const limit = NEEDS[bench.file]?.limit
    console.log(
      `== [${seconds(started)} s] bench/${bench.file} started${limit ? `, limit ${limit} s` : ''}`,
    )
    const t0 = Date.now()
    const output = []
    const result = await runBench(bench, output)
    if (result.note === 'timed out') result.note = `timed out after ${limit} s`
    results.push({ file: bench.file, seconds: seconds(t0), ...result })
    console.log(`\n${'='.repeat(100)}`)
    console.log(`== bench/${bench.file}, short mode${limit ? `, limit ${limit} s` : ''}`)
    console.log('='.repeat(100))
    process.stdout.write(Buffer.concat(output.map((chunk) => Buffer.from(chunk))))
    console.log(`-- bench/${bench.file}: ${result.note} in ${seconds(t0)} s`)
  }
}
const results = []
const inBrowser = (bench) => NEEDS[bench.file]?.chromium === true
await Promise.all([
  runLane(benches.filter(inBrowser)),
  runLane(benches.filter((b) => !inBrowser(b))),
])
results.sort(
  (a, b) =>
    benches.findIndex((x) => x.file === a.file) - benches.findIndex((x) => x.file === b.file),
)

fs.rmSync(EMPTY_H5, { recursive: true, force: true })
const failed = results.filter((result) => !result.ok)
console.log(`\nbench smoke run (BENCH_SHORT=1), ${new Date().toISOString()}\n`)
console.log(`${'bench'.padEnd(24)} ${'seconds'.padStart(8)}  result`)
for (const result of results) {
  console.log(`${result.file.padEnd(24)} ${result.seconds.padStart(8)}  ${result.note}`)
}
console.log(
  `${'total'.padEnd(24)} ${seconds(started).padStart(8)}  ` +
    `${results.length - failed.length} ok, ${failed.length} failed`,
)
// exitCode, not exit(): exit() drops what a full pipe has not taken yet (the table above)
process.exitCode = failed.length > 0 ? 1 : 0
