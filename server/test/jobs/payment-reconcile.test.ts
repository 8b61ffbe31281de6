/**
 * Money the provider holds is reconciled with ours: refunds go through the provider (duplicate and
 * late orders that cannot be delivered), a confirmed payment whose notification never came
 * (the process died first) is settled by asking the provider, and refund notifications are verified
 * and acted on once.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { PaymentProviderRefusal } from '../../src/adapters/payment/payment-provider'
import { buildApp } from '../../src/app'
import {
  devices,
  paymentNotifications,
  refunds,
  sandboxPayRefunds,
  sandboxPayTrades,
} from '../../src/db/schema'
import {
  GOODS,
  HELD_NOTIFICATIONS,
  act,
  heldApp,
  ZONES,
  cancelOrder,
  createCloudOrder,
  newBuyer,
  newKey,
  orderInfo,
  paymentRow,
  priceOf,
  reconcileTrades,
  runningPhones,
  sandboxProvider,
  startPayment,
  stockOf,
  timeOutOrders,
} from '../helpers/commerce'
import { FakeClock, buildTestApp, post, type TestApp } from '../helpers/test-app'
import { INSTANT_SUPPLIER, testConfig } from '../helpers/test-config'
import { createTestDatabase } from '../helpers/test-database'
import type { OrderInfo } from '../../src/contract/order'
import type { CreatePaymentResult } from '../../src/contract/payment'

const REFUND_NOTIFY = '/vmcloud/api/pay/notify/sandbox/refund'
const MINUTE = 60_000

async function refundOf(ta: TestApp, tradeNo: string) {
  const payment = await paymentRow(ta, tradeNo)
  const [row] = await ta.database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))
  return row
}

async function sandboxRefundsOf(ta: TestApp, tradeNo: string) {
  return ta.database.db
    .select()
    .from(sandboxPayRefunds)
    .where(eq(sandboxPayRefunds.tradeNo, tradeNo))
}

function notifyRefund(ta: TestApp, body: string, signature: string) {
  return ta.app.inject({
    method: 'POST',
    url: REFUND_NOTIFY,
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
    payload: body,
  })
}

test('a payment the provider took but whose notification never came is fulfilled by reconciliation, once', async (t) => {
  const ta = await heldApp(t)
  await ta.app.jobs.ensureRecurring()
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const { tradeNo } = await startPayment(ta, buyer, order.orderNo)
  assert.equal((await act(ta, tradeNo)).code, 200)
  await sandboxProvider(ta).outbox.close() // the notification is lost
  await ta.app.jobs.runDue()
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 0, 'not asked about yet')

  ta.clock.advance(MINUTE + 1_000)
  await ta.app.jobs.runDue()
  const done = await orderInfo(ta, buyer, order.orderNo)
  assert.equal(done.status, 2)
  assert.equal(done.deviceIds.length, 1)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'paid')
  const [record] = await ta.database.db.select().from(paymentNotifications)
  assert.equal((record.payload as { source?: string }).source, 'query')

  // The notification arriving after all changes nothing.
  const late = sandboxProvider(ta).notification(tradeNo, 'paid', order.amount)
  const reply = await ta.app.inject({
    method: 'POST',
    url: '/vmcloud/api/pay/notify/sandbox',
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': late.signature },
    payload: late.body,
  })
  assert.equal(reply.json().data.outcome, 'duplicate')
  ta.clock.advance(2 * MINUTE)
  await ta.app.jobs.runDue()
  assert.equal((await ta.database.db.select().from(devices)).length, 1)
})

test('restart: a payment confirmed before the process died is fulfilled by the next one without paying again', async (t) => {
  const database = await createTestDatabase()
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-files-'))
  t.after(async () => {
    await database.close()
    fs.rmSync(filesDir, { recursive: true, force: true })
  })
  const start = async (clock: FakeClock): Promise<TestApp> => {
    const app = await buildApp({
      config: testConfig({ filesDir, ...INSTANT_SUPPLIER, ...HELD_NOTIFICATIONS }),
      database,
      overrides: { clock },
    })
    await app.ready()
    return { app, clock, database, filesDir }
  }
  const first = await start(new FakeClock())
  const buyer = await newBuyer(first)
  const { data: order } = await createCloudOrder(first, buyer)
  const { tradeNo } = await startPayment(first, buyer, order.orderNo)
  assert.equal((await act(first, tradeNo)).code, 200)
  await first.app.close() // dies before the notification's timer fires

  const clock = new FakeClock(first.clock.now().toISOString())
  clock.advance(2 * MINUTE)
  const second = await start(clock)
  t.after(() => second.app.close())
  await second.app.jobs.ensureRecurring()
  await second.app.jobs.runDue()
  const done = await orderInfo(second, buyer, order.orderNo)
  assert.equal(done.status, 2)
  assert.equal(done.deviceIds.length, 1)
  const trades = await database.db.select().from(sandboxPayTrades)
  assert.deepEqual(
    trades.map((row) => row.status),
    ['paid'],
    'paid once',
  )
  const again = await post<CreatePaymentResult>(
    second.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 1 },
    buyer,
  )
  assert.deepEqual([again.code, again.msg], [1080, '订单已支付，请勿重复支付'])
})

test('a second payment of a paid order is refunded through the provider', async (t) => {
  const ta = await heldApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  // Two checkout pages open, both paid.
  const firstTrade = (await startPayment(ta, buyer, order.orderNo)).tradeNo
  const secondTrade = (await startPayment(ta, buyer, order.orderNo)).tradeNo
  assert.equal((await act(ta, firstTrade)).code, 200)
  assert.equal((await act(ta, secondTrade)).code, 200)
  const sandbox = sandboxProvider(ta)
  await sandbox.outbox.flush()
  assert.equal((await paymentRow(ta, firstTrade)).status, 'paid')
  assert.equal((await paymentRow(ta, secondTrade)).status, 'refunding')
  assert.equal((await refundOf(ta, secondTrade)).status, 'requested')

  await ta.app.jobs.runDue() // fulfils the order and sends the refund
  const [asked] = await sandboxRefundsOf(ta, secondTrade)
  assert.deepEqual([asked.status, asked.amount], ['processing', order.amount])
  await sandbox.outbox.flush() // the provider's refund notification
  const refund = await refundOf(ta, secondTrade)
  assert.equal(refund.status, 'succeeded')
  assert.equal((await paymentRow(ta, secondTrade)).status, 'refunded')
  assert.equal((await sandboxRefundsOf(ta, secondTrade))[0].status, 'succeeded')
  assert.equal(await sandbox.heldFor(firstTrade), order.amount)
  assert.equal(await sandbox.heldFor(secondTrade), 0)
  const done = await orderInfo(ta, buyer, order.orderNo)
  assert.deepEqual([done.status, done.deviceIds.length], [2, 1])
})

test('money that arrives after the order timed out is refunded through the provider, not fulfilled', async (t) => {
  const ta = await heldApp(t)
  const buyer = await newBuyer(ta)
  const before = await stockOf(ta, GOODS.enjoyB, ZONES.shanghai)
  const { data: order } = await createCloudOrder(ta, buyer)
  const { tradeNo } = await startPayment(ta, buyer, order.orderNo)
  ta.clock.advance(14 * MINUTE)
  assert.equal((await act(ta, tradeNo)).code, 200, 'paid inside the pay window')
  ta.clock.advance(2 * MINUTE)
  await timeOutOrders(ta)
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 4)
  const sandbox = sandboxProvider(ta)
  await sandbox.outbox.flush() // the notification arrives after the timeout
  assert.equal((await paymentRow(ta, tradeNo)).status, 'refunding')
  await ta.app.jobs.runDue()
  await sandbox.outbox.flush()
  assert.equal((await refundOf(ta, tradeNo)).status, 'succeeded')
  assert.equal((await paymentRow(ta, tradeNo)).status, 'refunded')
  assert.equal(await sandbox.heldFor(tradeNo), 0)
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 4)
  assert.equal((await ta.database.db.select().from(devices)).length, 0)
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), before)
  const retry = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 1 },
    buyer,
  )
  assert.deepEqual([retry.code, retry.msg], [1080, '订单已超时，请重新下单'])
})

test('a trade still open when its order is cancelled is closed at the provider, so no money can arrive', async (t) => {
  const ta = await heldApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const { tradeNo } = await startPayment(ta, buyer, order.orderNo)
  await cancelOrder(ta, buyer, order.orderNo)
  await reconcileTrades(ta)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'closed')
  const [trade] = await ta.database.db
    .select()
    .from(sandboxPayTrades)
    .where(eq(sandboxPayTrades.tradeNo, tradeNo))
  assert.equal(trade.status, 'closed')
  const paid = await act(ta, tradeNo)
  assert.deepEqual([paid.code, paid.msg], [1080, '该笔交易已关闭，请返回应用重新支付'])
  const page = await ta.app.inject({
    method: 'GET',
    url: `/vmcloud/api/sandbox/pay/checkout?tradeNo=${tradeNo}`,
  })
  assert.ok(!page.body.includes('确认支付'), 'no pay button on a closed trade')
})

test('a paid order that cannot be delivered is refunded through the provider; a lost refund notification is made up by asking', async (t) => {
  const ta = await buildTestApp(t, { config: INSTANT_SUPPLIER })
  const buyer = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer)
  const created = await post<OrderInfo>(
    ta.app,
    '/order/createRenewOrder',
    {
      deviceIds: [phone],
      priceId: priceOf(GOODS.enjoyB, 30),
      expectedAmount: 2990,
      idempotencyKey: newKey(),
    },
    buyer,
  )
  assert.equal(created.code, 200, created.msg)
  const { tradeNo } = await startPayment(ta, buyer, created.data.orderNo)
  assert.equal((await act(ta, tradeNo)).code, 200)
  const sandbox = sandboxProvider(ta)
  await sandbox.outbox.settled()
  // Released between payment and delivery (the expiry job ran first).
  await ta.database.db.update(devices).set({ status: 3 }).where(eq(devices.id, phone))
  await ta.app.jobs.runDue()
  const order = await orderInfo(ta, buyer, created.data.orderNo)
  assert.deepEqual([order.status, order.statusText], [5, '已退款'])
  assert.equal((await refundOf(ta, tradeNo)).status, 'requested')
  assert.equal((await sandboxRefundsOf(ta, tradeNo))[0].amount, 2990)
  await sandbox.outbox.close() // the refund notification is lost
  ta.clock.advance(MINUTE + 1_000)
  await ta.app.services.refunds.reconcile(ta.clock.now())
  assert.equal((await refundOf(ta, tradeNo)).status, 'succeeded')
  assert.equal((await paymentRow(ta, tradeNo)).status, 'refunded')
  assert.equal(await sandbox.heldFor(tradeNo), 0)
})

test('refund notifications: a replay is acted on once, a forged or altered one is refused', async (t) => {
  const ta = await heldApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const firstTrade = (await startPayment(ta, buyer, order.orderNo)).tradeNo
  const secondTrade = (await startPayment(ta, buyer, order.orderNo)).tradeNo
  await act(ta, firstTrade)
  await act(ta, secondTrade)
  const sandbox = sandboxProvider(ta)
  await sandbox.outbox.flush()
  const refund = await refundOf(ta, secondTrade)
  const good = sandbox.refundNotification(refund.refundNo, secondTrade, 'succeeded', order.amount)

  const forged = await notifyRefund(ta, good.body, 'b'.repeat(64))
  assert.equal(forged.statusCode, 401)
  const altered = await notifyRefund(
    ta,
    good.body.replace('"succeeded"', '"failed"'),
    good.signature,
  )
  assert.equal(altered.statusCode, 401)
  const trade = sandbox.notification(secondTrade, 'paid', order.amount)
  assert.equal((await notifyRefund(ta, trade.body, trade.signature)).statusCode, 401)
  const cheap = sandbox.refundNotification(refund.refundNo, secondTrade, 'succeeded', 1)
  assert.equal((await notifyRefund(ta, cheap.body, cheap.signature)).statusCode, 400)
  const other = sandbox.refundNotification(refund.refundNo, firstTrade, 'succeeded', order.amount)
  assert.equal((await notifyRefund(ta, other.body, other.signature)).statusCode, 400)
  const unknown = sandbox.refundNotification('R-unknown', secondTrade, 'succeeded', order.amount)
  assert.equal((await notifyRefund(ta, unknown.body, unknown.signature)).statusCode, 404)
  assert.equal((await refundOf(ta, secondTrade)).status, 'requested')

  const replies = await Promise.all(
    Array.from({ length: 20 }, () => notifyRefund(ta, good.body, good.signature)),
  )
  const outcomes = replies.map((r) => r.json().data.outcome)
  assert.equal(outcomes.filter((o) => o === 'succeeded').length, 1)
  assert.equal(outcomes.filter((o) => o === 'duplicate').length, 19)
  assert.equal((await paymentRow(ta, secondTrade)).status, 'refunded')
})

test('the sandbox refuses a refund it should: unknown or unpaid trade, more than paid, a refundNo reused; the same request twice is one refund', async (t) => {
  const ta = await heldApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const unpaid = (await startPayment(ta, buyer, order.orderNo)).tradeNo
  const paid = (await startPayment(ta, buyer, order.orderNo)).tradeNo
  await act(ta, paid)
  const sandbox = sandboxProvider(ta)
  const refund = (tradeNo: string, refundNo: string, amount: number) =>
    sandbox.refund({ tradeNo, refundNo, amount, reason: 'test' })
  await assert.rejects(refund('T-unknown', 'R1', 1), PaymentProviderRefusal)
  await assert.rejects(refund(unpaid, 'R1', 1), /交易未支付/)
  await assert.rejects(refund(paid, 'R1', order.amount + 1), /超过可退金额/)
  await assert.rejects(refund(paid, 'R1', 0), /退款金额不正确/)
  const once = await refund(paid, 'R1', order.amount - 100)
  const twice = await refund(paid, 'R1', order.amount - 100)
  assert.deepEqual(twice, once)
  await assert.rejects(refund(paid, 'R1', 100), /另一笔退款/)
  await assert.rejects(refund(paid, 'R2', 101), /超过可退金额/)
  await refund(paid, 'R2', 100)
  assert.equal(await sandbox.heldFor(paid), 0)
  assert.equal((await sandboxRefundsOf(ta, paid)).length, 2)
  assert.equal(await sandbox.queryRefund('R-unknown', paid), null, 'no such refund')
  assert.equal(await sandbox.queryRefund('R1', unpaid), null, 'not of that trade')
  assert.equal((await sandbox.queryRefund('R1', paid))?.amount, order.amount - 100)
})
