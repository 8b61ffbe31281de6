/**
 * What the API benches share (api-throughput.ts, api-scale.ts): calls through the app, SMS sign-in, one
 * autocannon run in its own process (autocannon-run.mjs) with the CPU it cost, the raw baseline route,
 * and the table they print.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import Fastify from 'fastify'
import pg from 'pg'
import { buildApp, type App } from '../../server/src/app'
import type { Database } from '../../server/src/db/client'
import { testConfig } from '../../server/test/helpers/test-config'

/**
 * The app on a bench's database as every bench serves it: no rate limit, the sandbox supplier answering
 * at once, a files folder of its own. `close` ends the app and the database and removes the folder.
 */
export async function benchApp(database: Database) {
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'))
  const app = await buildApp({
    config: testConfig({ filesDir, sandboxSupplierDelayMs: 0 }),
    database,
    overrides: { logger: false },
  })
  return {
    app,
    async close() {
      await app.close()
      await database.close()
      fs.rmSync(filesDir, { recursive: true, force: true })
    },
  }
}

export const CONNECTIONS = 50
/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): every autocannon run 1 s instead of 10. */
export const SHORT = process.env.BENCH_SHORT === '1'
export const DURATION_S = Number(process.env.DURATION_S ?? (SHORT ? 1 : 10))
const LOAD = path.resolve(__dirname, '../autocannon-run.mjs')
const run = promisify(execFile)

export async function call(
  app: App,
  method: 'GET' | 'POST',
  url: string,
  headers = {},
  body?: object,
) {
  const response = await app.inject({ method, url: `/vmcloud/api${url}`, headers, payload: body })
  const json = response.json() as { code: number; msg: string; data: unknown }
  if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`)
  return json.data
}

export async function login(app: App, mobilePhone = '13900009999') {
  await call(app, 'POST', '/sms/sendSmsCode', {}, { mobilePhone, type: 'login' })
  const sms = (await call(app, 'GET', `/sandbox/sms/last?mobilePhone=${mobilePhone}`)) as {
    code: string
  }
  return (await call(
    app,
    'POST',
    '/common/userLogin/confirm',
    {},
    { mobilePhone, code: sms.code },
  )) as {
    token: string
    userId: number
  }
}

export interface Row {
  name: string
  rps: number
  p50: number
  p99: number
  /** CPU time per 2xx response, in µs: this process (the server under test) and PostgreSQL's. */
  serverCpuUs: number
  postgresCpuUs: number | null
  errors: number
  non2xx: number
  /** Responses with a 2xx status. */
  ok: number
  /** Answers by envelope code (`HTTP <status>` for one that is not an envelope): placed and refused apart. */
  codes: Record<string, number>
}

export interface LoadOptions {
  method?: string
  headers?: Record<string, string>
  body?: object
  /** Each request as the next of them in turn (see autocannon-run.mjs). */
  sessions?: { token: string; userId: number; body?: object }[]
}

/** USER_HZ: Linux reports process times in 1/100 s. */
const TICK_US = 1e6 / 100

/** A process's CPU time so far in µs (utime + stime, and with `children` cutime + cstime), or null. */
function processCpuUs(pid: string, children: boolean): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    if (!stat.includes('(postgres)')) return null
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const own = Number(fields[11]) + Number(fields[12])
    return (own + (children ? Number(fields[13]) + Number(fields[14]) : 0)) * TICK_US
  } catch {
    return null // the process ended while we read
  }
}

/**
 * CPU time (µs) used so far by PostgreSQL on this machine, per process, read from /proc (Linux,
 * database on this machine); null elsewhere. With `pool`: only the backends of its database, so other
 * databases of a shared server stay out (a backend that ends during a run takes its time with it, so
 * the benches' pools keep theirs open); without: every process named postgres, the postmaster with the
 * time of backends that have ended.
 */
async function postgresCpuUs(pool?: pg.Pool): Promise<Map<string, number> | null> {
  if (!fs.existsSync('/proc/self/stat')) return null
  const pids = pool
    ? (
        await pool.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database()',
        )
      ).rows.map((row) => String(row.pid))
    : fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid))
  const times = new Map<string, number>()
  for (const pid of pids) {
    const us = processCpuUs(pid, !pool)
    if (us !== null) times.set(pid, us)
  }
  return times
}

/** The CPU time spent between two readings (a process that began meanwhile: all of its time). */
const cpuSpent = (before: Map<string, number>, after: Map<string, number>) =>
  [...after].reduce((sum, [pid, us]) => sum + us - (before.get(pid) ?? 0), 0)

/**
 * One autocannon run in its own process (bench/autocannon-run.mjs). `database`: the pool of the
 * database under test, whose backends' CPU is counted (else every PostgreSQL process's).
 */
export async function load(
  name: string,
  url: string,
  options: LoadOptions = {},
  database?: pg.Pool,
): Promise<Row> {
  const spec = { url, connections: CONNECTIONS, duration: DURATION_S, ...options }
  const specDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'))
  const specFile = path.join(specDir, 'spec.json')
  fs.writeFileSync(specFile, JSON.stringify(spec))
  const cpuBefore = process.cpuUsage()
  const postgresBefore = await postgresCpuUs(database)
  const { stdout, stderr } = await run(process.execPath, [LOAD, specFile], {
    maxBuffer: 16 * 1024 * 1024,
  }).finally(() => fs.rmSync(specDir, { recursive: true, force: true }))
  const cpu = process.cpuUsage(cpuBefore)
  const postgresAfter = await postgresCpuUs(database)
  if (!stdout) throw new Error(`autocannon ${name}: ${stderr.slice(0, 300)}`)
  const result = JSON.parse(stdout)
  const responses = Math.max(1, result['2xx'])
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    serverCpuUs: (cpu.user + cpu.system) / responses,
    postgresCpuUs:
      postgresBefore === null || postgresAfter === null
        ? null
        : cpuSpent(postgresBefore, postgresAfter) / responses,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ok: result['2xx'],
    codes: result.codes,
  }
}

/** `200:25980 1014:3`: the answers of a run by code, most first. */
export const codesText = (row: Row) =>
  Object.entries(row.codes)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code}:${n}`)
    .join(' ')

