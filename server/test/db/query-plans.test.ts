/**
 * Query plans at scale. The server runs on a database where every table that grows with
 * users holds tens of thousands of rows (bench/lib/scale-seed.ts PLAN_TEST): enough that PostgreSQL
 * reads a selective lookup through an index when one fits and must read the whole table when none
 * does. A user, a studio and an operator then go through the lists and lookups of the app and the
 * console, and the jobs run once; every statement they sent is collected from drizzle's logger and
 * EXPLAINed with the parameters it ran with. A sequential scan of a growing table fails the test,
 * naming the statement: at a million rows that read is what makes a route slow.
 *
 * PostgreSQL only (TEST_DATABASE_URL): PGlite's planner is the same, but making the data there takes
 * minutes. The plans are the custom plans of the parameters seen; see docs/performance.md "Scale".
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import pg from 'pg'
import { isGrowing, PLAN_TEST, scaleMobile, seedScale } from '../../../bench/lib/scale-seed'
import type { Device } from '../../src/contract/device'
import type { OrderInfo } from '../../src/contract/order'
import { wrapPool } from '../../src/db/client'
import { createTestDatabase } from '../helpers/test-database'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import { INSTANT_SUPPLIER } from '../helpers/test-config'
import { adminCall, createOperator, signIn } from '../console/helpers'
import { createCloudOrder, GOODS, priceOf, quote, newKey } from '../helpers/commerce'

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Total Cost': number
  Plans?: PlanNode[]
}

/**
 * A Limit right above a scan stops it early; the planner expects it to read its cost share of the
 * table. Reading at most this share is not reading the table (e.g. the console's order count, capped
 * at 10,001 rows, over a filter half the orders match).
 */
const EARLY_STOP_SHARE = 0.1

/**
 * Statements that read a growing table whole by design, each with why. Keep this short: an entry here
 * is a cost that grows with the data (docs/performance.md "Scale" gives each one's figure).
 */
const WHOLE_READS_BY_DESIGN: { statement: RegExp; why: string }[] = [
  {
    statement: /from "user_coupons" group by "user_coupons"."template_id"/,
    why: "优惠券 statistics count every template's coupons (an index-only scan at scale: 0.12 s at 2M)",
  },
  {
    statement: /^select "status", count\(\*\) from "devices" where "devices"."status" in/,
    why: '概览 counts the live and failed phones by status (0.11 s at 1M phones)',
  },
  {
    statement: /^select count\(\*\) from "devices"$/,
    why: "云手机's list without a filter counts every phone (0.06 s at 1M phones)",
  },
]

/** The growing tables the plan reads whole. */
function fullScans(node: PlanNode, parent?: PlanNode, found: string[] = []): string[] {
  const table = node['Relation Name']
  if (node['Node Type'] === 'Seq Scan' && table && isGrowing(table)) {
    const stopsEarly =
      parent?.['Node Type'] === 'Limit' &&
      parent['Total Cost'] <= node['Total Cost'] * EARLY_STOP_SHARE
    if (!stopsEarly) found.push(table)
  }
  for (const child of node.Plans ?? []) fullScans(child, node, found)
  return found
}

async function ok<T>(reply: Promise<{ code: number; msg: string; data: T }>, what: string) {
  const { code, msg, data } = await reply
  assert.equal(code, 200, `${what}: ${code} ${msg}`)
  return data
}

