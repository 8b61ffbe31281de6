/**
 * 自动续费 at a studio's scale on PostgreSQL: 10,000 phones falling due on one day, renewed by the
 * auto-renew job (runs of it as the scheduler makes them, each claiming batches of 1,000 until nothing is
 * due or its budget is spent), against the baseline of the same run: the same studio's phones renewed by
 * hand in one batch order (quote, order, beans payment, delivery). Printed: each one's time, statements
 * sent to PostgreSQL (bench/lib/pg-timing.ts) and statements per phone, the longest transaction, and how
 * many runs of the job it took. Every phone is checked renewed exactly once and the beans paid equal to the
 * orders' amounts.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres node --import tsx bench/auto-renew.ts
 *
 * (its own database from the test template, dropped afterwards; PHONES=10000 by default, BENCH_SHORT=1:
 * 200). The supplier sync that follows a renewal is the same for both and is not drained.
 */
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { and, eq, sql } from 'drizzle-orm'
import type { App } from '../server/src/app'
import { devices, orders } from '../server/src/db/schema'
import { autoRenewJob } from '../server/src/jobs/auto-renew'
import { createTestDatabase } from '../server/test/helpers/test-database'
import { STUDIO_GOOD, writeStudioPhones } from '../e2e/fixtures/studio-phones'
import { benchApp, call, login } from './lib/api-load'
import { timing } from './lib/pg-timing'

const SHORT = process.env.BENCH_SHORT === '1'
const PHONES = Number(process.env.PHONES ?? (SHORT ? 200 : 10_000))
/** Seeded catalogue (server/src/db/seed/catalogue.ts): the studio's 畅享版 4核4G, its 30-day price. */
const PRICE_30_DAYS = STUDIO_GOOD * 10 + 3
const DAY = 86_400_000

if (!process.env.TEST_DATABASE_URL) {
  console.error('auto-renew measures PostgreSQL: set TEST_DATABASE_URL')
  process.exit(2)
}

interface Result {
  label: string
  ms: number
  statements: number
  longestTxMs: number
  runs: number
}

const pg = timing()

const auth = (session: { token: string; userId: number }) => ({
  token: session.token,
  userid: String(session.userId),
})

/** A studio of `size` running phones, every one expiring within the next day (all due at once). */
async function dueStudio(app: App, mobile: string) {
  const session = await login(app, mobile)
  const { db } = app.services.ctx
  const ids = await writeStudioPhones(db, session.userId, PHONES)
  await db.execute(sql`update devices set expire_at = now() + interval '20 hours'
    + (id % 3600) * interval '1 second' where user_id = ${session.userId}`)
  // enough beans for two renewals of every phone
  const price = await app.services.orders.draft(session.userId, {
    kind: 'renew',
    priceId: PRICE_30_DAYS,
    deviceIds: ids,
  })
  await db.transaction((tx) =>
    app.services.beans.credit(tx, session.userId, price.amount * 2, { reason: 'grant' }),
  )
  return { session, ids, amount: price.amount }
}

async function expiries(app: App, userId: number) {
  const rows = await app.services.ctx.db
    .select({ id: devices.id, expireAt: devices.expireAt })
    .from(devices)
    .where(eq(devices.userId, userId))
  return new Map(rows.map((row) => [row.id, row.expireAt.getTime()]))
}

function checkRenewedOnce(before: Map<number, number>, after: Map<number, number>) {
  for (const [id, expireAt] of before) {
    if (after.get(id) !== expireAt + 30 * DAY) {
      throw new Error(`phone ${id}: expiry ${after.get(id)} is not ${expireAt} + 30 days`)
    }
  }
}

