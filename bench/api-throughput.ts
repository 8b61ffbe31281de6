/**
 * API throughput on PostgreSQL (issue 6): autocannon at 50 connections against our server listening on
 * 127.0.0.1 — device list, goods list, usage-log save, order creation — and, in the same run, against a
 * raw route (a bare Fastify app on the same database doing one indexed query), as the baseline: the raw
 * route runs just before each of ours, and each is compared with that run. Prints req/s, p50/p99
 * latency and each route's throughput as a share of the raw route's.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/api-throughput.ts
 *
 * (the bench makes its own database on that server and drops it afterwards; DURATION_S=10 by default;
 * ROUTES=devices,devices-br,goods,goods-br,usage,order,orders,orders-spread picks routes)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import Fastify from 'fastify'
import pg from 'pg'
import { buildApp, type App } from '../server/src/app'
import { wrapPool } from '../server/src/db/client'
import { createTestDatabase } from '../server/test/helpers/test-database'

const CONNECTIONS = 50
const DURATION_S = Number(process.env.DURATION_S ?? 10)
const FLEET = 200
/** Seeded zones (server/src/db/seed-catalogue.ts). */
const ZONES = 4
const LOAD = path.resolve(__dirname, 'autocannon-run.mjs')
const run = promisify(execFile)

