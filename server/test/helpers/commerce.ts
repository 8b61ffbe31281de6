import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { TestContext } from 'node:test'
import { and, eq, sql } from 'drizzle-orm'
import { OrderStatus } from '#domain/order-status'
import { SandboxPaymentProvider } from '../../src/adapters/payment/sandbox/sandbox-payment'
import type { Quote } from '../../src/contract/goods'
import {
  devices,
  goodsInventory,
  goodsStockSlots,
  orders,
  payments,
  users,
} from '../../src/db/schema'
import { stockSlotRows } from '../../src/db/seed/catalogue'
import { buildTestApp, get, loginWithSms, post, type Session, type TestApp } from './test-app'
import { INSTANT_SUPPLIER } from './test-config'
import type { OrderInfo } from '../../src/contract/order'
import type { CreatePaymentResult, SandboxActResult } from '../../src/contract/payment'

/** Seeded catalogue ids (server/src/db/seed/catalogue.ts): goods = level*100 + n, price = goods*10 + duration index. */
export const GOODS = {
  /** 畅享版 4核4G, 安卓10/B; monthly price has a first-purchase offer. */
  enjoyB: 101,
  /** 畅享版 6核6G, 安卓10/B. */
  enjoyBigB: 103,
  /** 尊享版 6核8G, 安卓10/B (all permissions, no video fee). */
  exclusiveB: 201,
  /** 旗舰版 8核8G, 安卓10/B: running activity on its monthly price; video edition offered. */
  flagshipB: 301,
  flagshipH: 302,
}
export const priceOf = (goodId: number, days: 1 | 7 | 30 | 90 | 180 | 365) =>
  goodId * 10 + [1, 7, 30, 90, 180, 365].indexOf(days) + 1
export const ZONES = { shanghai: 1, guangzhou: 2, beijing: 3, chengdu: 4 }

export const newKey = () => randomBytes(8).toString('hex')

export async function commerceApp(t: TestContext): Promise<TestApp> {
  return buildTestApp(t, { config: INSTANT_SUPPLIER })
}

let phoneCounter = 0
export async function newBuyer(t: TestApp, options: { company?: boolean } = {}): Promise<Session> {
  phoneCounter++
  const mobilePhone = `139${String(process.pid % 10000).padStart(4, '0')}${String(phoneCounter).padStart(4, '0')}`
  const session = await loginWithSms(t, mobilePhone)
  if (options.company) {
    await t.database.db.update(users).set({ userType: 2 }).where(eq(users.id, session.userId))
  }
  return { token: session.token, userId: session.userId }
}

export async function quote(
  t: TestApp,
  session: Session | undefined,
  body: Record<string, unknown>,
) {
  const reply = await post<Quote>(t.app, '/CommodityGroup/getGoodPrice', body, session)
  assert.equal(reply.code, 200, reply.msg)
  return reply.data as Quote
}

export async function createCloudOrder(
  t: TestApp,
  session: Session,
  input: { goodId?: number; priceId?: number; zoneId?: number; quantity?: number } = {},
) {
  const goodId = input.goodId ?? GOODS.enjoyB
  const priceId = input.priceId ?? priceOf(goodId, 30)
  const quantity = input.quantity ?? 1
  const { total } = await quote(t, session, { kind: 'new', goodId, priceId, quantity })
  return post<OrderInfo>(
    t.app,
    '/order/createCloudOrder',
    {
      goodId,
      priceId,
      zoneId: input.zoneId ?? ZONES.shanghai,
      quantity,
      expectedAmount: total,
      idempotencyKey: newKey(),
    },
    session,
  )
}

/** The sandbox payment provider (named `name`; the default app's collects both pay methods). */
export function sandboxProvider(t: TestApp, name = 'sandbox'): SandboxPaymentProvider {
  const provider = t.app.services.ctx.paymentProviders.named(name)
  assert.ok(provider instanceof SandboxPaymentProvider)
  return provider
}