async function byHand(app: App): Promise<Result> {
  const { session, ids, amount } = await dueStudio(app, '13900009971')
  const before = await expiries(app, session.userId)
  pg.reset()
  const t0 = performance.now()
  const quote = await call(app, 'POST', '/CommodityGroup/getGoodPrice', auth(session), {
    kind: 'renew',
    deviceIds: ids,
    priceId: PRICE_30_DAYS,
  })
  const order = (await call(app, 'POST', '/order/createRenewOrder', auth(session), {
    deviceIds: ids,
    priceId: PRICE_30_DAYS,
    expectedAmount: (quote as { total: number }).total,
    idempotencyKey: `bench-hand-${Date.now()}`,
  })) as { orderNo: string }
  await call(app, 'POST', '/pay/createPayment', auth(session), {
    orderNo: order.orderNo,
    payMethod: 3,
  })
  const [row] = await app.services.ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.orderNo, order.orderNo))
  await app.services.fulfilment.fulfil(row.id)
  const ms = performance.now() - t0
  const result = {
    label: `by hand: one batch order of ${PHONES}`,
    ms,
    statements: pg.statements,
    longestTxMs: pg.longestTx,
    runs: 1,
  }
  checkRenewedOnce(before, await expiries(app, session.userId))
  if ((await app.services.beans.balance(session.userId, app.services.ctx.db)) !== amount) {
    throw new Error('by hand: the beans paid are not the order amount')
  }
  return result
}

async function automatically(app: App): Promise<Result> {
  const { session, ids, amount } = await dueStudio(app, '13900009972')
  await call(app, 'POST', '/device/autoRenew', auth(session), {
    deviceIds: ids,
    enabled: true,
    days: 30,
    payMethod: 3,
  })
  const before = await expiries(app, session.userId)
  const job = autoRenewJob(app.services)
  pg.reset()
  const t0 = performance.now()
  let runs = 0
  for (;;) {
    runs++
    await job.run({}, new Date())
    const [{ left }] = await app.services.ctx.db
      .select({ left: sql<number>`count(*)::integer` })
      .from(devices)
      .where(
        and(
          eq(devices.userId, session.userId),
          sql`${devices.expireAt} < now() + interval '2 days'`,
        ),
      )
    if (Number(left) === 0 || runs > 50) break
  }
  const ms = performance.now() - t0
  const result = {
    label: `auto-renew job: ${PHONES} due`,
    ms,
    statements: pg.statements,
    longestTxMs: pg.longestTx,
    runs,
  }
  checkRenewedOnce(before, await expiries(app, session.userId))
  const paid = await app.services.ctx.db
    .select({ sum: sql<number>`sum(${orders.amount})::integer` })
    .from(orders)
    .where(and(eq(orders.userId, session.userId), eq(orders.status, 2)))
  const balance = await app.services.beans.balance(session.userId, app.services.ctx.db)
  if (balance !== amount * 2 - Number(paid[0].sum) || Number(paid[0].sum) !== amount) {
    throw new Error(`auto-renew: paid ${paid[0].sum}, balance ${balance}, expected ${amount}`)
  }
  return result
}

async function main() {
  const database = await createTestDatabase()
  const { app, close } = await benchApp(database)
  try {
    const results = [await byHand(app), await automatically(app)]
    console.log(
      `\n自动续费 of ${PHONES} due phones on PostgreSQL (${os.cpus().length} cores, ${os.loadavg()[0].toFixed(1)} load)\n`,
    )
    console.log(
      `${''.padEnd(40)}${'ms'.padStart(10)}${'statements'.padStart(12)}${'per phone'.padStart(11)}${'longest tx'.padStart(12)}${'runs'.padStart(6)}`,
    )
    for (const r of results) {
      console.log(
        `${r.label.padEnd(40)}${r.ms.toFixed(0).padStart(10)}${String(r.statements).padStart(12)}` +
          `${(r.statements / PHONES).toFixed(3).padStart(11)}${r.longestTxMs.toFixed(0).padStart(12)}${String(r.runs).padStart(6)}`,
      )
    }
    const [hand, auto] = results
    console.log(
      `\njob / by hand: time ×${(auto.ms / hand.ms).toFixed(2)}, statements ×${(auto.statements / Math.max(1, hand.statements)).toFixed(2)}`,
    )
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