/** What a signed-in user reads: every list and lookup of the app, with the ids they lead to. */
async function userTour(ta: TestApp, session: Session) {
  const { app } = ta
  const page = (url: string) => ok(get(app, url, session), url)
  await page('/user/getUserInfo')
  await page('/user/flux')
  const list = await page('/device/list?page=1&rows=20')
  await page('/device/list?page=3&rows=20&status=1')
  await page('/device/list?page=1&rows=20&keyword=%E4%BA%91%E6%89%8B%E6%9C%BA1')
  await page('/device/list?page=1&rows=20&groupId=0')
  const groups = (await page('/group/list')) as { id: number }[]
  if (groups[0]) await page(`/device/list?page=1&rows=20&groupId=${groups[0].id}`)
  await page('/device/summary')
  const devices = (list as { records: Device[] }).records
  const device = devices[0]
  if (device) {
    await page(`/device/detail?deviceId=${device.deviceId}`)
    await page(`/space/device?deviceId=${device.deviceId}`)
  }
  for (const direction of ['in', 'out']) {
    await page(`/device/empower/list?direction=${direction}&page=2`)
    await page(`/device/transfer/list?direction=${direction}`)
  }
  await page('/message/list?page=1&rows=10')
  await page('/message/list?page=2&rows=10&type=1')
  await page('/message/getUnreadCount')
  await ok(post(app, '/message/read', { all: true }, session), 'message/read')
  await page('/message/getSettings')
  for (const status of [1, 2, 3]) await page(`/coupon/list?status=${status}`)
  await page('/coupon/usage')
  const orders = (await page('/order/list?page=1&rows=10')) as { records: OrderInfo[] }
  await page('/order/list?page=5&rows=10')
  if (orders.records[0]) await page(`/order/getOrderInfo?orderNo=${orders.records[0].orderNo}`)
  await page('/wallet/beanLedger?page=1&rows=10')
  await page('/wallet/beanLedger?page=4&rows=10&startTime=0&endTime=4102444800000')
  await page('/pay/beanBalance')
  await page('/wallet/accountBalance')
  await page('/activation/myCodes')
  await page('/space/info')
  await page('/space/history?page=1&rows=10')
  await page('/invite/list')
  await page('/customer/feedback/list')
  await ok(
    post(
      app,
      '/userUsageLog/saveUserUsageLog',
      {
        logId: `plan-${newKey()}`,
        client: 'h5',
        version: 248,
        terminalType: 'android',
        accessingPages: 'pages/Home/index',
        exitMark: 0,
      },
      session,
    ),
    'saveUserUsageLog',
  )
  const running = devices.filter((d) => d.status === 1).slice(0, 3)
  if (running.length > 0) {
    const priceId = priceOf(running[0].goodId ?? GOODS.enjoyB, 30)
    const { total } = await quote(ta, session, {
      kind: 'renew',
      deviceIds: running.map((d) => d.deviceId),
      priceId,
    })
    await ok(
      post(
        app,
        '/order/createRenewOrder',
        {
          deviceIds: running.map((d) => d.deviceId),
          priceId,
          expectedAmount: total,
          idempotencyKey: newKey(),
        },
        session,
      ),
      'createRenewOrder',
    )
  }
  await ok(createCloudOrder(ta, session), 'createCloudOrder')
}

