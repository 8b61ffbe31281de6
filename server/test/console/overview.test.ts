/**
 * The console's 概览 route: every role reads it, no session and a user's token are refused; paid
 * orders and provider revenue today and for each of the last 30 China business days (empty days 0, the day
 * turning at Shanghai midnight, the window moving with the clock), live and creating phones, failed phones
 * and failed or stuck jobs now and of the last 24 h, and stock per goods × zone with its low-stock flag.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq, sql } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { PayMethod } from '#domain/order-status'
import { OPERATOR_ROLES } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type { AdminOverview } from '../../src/console/contract/overview'
import {
  devices,
  goods,
  goodsInventory,
  goodsStockSlots,
  jobs,
  orders,
  zones,
} from '../../src/db/schema'
import { enqueueJob } from '../../src/job-queue'
import { STUCK_AFTER_MS } from '../../src/console/services/devices'
import { LOW_STOCK_THRESHOLD, OVERVIEW_DAYS } from '../../src/console/services/overview'
import { PROVISION_JOB } from '../../src/services/devices/device-lifecycle'
import { BEANS, credit } from '../../src/services/wallet/ledger'
import type { CreatedOperator } from '../../src/console/contract'
import { adminCall, createOperator, signIn } from './helpers'
import {
  commerceApp,
  createCloudOrder,
  GOODS,
  newBuyer,
  payWithSandbox,
  setStock,
  ZONES,
} from '../helpers/commerce'
import { deviceRow, givePhones, runningPhones, settle } from '../helpers/fleet'
import { buildTestApp, loginWithSms, post, type Session, type TestApp } from '../helpers/test-app'

const DAY_MS = 86_400_000

/** GET /overview, signed in afresh (the tests move the clock past a session's life). */
async function overview(ta: TestApp, operator: CreatedOperator): Promise<AdminOverview> {
  const as = await signIn(ta, operator)
  const reply = await adminCall<AdminOverview>(ta, 'GET', '/overview', { as })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

/** Moves the test clock forward to `iso` exactly. */
function setClock(ta: TestApp, iso: string) {
  const step = new Date(iso).getTime() - ta.clock.now().getTime()
  assert.ok(step >= 0, `the clock only moves forward (to ${iso})`)
  ta.clock.advance(step)
}

/** A new-phone order paid through the sandbox provider (Alipay) now: its amount and paidAt. */
async function providerPaidOrder(ta: TestApp, buyer: Session) {
  const created = await createCloudOrder(ta, buyer)
  assert.equal(created.code, 200, created.msg)
  await payWithSandbox(ta, buyer, created.data.orderNo)
  const [row] = await ta.database.db
    .select()
    .from(orders)
    .where(eq(orders.orderNo, created.data.orderNo))
  assert.ok(row.paidAt, 'the order was paid')
  assert.equal(row.payMethod, PayMethod.alipay)
  return { amount: row.amount, paidAt: row.paidAt.getTime() }
}

/** A new-phone order paid with beans now (the beans credited first, as a recharge would). */
async function beanPaidOrder(ta: TestApp, buyer: Session) {
  const created = await createCloudOrder(ta, buyer)
  assert.equal(created.code, 200, created.msg)
  await ta.database.db.transaction((tx) =>
    credit(tx, BEANS, buyer.userId, created.data.amount, { reason: 'recharge' }, ta.clock.now()),
  )
  const paid = await post(
    ta.app,
    '/pay/createPayment',
    { orderNo: created.data.orderNo, payMethod: PayMethod.beans },
    buyer,
  )
  assert.equal(paid.code, 200, paid.msg)
  const [row] = await ta.database.db
    .select()
    .from(orders)
    .where(eq(orders.orderNo, created.data.orderNo))
  assert.ok(row.paidAt && row.amount > 0, 'paid with beans')
  return { amount: row.amount }
}

const nonZeroDays = (data: AdminOverview) =>
  data.days
    .filter((day) => day.paidOrders !== 0 || day.revenue !== 0)
    .map((day) => [day.day, day.paidOrders, day.revenue])

test('every role reads 概览; no session and a user token are refused', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000031')
  for (const role of OPERATOR_ROLES) {
    const reply = await adminCall<AdminOverview>(ta, 'GET', '/overview', {
      as: await signIn(ta, await createOperator(ta, `as-${role}`, role)),
    })
    assert.equal(reply.code, 200, `${role}: ${reply.msg}`)
  }
  const anonymous = await adminCall(ta, 'GET', '/overview')
  assert.equal(anonymous.code, OperatorCode.NOT_SIGNED_IN)
  const asUser = await adminCall(ta, 'GET', '/overview', {
    headers: { authorization: user.token, token: user.token },
  })
  assert.equal(asUser.code, OperatorCode.NOT_SIGNED_IN)
})

