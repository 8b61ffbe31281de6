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
import os from 'node:os'
import pg from 'pg'
import { wrapPool } from '../server/src/db/client'
import { createTestDatabase } from '../server/test/helpers/test-database'
import {
  benchApp,
  call,
  CONNECTIONS,
  DURATION_S,
  load,
  login,
  printRows,
  startRawRoute,
  type LoadOptions,
  type Paired,
} from './lib/api-load'

const FLEET = 200
/** Seeded zones (server/src/db/seed-catalogue.ts). */
const ZONES = 4

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
  const { app, close } = await benchApp(database)
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

  const raw = await startRawRoute(pool.options.connectionString as string, session.userId)

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
  const rows: Paired[] = []
  for (const route of routes) {
    if (only && !only.includes(route.key)) continue
    if (!route.options?.method) await call(app, 'GET', route.url.slice(base.length), headers)
    const rawRow = await load('raw: one indexed query', raw.url)
    const before = route.rowsIn ? await count(route.rowsIn) : 0
    const row = await load(route.name, route.url, { headers, ...route.options })
    const written = route.rowsIn ? (await count(route.rowsIn)) - before : null
    rows.push({ raw: rawRow, route: row, written })
  }

  console.log(
    `\n${CONNECTIONS} connections, ${DURATION_S} s each, PostgreSQL, ${os.cpus().length} cores, node ${process.version}\n`,
  )
  printRows(rows)
  await raw.close()
  await close()
  await created.close()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