test(
  'no list, lookup or job reads a growing table from end to end',
  {
    skip: !process.env.TEST_DATABASE_URL && 'needs PostgreSQL (TEST_DATABASE_URL)',
    timeout: 600_000,
  },
  async (t) => {
    /** Each statement sent, with the parameters of its first run. */
    const statements = new Map<string, unknown[]>()
    const database = await createTestDatabase({
      logger: {
        logQuery(query, params) {
          if (!statements.has(query)) statements.set(query, params)
        },
      },
    })
    assert.equal(database.kind, 'postgres')
    if (database.kind !== 'postgres') return
    const ta = await buildTestApp(t, { database, config: INSTANT_SUPPLIER })
    const seeding = await database.pool.connect()
    // No autovacuum on this database's tables: a run of it beside the seeder's own `vacuum analyze`
    // (a server with default settings starts one once the seeder's inserts pass its threshold) left
    // a table's statistics or visibility map other than the seeder's, and a plan flipped once.
    await seeding.query(`do $$ declare t record; begin
      for t in select tablename from pg_tables where schemaname = 'public' loop
        execute format('alter table %I set (autovacuum_enabled = false)', t.tablename);
      end loop; end $$`)
    await seedScale(seeding, PLAN_TEST, { now: ta.clock.now() })
    seeding.release()
    statements.clear() // the seeding's own statements are not the app's

    const ordinary = await loginWithSms(ta, scaleMobile(PLAN_TEST.studios + 500))
    const studio = await loginWithSms(ta, scaleMobile(1))
    await userTour(ta, ordinary)
    await userTour(ta, studio)

    const created = await createOperator(ta, 'plans', 'admin')
    const as = await signIn(ta, created)
    const admin = async (url: string, query: Record<string, string> = {}) => {
      const reply = await adminCall(ta, 'GET', url, { as, query })
      assert.equal(reply.code, 200, `${url}: ${reply.code} ${reply.msg}`)
      return reply.data
    }
    await admin('/overview')
    for (const q of [scaleMobile(42), '0042', '42', '']) await admin('/users', { q })
    await admin('/users', { companyStatus: '2' })
    await admin(`/users/${ordinary.userId}`)
    await admin(`/users/1`)
    for (const q of ['', 'SC00000000000042', '42', scaleMobile(42)]) await admin('/orders', { q })
    await admin('/orders', { status: '2', kind: 'renew', page: '3' })
    await admin('/orders', { from: String(ta.clock.now().getTime() - 7 * 86_400_000) })
    await admin('/orders/42')
    const searches: Record<string, string>[] = [
      {},
      { user: '42' },
      { user: scaleMobile(42) },
      { instanceId: 'scale-42' },
      { deviceId: '42' },
      { status: '5' },
    ]
    for (const query of searches) await admin('/devices', query)
    await admin('/devices/42')
    await admin('/jobs')
    await admin('/jobs', { state: 'stuck' })
    await admin('/coupons/templates')
    await admin('/messages')
    await admin('/audit')

    // The jobs: each recurring one runs once, a day on, with the data's times around the clock.
    await ta.app.jobs.ensureRecurring()
    ta.clock.advance(86_400_000)
    await ta.app.jobs.runDue(1_000)

    const offenders: string[] = []
    let explained = 0
    for (const [sql, params] of statements) {
      if (!/^\s*(select|update|delete|insert|with)\b/i.test(sql)) continue
      if (WHOLE_READS_BY_DESIGN.some(({ statement }) => statement.test(sql))) continue
      const { rows } = await database.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (format json) ${sql}`,
        params,
      )
      explained++
      const scanned = fullScans(rows[0]['QUERY PLAN'][0].Plan)
      if (scanned.length > 0) offenders.push(`${scanned.join(', ')} ← ${sql.slice(0, 300)}`)
    }
    t.diagnostic(`${explained} statements explained`)
    assert.ok(explained > 100, `only ${explained} statements were explained`)
    assert.deepEqual(offenders, [], 'sequential scans of growing tables')

    // A user's lists keep one plan for their first page (server/src/db/page-with-total.ts): a second
    // app on one connection, so the statements it prepares are the ones this session's
    // pg_prepared_statements shows. (A later page has an OFFSET PostgreSQL cannot see: whether it keeps
    // a plan for it depends on the data, and on the large database it does not.)
    const pool = new pg.Pool({
      connectionString: database.pool.options.connectionString,
      max: 1,
    })
    const second = await buildTestApp(t, { database: wrapPool(pool) })
    const calls = 8
    for (let i = 0; i < calls; i++) {
      for (const [route] of LISTS) {
        for (const page of ['1', '2']) {
          await ok(get(second.app, route, ordinary, { page, rows: '10' }), `${route} page ${page}`)
        }
      }
    }
    const { rows: prepared } = await pool.query<{ name: string; generic_plans: string }>(
      'select name, generic_plans from pg_prepared_statements',
    )
    for (const [route, prefix] of LISTS) {
      // PostgreSQL makes five custom plans before it weighs the generic one (a page 2 past the end
      // reads the first page again, so the first page's statement may have run more often)
      const first = prepared.find(({ name }) => name.startsWith(prefix) && name.endsWith('1'))
      const generic = Number(first?.generic_plans ?? 0)
      assert.ok(generic >= calls - 5, `${route}, first page: ${generic} generic plans`)
    }
  },
)

/** A user's paged lists and the prefix of their prepared statements' names. */
const LISTS = [
  ['/message/list', 'message_list_'],
  ['/coupon/list', 'coupon_list_'],
  ['/wallet/beanLedger', 'bean_ledger_'],
] as const
