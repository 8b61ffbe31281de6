/**
 * The API at scale: the same routes, on the same PostgreSQL server, against a small and a
 * large database made by bench/seed-scale.ts (SMALL: 1,000 users; LARGE: 100,000 users, 1,000,000
 * phones, 5,000,000 orders). Both have the same data per ordinary user (about 9 phones, 50 orders, 20
 * messages), so what differs is only how much there is around them. Each route runs at 50 connections,
 * one signed-in ordinary user per connection, right after the raw one-query route on the same database
 * (bench/lib/api-load.ts), on both databases one after the other. Prints both tables, then per route p99 large/small (target ≤ 1.2) and the
 * share of the raw route at the large size (target ≥ 70%).
 *
 *   SMALL_DATABASE_URL=postgres://…/scale_small LARGE_DATABASE_URL=postgres://…/scale_large \
 *     node --import tsx bench/api-scale.ts
 *
 * Orders the run creates are cancelled afterwards. DURATION_S=10 by default; ROUNDS=3 pairs of the raw
 * route and the route, the median shown; ROUTES=devices,goods,order,usage,unread,coupons,beans,messages
 * picks routes.
 */
import os from 'node:os'
import pg from 'pg'
import { wrapPool } from '../server/src/db/client'
import {
  benchApp,
  call,
  CONNECTIONS,
  DURATION_S,
  load,
  login,
  printRows,
  SHORT,
  startRawRoute,
  type LoadOptions,
  type Paired,
} from './lib/api-load'
import { LARGE, scaleMobile } from './lib/scale-seed'

interface Route {
  key: string
  name: string
  path: string
  options?: LoadOptions
  rowsIn?: string
}

/** Raw-then-route pairs per route and database, the median one shown (see run); one when short. */
const ROUNDS = Number(process.env.ROUNDS ?? (SHORT ? 1 : 3))

/** Ordinary users (past the studios) spread over the first 1,000 ids, the same in both databases. */
const userIds = Array.from({ length: CONNECTIONS }, (_, i) => LARGE.studios + 2 + i * 17)