test('paid orders and provider revenue by China business day: exact, empty days 0, the day turns at Shanghai midnight, 30 days', async (t) => {
  const ta = await commerceApp(t)
  const as = await createOperator(ta, 'overview', 'finance')
  // the test clock starts 2026-03-02 02:00 UTC: 10:00 in Shanghai
  const empty = await overview(ta, as)
  assert.equal(empty.days.length, OVERVIEW_DAYS)
  assert.equal(empty.days[0].day, '2026-02-01')
  assert.equal(empty.days.at(-1)!.day, '2026-03-02')
  assert.deepEqual(empty.today, { day: '2026-03-02', paidOrders: 0, revenue: 0 })
  assert.deepEqual(nonZeroDays(empty), [])
  assert.equal(empty.asOf, ta.clock.now().getTime())

  const buyers = await Promise.all([1, 2, 3, 4, 5].map(() => newBuyer(ta)))
  // the morning: one paid through the provider, one with beans (an order, but no new money), one unpaid
  const morning = await providerPaidOrder(ta, buyers[0])
  const withBeans = await beanPaidOrder(ta, buyers[1])
  const unpaid = await createCloudOrder(ta, buyers[2])
  assert.equal(unpaid.code, 200, unpaid.msg)
  // 23:59:59 in Shanghai is still 2 March
  setClock(ta, '2026-03-02T15:59:59.000Z')
  const lastSecond = await providerPaidOrder(ta, buyers[3])
  assert.ok(lastSecond.paidAt < Date.parse('2026-03-02T16:00:00.000Z'))
  // 00:00:00 in Shanghai (16:00 UTC) is 3 March already
  setClock(ta, '2026-03-02T16:00:00.000Z')
  const midnight = await providerPaidOrder(ta, buyers[4])
  assert.equal(midnight.paidAt, Date.parse('2026-03-02T16:00:00.000Z'))

  const after = await overview(ta, as)
  assert.equal(after.days.length, OVERVIEW_DAYS)
  assert.equal(after.days[0].day, '2026-02-02')
  assert.deepEqual(after.today, { day: '2026-03-03', paidOrders: 1, revenue: midnight.amount })
  assert.deepEqual(nonZeroDays(after), [
    ['2026-03-02', 3, morning.amount + lastSecond.amount],
    ['2026-03-03', 1, midnight.amount],
  ])
  assert.ok(withBeans.amount > 0, 'the bean order had a price, left out of revenue')
  // every day is there once, in order
  assert.deepEqual(
    after.days.map((day) => day.day),
    Array.from({ length: OVERVIEW_DAYS }, (_, i) =>
      new Date(Date.parse('2026-02-02T00:00:00Z') + i * DAY_MS).toISOString().slice(0, 10),
    ),
  )

  // 29 days on (1 April, noon in Shanghai) 3 March is the window's first day and 2 March has left it
  setClock(ta, '2026-04-01T04:00:00.000Z')
  const later = await overview(ta, as)
  assert.equal(later.days[0].day, '2026-03-03')
  assert.deepEqual(later.today, { day: '2026-04-01', paidOrders: 0, revenue: 0 })
  assert.deepEqual(nonZeroDays(later), [['2026-03-03', 1, midnight.amount]])
})

/** A phone whose create failed at the sandbox supplier (a name with #fail), as devices.test.ts makes one. */
async function failedPhone(ta: TestApp, userId: number): Promise<number> {
  const [id] = await givePhones(ta, userId, 1)
  await ta.database.db.update(devices).set({ name: '测试#fail' }).where(eq(devices.id, id))
  await settle(ta)
  assert.equal((await deviceRow(ta, id)).status, DeviceStatus.failed, 'the create failed')
  return id
}

/** A job whose handler throws every time, run by the scheduler until its attempts are used up. */
async function failedJob(ta: TestApp): Promise<number> {
  await enqueueJob(ta.database.db, ta.clock.now(), 'fulfil-order', { orderId: 'lost' })
  const [job] = await ta.database.db
    .select()
    .from(jobs)
    .where(eq(jobs.kind, 'fulfil-order'))
    .orderBy(sql`${jobs.id} desc`)
    .limit(1)
  for (let i = 0; i < 12; i++) {
    await ta.app.jobs.runDue()
    ta.clock.advance(10 * 60_000)
  }
  const [after] = await ta.database.db.select().from(jobs).where(eq(jobs.id, job.id))
  assert.equal(after.status, 'failed', 'the scheduler gave up on it')
  return job.id
}

