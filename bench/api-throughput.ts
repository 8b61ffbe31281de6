/**
 * API throughput on PostgreSQL (issue 6): autocannon at 50 connections against our server listening on
 * 127.0.0.1 — device list, goods list, usage-log save, order creation — and, in the same run, against a
 * raw route (a bare Fastify app on the same database doing one indexed query), as the baseline.
 * Prints req/s, p50/p99 latency and each route's throughput as a share of the raw route's.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/api-throughput.ts
 *
 * (the bench makes its own database on that server and drops it afterwards; DURATION_S=10 by default)
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
const AUTOCANNON = path.resolve(__dirname, '../node_modules/.bin/autocannon')
const run = promisify(execFile)

async function call(app: App, method: 'GET' | 'POST', url: string, headers = {}, body?: object) {
  const response = await app.inject({ method, url: `/vmcloud/api${url}`, headers, payload: body })
  const json = response.json() as { code: number; msg: string; data: unknown }
  if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`)
  return json.data
}

async function login(app: App) {
  const mobilePhone = '13900009999'
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
  errors: number
  non2xx: number
}

/**
 * autocannon in its own process (the load generator must not share the server's event loop); `[<id>]`
 * in a body becomes a fresh id per request.
 */
async function load(
  name: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: object } = {},
): Promise<Row> {
  const args = ['-c', String(CONNECTIONS), '-d', String(DURATION_S), '-j']
  if (options.method) args.push('-m', options.method)
  for (const [key, value] of Object.entries(options.headers ?? {}))
    args.push('-H', `${key}=${value}`)
  if (options.body) args.push('-I', '-b', JSON.stringify(options.body))
  const { stdout, stderr } = await run(AUTOCANNON, [...args, url], { maxBuffer: 16 * 1024 * 1024 })
  const last = stdout.trim().split('\n').pop()
  if (!last) throw new Error(`autocannon ${args.join(' ')} ${url}: ${stderr.slice(0, 300)}`)
  const result = JSON.parse(last)
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}

async function main() {
  if (!process.env.TEST_DATABASE_URL) {
    throw new Error(
      'set TEST_DATABASE_URL to a PostgreSQL server (the bench makes its own database)',
    )
  }
  const created = await createTestDatabase()
  const url = (created as unknown as { pool: pg.Pool }).pool.options.connectionString as string
  // the pool a production server opens (pg's default of 10), not the test helper's 5
  const database = wrapPool(new pg.Pool({ connectionString: url }))
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
  await pool.query('update goods_inventory set stock = 1000000')
  const headers = {
    token: session.token,
    userid: String(session.userId),
    'content-type': 'application/json',
  }

  // the baseline: one indexed query per request, nothing else
  const raw = Fastify()
  const rawPool = new pg.Pool({ connectionString: pool.options.connectionString, max: 10 })
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

  const rows: Row[] = []
  rows.push(await load('raw: one indexed query', rawUrl))
  rows.push(await load('GET /device/list (20 of 200)', `${base}/device/list?rows=20`, { headers }))
  rows.push(
    await load('GET /CommodityGroup/getGoodsList', `${base}/CommodityGroup/getGoodsList`, {
      headers,
    }),
  )
  rows.push(
    await load('POST /userUsageLog/saveUserUsageLog', `${base}/userUsageLog/saveUserUsageLog`, {
      method: 'POST',
      headers,
      body: {
        logId: '[<id>]',
        client: 'h5',
        version: 248,
        terminalType: 'android',
        accessingPages: 'pages/Home/index',
        exitMark: 0,
      },
    }),
  )
  rows.push(
    await load('POST /order/createCloudOrder', `${base}/order/createCloudOrder`, {
      method: 'POST',
      headers,
      body: {
        goodId: item.goodId,
        priceId: price.priceId,
        zoneId: 1,
        quantity: 1,
        expectedAmount: quote.total,
        idempotencyKey: '[<id>]',
      },
    }),
  )

  const baseline = rows[0].rps
  console.log(
    `\n${CONNECTIONS} connections, ${DURATION_S} s each, PostgreSQL, ${os.cpus().length} cores, node ${process.version}\n`,
  )
  console.log(
    'route                                      req/s   p50 ms  p99 ms  of raw  errors/non-2xx',
  )
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(40)} ${row.rps.toFixed(0).padStart(7)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(7)} ${`${((row.rps / baseline) * 100).toFixed(0)}%`.padStart(7)}  ${row.errors}/${row.non2xx}`,
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