async function call(app: App, method: 'GET' | 'POST', url: string, headers = {}, body?: object) {
  const response = await app.inject({ method, url: `/vmcloud/api${url}`, headers, payload: body })
  const json = response.json() as { code: number; msg: string; data: unknown }
  if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`)
  return json.data
}

async function login(app: App, mobilePhone = '13900009999') {
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

interface Row {
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
}

interface LoadOptions {
  method?: string
  headers?: Record<string, string>
  body?: object
  /** One per connection, round robin (see autocannon-run.mjs). */
  sessions?: { token: string; userId: number }[]
}

/**
 * CPU time (µs) used so far by every process named postgres on this machine, read from /proc (Linux,
 * database on this machine); null elsewhere. Counts every database of that server, so the bench's
 * figures hold only on a server nothing else is using.
 */
function postgresCpuUs(): number | null {
  if (!fs.existsSync('/proc/self/stat')) return null
  const ticks = 100 // USER_HZ: Linux reports process times in 1/100 s
  let total = 0
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      if (!stat.includes('(postgres)')) continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      // utime, stime, and cutime, cstime: the postmaster's, of the backends that have ended
      total += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
    } catch {
      // the process ended while we read
    }
  }
  return (total * 1e6) / ticks
}

/** One autocannon run in its own process (bench/autocannon-run.mjs). */
async function load(name: string, url: string, options: LoadOptions = {}): Promise<Row> {
  const spec = { url, connections: CONNECTIONS, duration: DURATION_S, ...options }
  const cpuBefore = process.cpuUsage()
  const postgresBefore = postgresCpuUs()
  const { stdout, stderr } = await run(process.execPath, [LOAD, JSON.stringify(spec)], {
    maxBuffer: 16 * 1024 * 1024,
  })
  const cpu = process.cpuUsage(cpuBefore)
  const postgresAfter = postgresCpuUs()
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
        : (postgresAfter - postgresBefore) / responses,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ok: result['2xx'],
  }
}

const cpuText = (row: Row) =>
  `${row.serverCpuUs.toFixed(0)}+${row.postgresCpuUs === null ? '?' : row.postgresCpuUs.toFixed(0)}`

async function main() {
  if (!process.env.TEST_DATABASE_URL) {
    throw new Error(
      'set TEST_DATABASE_URL to a PostgreSQL server (the bench makes its own database)',
    )
  }
  const created = await createTestDatabase()
  const url = (created as unknown as { pool: pg.Pool }).pool.options.connectionString as string
  // the pool a production server opens (pg's default of 10), not the test helper's 5; but no connection
  // is closed for being idle, as pg's pool does after 10 s: while the raw route runs, this pool's
  // backends would end, and the CPU time of a backend that ends is counted when it ends (postgresCpuUs)
  const database = wrapPool(new pg.Pool({ connectionString: url, idleTimeoutMillis: 0 }))
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'))
  const app = await buildApp({
    database,
    filesDir,
    rateLimit: false,
    sandboxSupplier: { delayMs: 0 },
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/vmcloud/api`

  const session = await login(app)
  for (let left = FLEET; left > 0; left -= 50) {
    await app.services.ctx.db.transaction((tx) =>
      app.services.fleet.createDevicesForOrder(tx, {
        userId: session.userId,
        orderId: 0,
        goodId: 101,
        zoneId: 1,
        quantity: Math.min(50, left),
        days: 30,
      }),
    )
  }
  await app.jobs.runDue(100_000)
  // enough stock for every order the load creates
  const pool = (database as unknown as { pool: pg.Pool }).pool
  await pool.query('update goods_stock_slots set stock = 1000000')
  const headers = {
    token: session.token,
    userid: String(session.userId),
    'content-type': 'application/json',
  }

  // the baseline: one indexed query per request, nothing else
  const raw = Fastify()
  const rawPool = new pg.Pool({
    connectionString: pool.options.connectionString,
    max: 10,
    idleTimeoutMillis: 0,
  })
  // pool.end() does not wait for the sockets to close; dropping the database may still reach one
  rawPool.on('error', () => {})
  raw.get('/raw', async () => {
    const result = await rawPool.query(
      'select id, name, status, expire_at from devices where user_id = $1 order by id desc limit 20',
      [session.userId],
    )
    return { code: 200, msg: 'success', data: result.rows, ts: Date.now() }
  })
  await raw.listen({ host: '127.0.0.1', port: 0 })
  const rawUrl = `http://127.0.0.1:${(raw.server.address() as { port: number }).port}/raw`

  const goods = (await call(app, 'GET', '/CommodityGroup/getGoodsList')) as {
    goods: { goodId: number; prices: { priceId: number; goodTime: number; price: number }[] }[]
  }[]
  const item = goods[0].goods[0]
  const price = item.prices[0]
  const quote = (await call(app, 'POST', '/CommodityGroup/getGoodPrice', headers, {
    kind: 'new',
    goodId: item.goodId,
    priceId: price.priceId,
    quantity: 1,
  })) as { total: number }

  // 50 more buyers for orders across users: an order locks its buyer's row (one order at a time per
  // user, so an idempotency key can never make two), so one user's orders queue behind each other
  const buyers = []
  for (let i = 0; i < CONNECTIONS; i++) buyers.push(await login(app, `1380000${1000 + i}`))
  const order = {
    goodId: item.goodId,
    priceId: price.priceId,
    zoneId: 1,
    quantity: 1,
    expectedAmount: quote.total,
    idempotencyKey: '[<id>]',
  }
  const buyerQuote = (await call(
    app,
    'POST',
    '/CommodityGroup/getGoodPrice',
    {
      ...headers,
      token: buyers[0].token,
      userid: String(buyers[0].userId),
    },
    { kind: 'new', goodId: item.goodId, priceId: price.priceId, quantity: 1 },
  )) as { total: number }
  if (buyerQuote.total !== quote.total) throw new Error('a new buyer would pay another price')
  // The same 50 buyers, each ordering its own goods and zone (as a catalogue's buyers spread over it),
  // at each goods' shortest duration, whose price is the same for every buyer and every order.
  const catalogue = goods.flatMap((level) => level.goods)
  const spreadBuyers = await Promise.all(
    buyers.map(async (buyer, i) => {
      const good = catalogue[i % catalogue.length]
      const priced = (await call(app, 'POST', '/CommodityGroup/getGoodPrice', headers, {
        kind: 'new',
        goodId: good.goodId,
        priceId: good.prices[0].priceId,
        quantity: 1,
      })) as { total: number }
      const zoneId = 1 + (Math.floor(i / catalogue.length) % ZONES)
      const body = {
        goodId: good.goodId,
        priceId: good.prices[0].priceId,
        zoneId,
        expectedAmount: priced.total,
      }
      return { ...buyer, body }
    }),
  )
  const count = async (table: string) =>
    Number((await pool.query(`select count(*) from ${table}`)).rows[0].count)

  interface Route {
    key: string
    name: string
    url: string
    options?: LoadOptions
    /** Rows the route writes, counted before and after the run (a refusal is HTTP 200 too). */
    rowsIn?: string
  }
  const routes: Route[] = [
    { key: 'devices', name: 'GET /device/list (20 of 200)', url: `${base}/device/list?rows=20` },
    {
      key: 'devices-br',
      name: 'GET /device/list (20 of 200), brotli',
      url: `${base}/device/list?rows=20`,
      // as a browser asks for it: compressed on the fly (server/src/plugins/compression.ts)
      options: { headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' } },
    },
    {
      key: 'goods',
      name: 'GET /CommodityGroup/getGoodsList',
      url: `${base}/CommodityGroup/getGoodsList`,
    },
    {
      key: 'goods-br',
      name: 'GET /CommodityGroup/getGoodsList, brotli',
      url: `${base}/CommodityGroup/getGoodsList`,
      // as a browser asks for it (kept compressed for a second: plugins/envelope.ts sendOkJson)
      options: { headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' } },
    },
    {
      key: 'usage',
      name: 'POST /userUsageLog/saveUserUsageLog',
      url: `${base}/userUsageLog/saveUserUsageLog`,
      options: {
        method: 'POST',
        body: {
          logId: '[<id>]',
          client: 'h5',
          version: 248,
          terminalType: 'android',
          accessingPages: 'pages/Home/index',
          exitMark: 0,
        },
      },
      rowsIn: 'usage_logs',
    },
    {
      key: 'order',
      name: 'POST /order/createCloudOrder (1 user)',
      url: `${base}/order/createCloudOrder`,
      options: { method: 'POST', body: order },
      rowsIn: 'orders',
    },
    {
      key: 'orders',
      name: 'POST /order/createCloudOrder (50 users)',
      url: `${base}/order/createCloudOrder`,
      options: { method: 'POST', body: order, sessions: buyers },
      rowsIn: 'orders',
    },
    {
      key: 'orders-spread',
      name: 'POST /order/createCloudOrder (50, spread)',
      url: `${base}/order/createCloudOrder`,
      options: { method: 'POST', body: order, sessions: spreadBuyers },
      rowsIn: 'orders',
    },
  ]
  // Each route right after a run of the raw route, and compared with that run: the machine's load
  // drifts (other work, the load generator on the same cores), and a baseline taken minutes earlier
  // would make that drift part of the ratio.
  const only = process.env.ROUTES?.split(',')
  const rows: { route: Row; raw: Row; written: number | null }[] = []
  for (const route of routes) {
    if (only && !only.includes(route.key)) continue
    if (!route.options?.method) await call(app, 'GET', route.url.slice(base.length), headers)
    const rawRow = await load('raw: one indexed query', rawUrl)
    const before = route.rowsIn ? await count(route.rowsIn) : 0
    const row = await load(route.name, route.url, { headers, ...route.options })
    const written = route.rowsIn ? (await count(route.rowsIn)) - before : null
    rows.push({ raw: rawRow, route: row, written })
  }

  console.log(
    `\n${CONNECTIONS} connections, ${DURATION_S} s each, PostgreSQL, ${os.cpus().length} cores, node ${process.version}\n`,
  )
  console.log(
    'route                                      req/s  p50 ms  p99 ms  raw req/s (p99)  of raw  errors/non-2xx  rows written/2xx  CPU µs/req: server+pg (raw)',
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
      ].join(' '),
    )
  }
  await raw.close()
  await rawPool.end()
  await app.close()
  await database.close()
  await created.close()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