export const cpuText = (row: Row) =>
  `${row.serverCpuUs.toFixed(0)}+${row.postgresCpuUs === null ? '?' : row.postgresCpuUs.toFixed(0)}`

/**
 * The baseline: a bare Fastify app on the same database doing one indexed query per request (a user's
 * newest 20 phones), nothing else.
 */
export async function startRawRoute(connectionString: string, userId: number) {
  const raw = Fastify()
  const pool = new pg.Pool({ connectionString, max: 10, idleTimeoutMillis: 0 })
  // pool.end() does not wait for the sockets to close; dropping the database may still reach one
  pool.on('error', () => {})
  raw.get('/raw', async () => {
    const result = await pool.query(
      'select id, name, status, expire_at from devices where user_id = $1 order by id desc limit 20',
      [userId],
    )
    return { code: 200, msg: 'success', data: result.rows, ts: Date.now() }
  })
  await raw.listen({ host: '127.0.0.1', port: 0 })
  return {
    url: `http://127.0.0.1:${(raw.server.address() as { port: number }).port}/raw`,
    async close() {
      await raw.close()
      await pool.end()
    },
  }
}

export interface Paired {
  route: Row
  raw: Row
  /** Rows the route wrote, when it writes (a refusal is HTTP 200 too). */
  written: number | null
}

export function printRows(rows: Paired[]) {
  console.log(
    'route                                      req/s  p50 ms  p99 ms  raw req/s (p99)  of raw  errors/non-2xx  rows written/2xx  CPU µs/req: server+pg (raw)  answers by code',
  )
  for (const { route, raw: paired, written } of rows) {
    const share = `${((route.rps / paired.rps) * 100).toFixed(0)}%`
    const rawText = `${paired.rps.toFixed(0)} (${paired.p99})`
    const failed = `${route.errors + paired.errors}/${route.non2xx + paired.non2xx}`
    console.log(
      [
        route.name.padEnd(41),
        route.rps.toFixed(0).padStart(6),
        String(route.p50).padStart(7),
        String(route.p99).padStart(7),
        rawText.padStart(16),
        share.padStart(7),
        failed.padStart(15),
        (written === null ? '' : `${written}/${route.ok}`).padStart(17),
        `${cpuText(route)} (${cpuText(paired)})`.padStart(26),
        ` ${codesText(route)}`,
      ].join(' '),
    )
  }
}