test('phones live and creating; failed phones and failed or stuck jobs, now and of the last 24 h', async (t) => {
  const ta = await buildTestApp(t)
  const as = await createOperator(ta, 'overview', 'support')
  const user = await loginWithSms(ta, '13800000032')
  const before = await overview(ta, as)
  assert.deepEqual(before.phones, { running: 0, creating: 0 })
  assert.deepEqual(before.provisioning, {
    failedPhones: 0,
    failedPhones24h: 0,
    failedJobs: 0,
    failedJobs24h: 0,
  })

  // a day and more ago: a failed phone and a failed job
  await failedPhone(ta, user.userId)
  await failedJob(ta)
  ta.clock.advance(25 * 3600_000)
  // within the last 24 h: another failed phone, then a stuck job and one whose lease ran out just now
  await failedPhone(ta, user.userId)
  // three running, one of them rebooting (live too), and one still being created
  const live = await runningPhones(ta, user.userId, 3)
  await ta.database.db
    .update(devices)
    .set({ status: DeviceStatus.rebooting })
    .where(eq(devices.id, live[0]))
  await givePhones(ta, user.userId, 1)
  // (after the scheduler's last run here, which would take an expired lease)
  const now = ta.clock.now()
  await ta.database.db.insert(jobs).values([
    {
      kind: PROVISION_JOB,
      payload: { deviceId: 999 },
      status: 'running',
      runAt: now,
      lockedUntil: new Date(now.getTime() - STUCK_AFTER_MS - 1000),
      createdAt: now,
    },
    {
      kind: PROVISION_JOB,
      payload: { deviceId: 998 },
      status: 'running',
      runAt: now,
      lockedUntil: new Date(now.getTime() - 60_000),
      createdAt: now,
    },
  ])

  const after = await overview(ta, as)
  assert.deepEqual(after.phones, { running: 3, creating: 1 })
  assert.deepEqual(after.provisioning, {
    failedPhones: 2,
    failedPhones24h: 1,
    failedJobs: 2,
    failedJobs24h: 1,
  })
})

test('stock per goods × zone: every pair, as goods_inventory holds it; on sale at or below the threshold is low', async (t) => {
  const ta = await buildTestApp(t)
  const as = await createOperator(ta, 'overview', 'operations')
  const db = ta.database.db
  await setStock(ta, GOODS.enjoyB, ZONES.shanghai, LOW_STOCK_THRESHOLD)
  await setStock(ta, GOODS.enjoyB, ZONES.guangzhou, LOW_STOCK_THRESHOLD + 1)
  await setStock(ta, GOODS.enjoyBigB, ZONES.beijing, 0)
  await db.update(zones).set({ onSale: false }).where(eq(zones.id, ZONES.beijing))
  await setStock(ta, GOODS.exclusiveB, ZONES.shanghai, 0)
  await db.update(goods).set({ onSale: false }).where(eq(goods.id, GOODS.exclusiveB))
  // a pair never stocked has no slot rows: 0 units
  await db
    .delete(goodsStockSlots)
    .where(
      and(eq(goodsStockSlots.goodId, GOODS.flagshipH), eq(goodsStockSlots.zoneId, ZONES.chengdu)),
    )

  const data = await overview(ta, as)
  assert.equal(data.lowStockThreshold, LOW_STOCK_THRESHOLD)
  const [goodsRows, zoneRows, inventory] = await Promise.all([
    db.select({ id: goods.id }).from(goods),
    db.select({ id: zones.id }).from(zones),
    db.select().from(goodsInventory),
  ])
  assert.equal(data.stock.length, goodsRows.length * zoneRows.length, 'every goods × zone')
  const held = new Map(inventory.map((row) => [`${row.goodId}:${row.zoneId}`, row.stock]))
  for (const row of data.stock) {
    assert.equal(row.stock, held.get(`${row.goodId}:${row.zoneId}`) ?? 0, 'as goods_inventory')
    assert.equal(row.low, row.onSale && row.stock <= LOW_STOCK_THRESHOLD)
  }
  const pair = (goodId: number, zoneId: number) => {
    const row = data.stock.find((r) => r.goodId === goodId && r.zoneId === zoneId)
    assert.ok(row, `${goodId} in ${zoneId}`)
    return [row.stock, row.onSale, row.low]
  }
  assert.deepEqual(pair(GOODS.enjoyB, ZONES.shanghai), [LOW_STOCK_THRESHOLD, true, true])
  assert.deepEqual(pair(GOODS.enjoyB, ZONES.guangzhou), [LOW_STOCK_THRESHOLD + 1, true, false])
  assert.deepEqual(pair(GOODS.enjoyBigB, ZONES.beijing), [0, false, false], 'zone off sale')
  assert.deepEqual(pair(GOODS.exclusiveB, ZONES.shanghai), [0, false, false], 'goods off sale')
  assert.deepEqual(pair(GOODS.flagshipH, ZONES.chengdu), [0, true, true], 'never stocked')
  const [first] = data.stock
  assert.equal(first.goodId, GOODS.enjoyB, 'the catalogue order: level, goods, then zone')
  assert.equal(first.zoneId, ZONES.shanghai)
  assert.equal(first.androidVersion, 'B', 'goods of one name differ by their system')
})
