/**
 * A studio's batch renewal on PostgreSQL: for a studio of 20 phones (the baseline) and one of
 * 10,000, in the same run, the time of each step a buyer goes through — the quote, the order, the
 * payment (beans), the delivery (the fulfil-order job: every expiry extended in one transaction) and
 * the supplier sync of every phone (the sync jobs, drained by one worker as one server instance does) —
 * printed with the ratio of 10,000 to 20, and per phone.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres node --import tsx bench/batch-renew.ts
 *
 * (the bench makes its own database on that server from the test template and drops it afterwards;
 * SIZES=20,10000 by default). The phones and their sandbox-supplier instances are written directly:
 * provisioning 10,000 phones through the supplier is not what is measured.
 */
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { and, eq, sql } from 'drizzle-orm'
import type { App } from '../server/src/app'
import { jobs } from '../server/src/db/schema'
import { SYNC_JOB } from '../server/src/services/devices/device-lifecycle'
import { createTestDatabase } from '../server/test/helpers/test-database'
import { STUDIO_GOOD, writeStudioPhones } from '../e2e/fixtures/studio-phones'
import { benchApp } from './lib/api-load'

/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): 20 vs 200 phones. */
const SHORT = process.env.BENCH_SHORT === '1'
const SIZES = (process.env.SIZES ?? (SHORT ? '20,200' : '20,10000')).split(',').map(Number)
/** Seeded catalogue (server/src/db/seed/catalogue.ts): the studio's 畅享版 4核4G, its 30-day price. */
const PRICE_30_DAYS = STUDIO_GOOD * 10 + 3

if (!process.env.TEST_DATABASE_URL) {
  console.error('batch-renew measures PostgreSQL: set TEST_DATABASE_URL')
  process.exit(2)
}

async function call<T>(
  app: App,
  url: string,
  session: { token: string; userId: number } | null,
  body?: object,
  query = '',
) {
  const response = await app.inject({
    method: body ? 'POST' : 'GET',
    url: `/vmcloud/api${url}${query}`,
    headers: session ? { token: session.token, userid: String(session.userId) } : {},
    payload: body,
  })
  const json = response.json() as { code: number; msg: string; data: T }
  if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`)
  return json.data
}

async function login(app: App, mobilePhone: string) {
  await call(app, '/sms/sendSmsCode', null, { mobilePhone, type: 'login' })
  const sms = await call<{ code: string }>(
    app,
    '/sandbox/sms/last',
    null,
    undefined,
    `?mobilePhone=${mobilePhone}`,
  )
  return call<{ token: string; userId: number }>(app, '/common/userLogin/confirm', null, {
    mobilePhone,
    code: sms.code,
  })
}

interface Timing {
  size: number
  quoteMs: number
  orderMs: number
  payMs: number
  deliverMs: number
  syncMs: number
  totalMs: number
  progressPolls: number
}

async function measure(app: App, size: number, phone: string): Promise<Timing> {
  const { db } = app.services.ctx
  const session = await login(app, phone)
  const ids = await writeStudioPhones(app.services.ctx.db, session.userId, size)
  // only this studio's jobs are due: anything left from setting up is done first
  while ((await app.jobs.runDue(1000)) > 0);

  const t0 = performance.now()
  const quote = await call<{ total: number }>(app, '/CommodityGroup/getGoodPrice', session, {
    kind: 'renew',
    deviceIds: ids,
    priceId: PRICE_30_DAYS,
  })
  const t1 = performance.now()
  const order = await call<{ orderNo: string; amount: number }>(
    app,
    '/order/createRenewOrder',
    session,
    {
      deviceIds: ids,
      priceId: PRICE_30_DAYS,
      expectedAmount: quote.total,
      idempotencyKey: `bench-${size}-${Date.now()}`,
    },
  )
  const t2 = performance.now()
  await db.transaction((tx) =>
    app.services.beans.credit(tx, session.userId, order.amount, { reason: 'grant' }),
  )
  const t2b = performance.now()
  await call(app, '/pay/createPayment', session, { orderNo: order.orderNo, payMethod: 3 })
  const t3 = performance.now()
  // the fulfil-order job is the one due now
  await app.jobs.runDue(1)
  const t4 = performance.now()
  let polls = 0
  for (;;) {
    const info = await call<{ status: number; progress?: { done: number; total: number } }>(
      app,
      '/order/getOrderInfo',
      session,
      undefined,
      `?orderNo=${order.orderNo}`,
    )
    polls++
    if (info.status !== 2) throw new Error(`order ${order.orderNo} ended ${info.status}`)
    if (info.progress && info.progress.done >= info.progress.total) break
    await app.jobs.runDue(500)
  }
  const t5 = performance.now()
  const [left] = await db
    .select({ n: sql<number>`count(*)::integer` })
    .from(jobs)
    .where(and(eq(jobs.kind, SYNC_JOB), sql`${jobs.status} <> 'done'`))
  if (Number(left.n) !== 0) throw new Error(`${left.n} sync jobs not done`)
  return {
    size,
    quoteMs: t1 - t0,
    orderMs: t2 - t1,
    payMs: t3 - t2b,
    deliverMs: t4 - t3,
    syncMs: t5 - t4,
    totalMs: t5 - t0 - (t2b - t2),
    progressPolls: polls,
  }
}

async function main() {
  const database = await createTestDatabase()
  const { app, close } = await benchApp(database)
  try {
    const results: Timing[] = []
    for (const [i, size] of SIZES.entries()) {
      results.push(await measure(app, size, `1390000998${i}`))
    }
    const base = results[0]
    const rows: [string, keyof Timing][] = [
      ['quote (ms)', 'quoteMs'],
      ['order creation (ms)', 'orderMs'],
      ['payment, beans (ms)', 'payMs'],
      ['delivery: every expiry (ms)', 'deliverMs'],
      ['supplier sync of every phone (ms)', 'syncMs'],
      ['quote → last phone synced (ms)', 'totalMs'],
    ]
    console.log(
      `\nBatch renewal on PostgreSQL (${os.cpus().length} cores, ${os.loadavg()[0].toFixed(1)} load)\n`,
    )
    console.log(
      `${'phones'.padEnd(36)}${results.map((r) => String(r.size).padStart(12)).join('')}   ratio   per phone (ms)`,
    )
    for (const [label, key] of rows) {
      const last = results.at(-1)!
      console.log(
        `${label.padEnd(36)}${results.map((r) => r[key].toFixed(0).padStart(12)).join('')}` +
          `  ×${(last[key] / Math.max(1, base[key])).toFixed(1)}`.padEnd(10) +
          results.map((r) => (r[key] / r.size).toFixed(2).padStart(8)).join(''),
      )
    }
  } finally {
    await close()
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