/** One database's app, sessions, raw route and routes, ready to load route by route. */
async function openSide(url: string) {
  // the pool a production server opens (10), no connection closed for idling (see api-throughput.ts)
  const pool = new pg.Pool({ connectionString: url, idleTimeoutMillis: 0 })
  const database = wrapPool(pool)
  const { app, close: closeApp } = await benchApp(database)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/vmcloud/api`
  const sessions: Awaited<ReturnType<typeof login>>[] = []
  // the bench signs its users in by SMS on every run: their earlier codes go, so a second run within a
  // minute or a tenth run in a day is not refused (验证码已发送 / 今日短信次数已用完)
  const mobiles = userIds.map(scaleMobile)
  await pool.query('delete from sms_codes where mobile_phone = any($1)', [mobiles])
  for (const mobile of mobiles) sessions.push(await login(app, mobile))
  const raw = await startRawRoute(url, sessions[0].userId)
  const [{ max: lastOrder }] = (await pool.query('select max(id)::int as max from orders')).rows
  await pool.query('update goods_stock_slots set stock = 1000000')

  const goods = (await call(app, 'GET', '/CommodityGroup/getGoodsList')) as {
    goods: { goodId: number; prices: { priceId: number }[] }[]
  }[]
  const item = goods[0].goods[0]
  const headers = (session: { token: string; userId: number }) => ({
    token: session.token,
    userid: String(session.userId),
    'content-type': 'application/json',
  })
  // every buyer pays the same: none of these users is new (each has orders), so no first-order price
  const quote = (await call(app, 'POST', '/CommodityGroup/getGoodPrice', headers(sessions[0]), {
    kind: 'new',
    goodId: item.goodId,
    priceId: item.prices[0].priceId,
    quantity: 1,
  })) as { total: number }
  const read = (key: string, name: string, routePath: string): Route => ({
    key,
    name,
    path: routePath,
    options: { sessions },
  })
  const routes: Route[] = [
    read('devices', 'GET /device/list', '/device/list?rows=20'),
    read('goods', 'GET /CommodityGroup/getGoodsList', '/CommodityGroup/getGoodsList'),
    {
      key: 'order',
      name: 'POST /order/createCloudOrder',
      path: '/order/createCloudOrder',
      options: {
        method: 'POST',
        sessions,
        body: {
          goodId: item.goodId,
          priceId: item.prices[0].priceId,
          zoneId: 1,
          quantity: 1,
          expectedAmount: quote.total,
          idempotencyKey: '[<id>]',
        },
      },
      rowsIn: 'orders',
    },
    {
      key: 'usage',
      name: 'POST /userUsageLog/saveUserUsageLog',
      path: '/userUsageLog/saveUserUsageLog',
      options: {
        method: 'POST',
        sessions,
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
    read('unread', 'GET /message/getUnreadCount', '/message/getUnreadCount'),
    read('coupons', 'GET /coupon/list', '/coupon/list?status=1'),
    read('beans', 'GET /wallet/beanLedger', '/wallet/beanLedger?page=1&rows=10'),
    read('messages', 'GET /message/list', '/message/list?page=1&rows=10'),
  ]
  const count = async (table: string) =>
    Number((await pool.query(`select count(*) from ${table}`)).rows[0].count)
  const cancelBenchOrders = async () => {
    await pool.query(
      'update orders set status = 3, closed_at = now() where id > $1 and status = 0',
      [lastOrder],
    )
  }
  /**
   * Loads the route ROUNDS times, each right after the raw route, and keeps the round whose share of the
   * raw route is the median: on a shared 2-core machine one 10 s stretch can run at two thirds of the
   * speed of the next, and a single pair then decides the share by chance.
   */
  async function run(route: Route): Promise<Paired> {
    const rounds: Paired[] = []
    for (let round = 0; round < ROUNDS; round++) rounds.push(await runOnce(route))
    const share = (paired: Paired) => paired.route.rps / paired.raw.rps
    rounds.sort((a, b) => share(a) - share(b))
    return rounds[Math.floor(rounds.length / 2)]
  }

  /** Loads one route right after the raw route, counting the rows it wrote. */
  async function runOnce(route: Route): Promise<Paired> {
    // a read answers 200 before it is loaded (a refusal would be measured as fast)
    if (!route.options?.method) await call(app, 'GET', route.path, headers(sessions[0]))
    const rawRow = await load('raw: one indexed query', raw.url)
    const before = route.rowsIn ? await count(route.rowsIn) : 0
    // An ordinary user may hold 50 units in unpaid orders (users_unpaid_units_cap): the bench's
    // orders are cancelled as they come, as the timeout job would 15 minutes on, so the load keeps
    // making orders instead of meeting that refusal.
    const cancelling =
      route.rowsIn === 'orders'
        ? setInterval(() => void cancelBenchOrders().catch(console.error), 200)
        : null
    const row = await load(route.name, `${base}${route.path}`, {
      headers: headers(sessions[0]),
      ...route.options,
    })
    if (cancelling) clearInterval(cancelling)
    const written = route.rowsIn ? (await count(route.rowsIn)) - before : null
    return { raw: rawRow, route: row, written }
  }

  async function close() {
    // the bench's orders are cancelled, as the timeout job would (their units go back to the buyers
    // by the orders trigger); not deleted: nothing deletes orders, so nothing indexes the ledgers'
    // order ids for it (server/test/db/foreign-key-indexes.test.ts), and a delete reads them whole
    await cancelBenchOrders()
    await raw.close()
    await closeApp()
  }

  return { routes, run, close }
}

async function main() {
  const small = process.env.SMALL_DATABASE_URL
  const large = process.env.LARGE_DATABASE_URL
  if (!small || !large) {
    throw new Error('set SMALL_DATABASE_URL and LARGE_DATABASE_URL (made by bench/seed-scale.ts)')
  }
  const only = process.env.ROUTES?.split(',')
  console.log(
    `${CONNECTIONS} connections, ${DURATION_S} s each, PostgreSQL, ${os.cpus().length} cores, node ${process.version}`,
  )
  const sides = [await openSide(small), await openSide(large)]
  const rows: Paired[][] = [[], []]
  try {
    // Route by route, small then large then small first again: both sizes of a route are measured
    // minutes apart at most, so the machine's drift (other work on its 2 cores) stays out of the ratio.
    let turn = 0
    for (const [i, route] of sides[0].routes.entries()) {
      if (only && !only.includes(route.key)) continue
      for (const side of turn++ % 2 === 0 ? [0, 1] : [1, 0]) {
        rows[side].push(await sides[side].run(sides[side].routes[i]))
      }
    }
  } finally {
    for (const side of sides) await side.close()
  }
  for (const [side, label] of ['small', 'large'].entries()) {
    console.log(`\n${label}\n`)
    printRows(rows[side])
  }
  console.log(
    '\nroute                                      p99 small  p99 large  large/small  of raw (large)',
  )
  rows[1].forEach(({ route, raw }, i) => {
    const before = rows[0][i].route
    console.log(
      [
        route.name.padEnd(41),
        `${before.p99} ms`.padStart(9),
        `${route.p99} ms`.padStart(10),
        `${(route.p99 / Math.max(1, before.p99)).toFixed(2)}×`.padStart(12),
        `${((route.rps / raw.rps) * 100).toFixed(0)}%`.padStart(15),
      ].join(' '),
    )
  })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