/** 立即支付 through a provider (pay method 1 Alipay, 2 WeChat Pay); fails the test unless a trade is opened. */
export async function startPayment(
  t: TestApp,
  session: Session,
  orderNo: string,
  payMethod = 1,
): Promise<CreatePaymentResult> {
  const reply = await post<CreatePaymentResult>(
    t.app,
    '/pay/createPayment',
    { orderNo, payMethod },
    session,
  )
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

/** Our payments row of a trade. */
export async function paymentRow(t: TestApp, tradeNo: string) {
  const [row] = await t.database.db.select().from(payments).where(eq(payments.tradeNo, tradeNo))
  return row
}

/** What the timeout job does, alone (the reconciliation job is due at the same time otherwise). */
export async function timeOutOrders(t: TestApp) {
  for (const id of await t.app.services.orders.overdue(t.clock.now())) {
    await t.app.services.orders.close(id, OrderStatus.timedOut)
  }
}

/** What the reconciliation job does for trades, alone: answers how many it settled. */
export function reconcileTrades(t: TestApp): Promise<number> {
  return t.app.services.paymentReconciliation.reconcile(t.clock.now())
}

/**
 * Starts a sandbox payment (pay method 2) for the order and delivers its signed 'paid' notification
 * `times` times at once; returns how many of the deliveries marked the order paid.
 */
export async function replayPaidNotification(
  t: TestApp,
  session: Session,
  orderNo: string,
  amount: number,
  times: number,
): Promise<number> {
  const { tradeNo } = await startPayment(t, session, orderNo, 2)
  const { body, signature } = sandboxProvider(t).notification(tradeNo, 'paid', amount)
  const replies = await Promise.all(
    Array.from({ length: times }, () =>
      t.app.inject({
        method: 'POST',
        url: '/vmcloud/api/pay/notify/sandbox',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
        payload: body,
      }),
    ),
  )
  return replies.filter((r) => r.json().data?.outcome === 'paid').length
}

/** Runs due jobs until none is left (fulfilment, provisioning polls after the clock moves). */
export async function runJobs(t: TestApp, rounds = 1) {
  for (let i = 0; i < rounds; i++) {
    await t.app.jobs.runDue()
    if (i < rounds - 1) t.clock.advance(1_000)
  }
}

/** Pays through the sandbox checkout (JSON action), waits for its notification and the fulfilment job. */
export async function payWithSandbox(
  t: TestApp,
  session: Session,
  orderNo: string,
  action: 'pay' | 'cancel' | 'fail' = 'pay',
) {
  const { tradeNo } = await startPayment(t, session, orderNo)
  const acted = await post<SandboxActResult>(t.app, '/sandbox/pay/act', { tradeNo, action })
  assert.equal(acted.code, 200, acted.msg)
  await sandboxProvider(t).outbox.settled()
  await runJobs(t)
  return tradeNo
}

/** 取消订单 as its buyer; fails the test unless it is cancelled. */
export async function cancelOrder(t: TestApp, session: Session, orderNo: string) {
  const reply = await post<OrderInfo>(t.app, '/order/cancel', { orderNo }, session)
  assert.equal(reply.code, 200, reply.msg)
}

export async function orderInfo(t: TestApp, session: Session, orderNo: string) {
  const reply = await get<OrderInfo>(t.app, '/order/getOrderInfo', session, { orderNo })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

export async function stockOf(t: TestApp, goodId: number, zoneId: number): Promise<number> {
  const [row] = await t.database.db
    .select({ stock: goodsInventory.stock })
    .from(goodsInventory)
    .where(and(eq(goodsInventory.goodId, goodId), eq(goodsInventory.zoneId, zoneId)))
  return row?.stock ?? 0
}

/** The stock in each of the goods × zone's slots, slot by slot. */
export async function stockSlotsOf(t: TestApp, goodId: number, zoneId: number): Promise<number[]> {
  const rows = await t.database.db
    .select({ stock: goodsStockSlots.stock })
    .from(goodsStockSlots)
    .where(and(eq(goodsStockSlots.goodId, goodId), eq(goodsStockSlots.zoneId, zoneId)))
    .orderBy(goodsStockSlots.slot)
  return rows.map((row) => row.stock)
}

export async function setStock(t: TestApp, goodId: number, zoneId: number, stock: number) {
  const { db } = t.database
  await db.transaction(async (tx) => {
    await tx
      .delete(goodsStockSlots)
      .where(and(eq(goodsStockSlots.goodId, goodId), eq(goodsStockSlots.zoneId, zoneId)))
    await tx.insert(goodsStockSlots).values(stockSlotRows(goodId, zoneId, stock))
  })
}

export async function orderRow(t: TestApp, orderNo: string) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.orderNo, orderNo))
  return row
}

/** Buys phones, pays in the sandbox and provisions them until they run. */
export async function runningPhones(
  t: TestApp,
  session: Session,
  input: { goodId?: number; days?: 1 | 7 | 30 | 90 | 180 | 365; quantity?: number } = {},
): Promise<number[]> {
  const goodId = input.goodId ?? GOODS.enjoyB
  const created = await createCloudOrder(t, session, {
    goodId,
    priceId: priceOf(goodId, input.days ?? 30),
    quantity: input.quantity ?? 1,
  })
  assert.equal(created.code, 200, created.msg)
  await payWithSandbox(t, session, created.data.orderNo)
  const order = await orderInfo(t, session, created.data.orderNo)
  assert.equal(order.status, 2, 'order completed')
  for (let i = 0; i < 10; i++) {
    const rows = await t.database.db
      .select({ status: devices.status })
      .from(devices)
      .where(sql`${devices.id} in ${order.deviceIds}`)
    if (rows.every((row) => row.status === 1)) return order.deviceIds
    t.clock.advance(2_000)
    await t.app.jobs.runDue()
  }
  assert.fail('phones did not reach running')
}

/** The sandbox's payment notifications go out only when a test flushes them (or never, when it drops them). */
export const HELD_NOTIFICATIONS = { sandboxPayDelayMs: 120_000 }

/** An app whose phones are made at once and whose payment notifications are held. */
export function heldApp(t: TestContext) {
  return buildTestApp(t, { config: { ...INSTANT_SUPPLIER, ...HELD_NOTIFICATIONS } })
}

/** The buyer's choice on the checkout page (the sandbox writes it down; the notification is held). */
export async function act(ta: TestApp, tradeNo: string, action: 'pay' | 'cancel' = 'pay') {
  return post<SandboxActResult>(ta.app, '/sandbox/pay/act', { tradeNo, action })
}
