/**
 * API throughput on PostgreSQL: autocannon at 50 connections against our server listening on
 * 127.0.0.1 — device list, goods list, usage-log save, order creation placed and refused — and, in the same run, against a
 * raw route (a bare Fastify app on the same database doing one indexed query), as the baseline: the raw
 * route runs just before each of ours, and each is compared with that run. Prints req/s, p50/p99
 * latency and each route's throughput as a share of the raw route's.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/api-throughput.ts
 *
 * (the bench makes its own database on that server and drops it afterwards; DURATION_S=10 by default;
 * ROUTES=devices,devices-br,goods,goods-br,usage,order,orders-spread,order-capped,orders-capped picks
 * routes). Order rows are each of one kind of answer, placed or refused at the unpaid-units cap, and
 * the bench fails when a run's answers are not all of that kind.
 */
import os from 'node:os'
import pg from 'pg'
import { wrapPool } from '../server/src/db/client'
import { createTestDatabase } from '../server/test/helpers/test-database'
import { OrderStatus } from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import type { App } from '../server/src/app'
import {
  benchApp,
  call,
  codesText,
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
/** Seeded zones (server/src/db/seed/catalogue.ts). */
const ZONES = 4
/** More orders a second than any run here has placed: the placed rows' buyers are sized by it. */
const MOST_ORDERS_PER_S = 5_000
/** Units a placed row's buyer may reach within a run, under the cap of 50 (UNPAID_UNITS_CAP). */
const UNITS_PER_BUYER = 40
const PLACED_BUYERS = Math.ceil((MOST_ORDERS_PER_S * DURATION_S) / UNITS_PER_BUYER)

/**
 * `count` buyers signed in by SMS, 20 at a time: numbers 137, the index from `first`, then 1 (the
 * sandbox fails numbers ending in 0000).
 */
async function loginMany(app: App, count: number, first: number) {
  const buyers: { token: string; userId: number }[] = []
  for (let i = 0; i < count; i += 20) {
    const batch = Array.from({ length: Math.min(20, count - i) }, (_, j) =>
      login(app, `137${String(first + i + j).padStart(7, '0')}1`),
    )
    buyers.push(...(await Promise.all(batch)))
  }
  return buyers
}

/** Places one-phone orders for `buyer` until the unpaid-units cap refuses the next. */
async function fillToCap(app: App, buyer: { token: string; userId: number }, order: object) {
  for (let n = 0; ; n++) {
    const response = await app.inject({
      method: 'POST',
      url: '/vmcloud/api/order/createCloudOrder',
      headers: { token: buyer.token, userid: String(buyer.userId) },
      payload: { ...order, idempotencyKey: `fill-to-cap-${buyer.userId}-${n}` },
    })
    const { code, msg } = response.json() as { code: number; msg: string }
    if (code === ResultCode.GOODS_QUANTITY_OVER_LIMIT) return
    if (code !== ResultCode.RESULT_OK) throw new Error(`filling to the cap: ${code} ${msg}`)
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
      app.services.lifecycle.createDevicesForOrder(tx, {
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

  // Buyers for the order rows. An order holds its units until it is paid, cancelled or timed out, and
  // one buyer's unpaid orders hold at most UNPAID_UNITS_CAP.personal: the placed rows send each order as
  // the next of enough buyers that none reaches the cap within a run (their orders are cancelled between
  // rows), so every answer they count placed an order; the refused rows' buyers are at the cap before
  // the run, so every answer is that refusal.
  const placedBuyers = await loginMany(app, PLACED_BUYERS, 0)
  const cappedBuyers = await loginMany(app, CONNECTIONS, PLACED_BUYERS)
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
      token: placedBuyers[0].token,
      userid: String(placedBuyers[0].userId),
    },
    { kind: 'new', goodId: item.goodId, priceId: price.priceId, quantity: 1 },
  )) as { total: number }
  if (buyerQuote.total !== quote.total) throw new Error('a new buyer would pay another price')
  // The same buyers, each ordering its own goods and zone (as a catalogue's buyers spread over it),
  // at each goods' shortest duration, whose price is the same for every buyer and every order.
  const catalogue = goods.flatMap((level) => level.goods)
  const prices = await Promise.all(
    catalogue.map(
      async (good) =>
        (
          (await call(app, 'POST', '/CommodityGroup/getGoodPrice', headers, {
            kind: 'new',
            goodId: good.goodId,
            priceId: good.prices[0].priceId,
            quantity: 1,
          })) as { total: number }
        ).total,
    ),
  )
  const spreadBuyers = placedBuyers.map((buyer, i) => {
    const good = catalogue[i % catalogue.length]
    const zoneId = 1 + (Math.floor(i / catalogue.length) % ZONES)
    const body = {
      goodId: good.goodId,
      priceId: good.prices[0].priceId,
      zoneId,
      expectedAmount: prices[i % catalogue.length],
    }
    return { ...buyer, body }
  })
  for (const buyer of [session, ...cappedBuyers]) await fillToCap(app, buyer, order)
  const placedIds = placedBuyers.map((buyer) => buyer.userId)
  /** The placed rows' orders cancelled, as the timeout job would: their units go back to the buyers. */
  const cancelPlaced = async () => {
    await pool.query(
      `update orders set status = ${OrderStatus.cancelled}, closed_at = now()
        where status = ${OrderStatus.unpaid} and user_id = any($1)`,
      [placedIds],
    )
  }
  const count = async (table: string) =>
    Number((await pool.query(`select count(*) from ${table}`)).rows[0].count)

  interface Route {
    key: string
    name: string
    url: string
    options?: LoadOptions
    /** Rows the route writes, counted before and after the run (a refusal is HTTP 200 too). */
    rowsIn?: string
    /** The one envelope code every answer of the run must carry (a write: placed, or refused). */
    answers?: number
    before?: () => Promise<void>
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
      name: 'POST createCloudOrder: placed',
      url: `${base}/order/createCloudOrder`,
      options: { method: 'POST', body: order, sessions: placedBuyers },
      rowsIn: 'orders',
      answers: ResultCode.RESULT_OK,
      before: cancelPlaced,
    },
    {
      key: 'orders-spread',
      name: 'POST createCloudOrder: placed, spread',
      url: `${base}/order/createCloudOrder`,
      options: { method: 'POST', body: order, sessions: spreadBuyers },
      rowsIn: 'orders',
      answers: ResultCode.RESULT_OK,
      before: cancelPlaced,
    },
    {
      key: 'order-capped',
      name: 'POST createCloudOrder: at the cap, 1 buyer',
      url: `${base}/order/createCloudOrder`,
      options: { method: 'POST', body: order },
      rowsIn: 'orders',
      answers: ResultCode.GOODS_QUANTITY_OVER_LIMIT,
    },
    {
      key: 'orders-capped',
      name: 'POST createCloudOrder: at the cap, 50',
      url: `${base}/order/createCloudOrder`,
      options: { method: 'POST', body: order, sessions: cappedBuyers },
      rowsIn: 'orders',
      answers: ResultCode.GOODS_QUANTITY_OVER_LIMIT,
    },
  ]
  // Each route right after a run of the raw route, and compared with that run: the machine's load
  // drifts (other work, the load generator on the same cores), and a baseline taken minutes earlier
  // would make that drift part of the ratio.
  const only = process.env.ROUTES?.split(',')
  const rows: Paired[] = []
  const mixed: string[] = []
  for (const route of routes) {
    if (only && !only.includes(route.key)) continue
    if (!route.options?.method) await call(app, 'GET', route.url.slice(base.length), headers)
    await route.before?.()
    const rawRow = await load('raw: one indexed query', raw.url, {}, pool)
    const before = route.rowsIn ? await count(route.rowsIn) : 0
    const row = await load(route.name, route.url, { headers, ...route.options }, pool)
    const written = route.rowsIn ? (await count(route.rowsIn)) - before : null
    rows.push({ raw: rawRow, route: row, written })
    const other = Object.keys(row.codes).filter((code) => code !== String(route.answers))
    if (route.answers !== undefined && other.length > 0)
      mixed.push(`${route.name}: ${codesText(row)}`)
  }

  console.log(
    `\n${CONNECTIONS} connections, ${DURATION_S} s each, PostgreSQL, ${os.cpus().length} cores, node ${process.version}\n`,
  )
  printRows(rows)
  if (mixed.length > 0) {
    console.error(`\nrows whose answers are not all of the kind they name:\n${mixed.join('\n')}`)
    process.exitCode = 1
  }
  await raw.close()
  await close()
  await created.close()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
