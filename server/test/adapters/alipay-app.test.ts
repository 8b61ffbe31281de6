/**
 * The app with Alipay as its payment provider, against the fake gateway: pay → signed form notification
 * → order paid and `success` answered; forged, foreign and tampered notifications refused with nothing
 * written; a replay changes nothing; late money refunded through alipay.trade.refund; a payment whose
 * notification never came settled by reconciliation; a cancelled order's trade closed at Alipay.
 */
import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { OrderStatus } from '#domain/order-status'
import {
  ALIPAY_IN_WECHAT_REFUSAL,
  AlipayProvider,
} from '../../src/adapters/payment/alipay/alipay-provider'
import type { CreatePaymentResult } from '../../src/contract/payment'
import { devices, paymentNotifications, payments, refunds } from '../../src/db/schema'
import {
  cancelOrder,
  createCloudOrder,
  newBuyer,
  orderInfo,
  paymentRow,
  reconcileTrades,
  startPayment,
  timeOutOrders,
} from '../helpers/commerce'
import { NO_TRADE_AFTER_EXPIRY_MS } from '../../src/services/payments/payment-reconciliation'
import { FakeAlipay, rsaKeyPair } from '../helpers/fake-alipay'
import { buildTestApp, post, type Session, type TestApp } from '../helpers/test-app'
import { INSTANT_SUPPLIER } from '../helpers/test-config'

const APP_ID = '2021000122671080'
const MINUTE = 60_000

/** The app on Alipay, the fake gateway posting its notifications to the app's notify route. */
async function alipayApp(t: TestContext) {
  const keys = rsaKeyPair()
  const held: { ta?: TestApp } = {}
  const fake = await FakeAlipay.start({
    appId: APP_ID,
    appPublicKey: keys.publicKey,
    now: () => held.ta?.clock.now() ?? new Date(),
    deliver: async (url, body, contentType) => {
      const reply = await held.ta!.app.inject({
        method: 'POST',
        url: new URL(url).pathname,
        headers: { 'content-type': contentType },
        payload: body,
      })
      return { status: reply.statusCode, body: reply.body }
    },
  })
  t.after(() => fake.close())
  const provider = new AlipayProvider({
    appId: APP_ID,
    privateKey: keys.privateKey,
    alipayPublicKey: fake.alipayPublicKey,
    publicBaseUrl: 'https://phone.example.com',
    gateway: fake.gateway,
  })
  const ta = await buildTestApp(t, {
    config: INSTANT_SUPPLIER,
    payments: [provider],
  })
  held.ta = ta
  return { ta, fake }
}

/** An order, its Alipay payment started and the link opened by the buyer's browser. */
async function openedPayment(ta: TestApp, buyer: Session) {
  const { data: order } = await createCloudOrder(ta, buyer)
  const start = await startPayment(ta, buyer, order.orderNo)
  const page = await (await fetch(start.checkoutUrl!)).text()
  assert.match(page, /支付宝/)
  return { order, tradeNo: start.tradeNo }
}

test('pay → notification → order paid and fulfilled, the route answers success; a replay changes nothing', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { order, tradeNo } = await openedPayment(ta, buyer)
  fake.pay(tradeNo)
  await fake.settled()
  const [delivery] = fake.deliveries
  assert.deepEqual([delivery.status, delivery.reply], [200, 'success'])
  assert.equal((await paymentRow(ta, tradeNo)).status, 'paid')
  await ta.app.jobs.runDue()
  const paid = await orderInfo(ta, buyer, order.orderNo)
  assert.equal(paid.status, 2)
  assert.equal(paid.deviceIds.length, 1)

  const replay = await fake.redeliver(delivery)
  assert.deepEqual([replay.status, replay.reply], [200, 'success'])
  assert.equal((await ta.database.db.select().from(paymentNotifications)).length, 1)
  await ta.app.jobs.runDue()
  assert.equal((await ta.database.db.select().from(devices)).length, 1)
})

test('forged, foreign-app and tampered notifications are refused and write nothing', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { order, tradeNo } = await openedPayment(ta, buyer)
  const trade = fake.trade(tradeNo)!
  trade.status = 'TRADE_SUCCESS' // what a forger claims; no money moved
  trade.paidAt = ta.clock.now()
  const fields = Object.fromEntries(new URLSearchParams(fake.notificationBody(trade)))
  const { sign: _sign, ...unsigned } = fields
  const url = 'https://phone.example.com/vmcloud/api/pay/notify/alipay'
  const bodies = [
    fake.signForm(unsigned, rsaKeyPair().privateKey),
    fake.signForm({ ...unsigned, app_id: '2021000000000001' }),
    new URLSearchParams({ ...fields, total_amount: '0.01' }).toString(),
  ]
  for (const body of bodies) {
    const reply = await fake.redeliver({ url, body, status: 0, reply: '' })
    assert.equal(reply.status, 401, reply.reply)
    assert.notEqual(reply.reply, 'success')
  }
  // Signed by Alipay but for another amount than the trade's: refused by the service.
  const otherAmount = await fake.redeliver({
    url,
    body: fake.signForm({ ...unsigned, total_amount: '0.01' }),
    status: 0,
    reply: '',
  })
  assert.equal(otherAmount.status, 400)
  assert.equal((await ta.database.db.select().from(paymentNotifications)).length, 0)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'pending')
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, OrderStatus.unpaid)
})

test('money that arrives after the order timed out is refunded through alipay.trade.refund', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { order, tradeNo } = await openedPayment(ta, buyer)
  fake.dropNotifications = true // the notification is late
  ta.clock.advance(14 * MINUTE)
  fake.pay(tradeNo)
  ta.clock.advance(2 * MINUTE)
  await timeOutOrders(ta)
  fake.dropNotifications = false
  const late = await fake.redeliver({
    url: 'https://phone.example.com/vmcloud/api/pay/notify/alipay',
    body: fake.notificationBody(fake.trade(tradeNo)!),
    status: 0,
    reply: '',
  })
  assert.deepEqual([late.status, late.reply], [200, 'success'])
  assert.equal((await paymentRow(ta, tradeNo)).status, 'refunding')
  await ta.app.jobs.runDue()
  const refundCalls = fake.calls.filter((call) => call.method === 'alipay.trade.refund')
  assert.equal(refundCalls.length, 1)
  assert.equal(refundCalls[0].biz.out_request_no, `R${tradeNo}`)
  assert.equal(fake.trade(tradeNo)!.refunded, order.amount)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'refunded')
  const [refund] = await ta.database.db.select().from(refunds)
  assert.equal(refund.status, 'succeeded')
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, OrderStatus.timedOut)
  // Alipay's TRADE_CLOSED after the full refund changes nothing here.
  await fake.settled()
  assert.equal(fake.deliveries.at(-1)!.reply, 'success')
  assert.equal((await paymentRow(ta, tradeNo)).status, 'refunded')
  // Sending the refund again (a retry) refunds nothing more.
  await ta.app.services.refunds.reconcile(new Date(ta.clock.now().getTime() + 2 * MINUTE))
  assert.equal(fake.trade(tradeNo)!.refunded, order.amount)
})

test('paid at Alipay but never notified: reconciliation asks and fulfils, once', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { order, tradeNo } = await openedPayment(ta, buyer)
  fake.dropNotifications = true
  fake.pay(tradeNo)
  ta.clock.advance(MINUTE + 1_000)
  await reconcileTrades(ta)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'paid')
  await ta.app.jobs.runDue()
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 2)
  const [record] = await ta.database.db.select().from(paymentNotifications)
  assert.equal((record.payload as { source?: string }).source, 'query')
})

test('a cancelled order: its open trade is closed at Alipay, so the buyer can no longer pay it', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { order, tradeNo } = await openedPayment(ta, buyer)
  await cancelOrder(ta, buyer, order.orderNo)
  await reconcileTrades(ta)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'closed')
  assert.equal(fake.trade(tradeNo)!.status, 'TRADE_CLOSED')
  assert.throws(() => fake.pay(tradeNo), /TRADE_CLOSED/)
  await fake.settled()
  assert.equal(
    fake.deliveries.at(-1)!.reply,
    'success',
    'the TRADE_CLOSED notification is a duplicate',
  )
})

test('a link opened only after its order was cancelled: the money that arrives goes back through alipay.trade.refund', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const start = await startPayment(ta, buyer, order.orderNo)
  await cancelOrder(ta, buyer, order.orderNo)
  // Alipay has no trade until the link is opened, so there is nothing to close; the link works until
  // its time_expire, so the payment stays pending here until then.
  await reconcileTrades(ta)
  assert.equal((await paymentRow(ta, start.tradeNo)).status, 'pending')
  // The link still works until its time_expire: the buyer opens it and pays.
  await (await fetch(start.checkoutUrl!)).text()
  fake.pay(start.tradeNo)
  await fake.settled()
  assert.equal(fake.deliveries.at(-1)!.reply, 'success')
  assert.equal((await paymentRow(ta, start.tradeNo)).status, 'refunding')
  await ta.app.jobs.runDue()
  assert.equal(fake.trade(start.tradeNo)!.refunded, order.amount)
  assert.equal((await paymentRow(ta, start.tradeNo)).status, 'refunded')
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, OrderStatus.cancelled)
  // Alipay's notification again, and its TRADE_CLOSED after the refund, change nothing.
  await fake.redeliver({
    url: 'https://phone.example.com/vmcloud/api/pay/notify/alipay',
    body: fake.notificationBody(fake.trade(start.tradeNo)!),
    status: 0,
    reply: '',
  })
  await fake.settled()
  assert.equal(fake.trade(start.tradeNo)!.refunded, order.amount)
  assert.equal((await paymentRow(ta, start.tradeNo)).status, 'refunded')
})

test('a link opened after its order was cancelled, its notification lost: reconciliation finds the money and refunds it once', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const start = await startPayment(ta, buyer, order.orderNo)
  await cancelOrder(ta, buyer, order.orderNo)
  await reconcileTrades(ta)
  assert.equal((await paymentRow(ta, start.tradeNo)).status, 'pending')
  ta.clock.advance(10 * MINUTE)
  fake.dropNotifications = true
  await (await fetch(start.checkoutUrl!)).text()
  fake.pay(start.tradeNo)
  await fake.settled()
  ta.clock.advance(MINUTE + 1_000)
  await reconcileTrades(ta)
  assert.equal((await paymentRow(ta, start.tradeNo)).status, 'refunding')
  await ta.app.jobs.runDue()
  assert.equal(fake.trade(start.tradeNo)!.refunded, order.amount)
  assert.equal((await paymentRow(ta, start.tradeNo)).status, 'refunded')
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, OrderStatus.cancelled)
})

test('a link never opened: the payment is over only past its time_expire (plus the margin), no money taken', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const start = await startPayment(ta, buyer, order.orderNo)
  await cancelOrder(ta, buyer, order.orderNo)
  const deadline = new Date(order.payDeadline).getTime()
  while (ta.clock.now().getTime() < deadline + NO_TRADE_AFTER_EXPIRY_MS) {
    await reconcileTrades(ta)
    assert.equal((await paymentRow(ta, start.tradeNo)).status, 'pending')
    ta.clock.advance(MINUTE + 1_000)
  }
  await reconcileTrades(ta)
  assert.equal((await paymentRow(ta, start.tradeNo)).status, 'closed')
  assert.equal(fake.trade(start.tradeNo), undefined)
  assert.equal((await ta.database.db.select().from(refunds)).length, 0)
})

test('Alipay inside WeChat is refused with the message to show, and no trade is recorded', async (t) => {
  const { ta } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  for (const scene of ['miniProgram', 'wechatBrowser']) {
    const reply = await post<CreatePaymentResult>(
      ta.app,
      '/pay/createPayment',
      { orderNo: order.orderNo, payMethod: 1, scene },
      buyer,
    )
    assert.deepEqual([reply.code, reply.msg], [1080, ALIPAY_IN_WECHAT_REFUSAL])
  }
  assert.equal((await ta.database.db.select().from(payments)).length, 0)
})

test('a refund Alipay never took is sent again by the next reconcile with the same out_request_no: one refund, money back once', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { order, tradeNo } = await openedPayment(ta, buyer)
  await cancelOrder(ta, buyer, order.orderNo)
  fake.pay(tradeNo) // the buyer pays the page still open: the money goes back
  await fake.settled()
  assert.equal((await paymentRow(ta, tradeNo)).status, 'refunding')
  fake.loseNextRefund = true // 10000, fund_change N, and no refund recorded
  await ta.app.jobs.runDue()
  const [sent] = await ta.database.db.select().from(refunds)
  assert.equal(sent.status, 'requested')
  assert.ok(sent.sentAt, 'sent, as far as we can tell')
  assert.equal(fake.trade(tradeNo)!.refunded, 0)

  ta.clock.advance(MINUTE + 1_000)
  assert.equal(await ta.app.services.refunds.reconcile(ta.clock.now()), 1)
  const methods = fake.calls
    .filter((call) => call.method.includes('refund'))
    .map((call) => [call.method, call.biz.out_request_no])
  assert.deepEqual(methods, [
    ['alipay.trade.refund', sent.refundNo],
    ['alipay.trade.fastpay.refund.query', sent.refundNo], // fund_change N: asked at once
    ['alipay.trade.fastpay.refund.query', sent.refundNo], // reconcile: no refund data
    ['alipay.trade.refund', sent.refundNo], // sent again, the same number
  ])
  assert.equal(fake.trade(tradeNo)!.refunded, order.amount)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'refunded')
  const [done] = await ta.database.db.select().from(refunds)
  assert.equal(done.status, 'succeeded')
  ta.clock.advance(2 * MINUTE)
  assert.equal(await ta.app.services.refunds.reconcile(ta.clock.now()), 0)
  assert.equal(fake.trade(tradeNo)!.refunded, order.amount)
  assert.equal(fake.trade(tradeNo)!.refunds.size, 1)
})

test('a WAIT_BUYER_PAY notification is answered success and writes nothing; a forged one is refused', async (t) => {
  const { ta, fake } = await alipayApp(t)
  const buyer = await newBuyer(ta)
  const { order, tradeNo } = await openedPayment(ta, buyer)
  const trade = fake.trade(tradeNo)!
  assert.equal(trade.status, 'WAIT_BUYER_PAY')
  const url = 'https://phone.example.com/vmcloud/api/pay/notify/alipay'
  const waiting = await fake.redeliver({
    url,
    body: fake.notificationBody(trade),
    status: 0,
    reply: '',
  })
  assert.deepEqual([waiting.status, waiting.reply], [200, 'success'])
  const { sign: _sign, ...unsigned } = Object.fromEntries(
    new URLSearchParams(fake.notificationBody(trade)),
  )
  const forged = await fake.redeliver({
    url,
    body: fake.signForm(unsigned, rsaKeyPair().privateKey),
    status: 0,
    reply: '',
  })
  assert.equal(forged.status, 401)
  assert.equal((await ta.database.db.select().from(paymentNotifications)).length, 0)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'pending')
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, OrderStatus.unpaid)
  // the payment that follows is settled as ever
  fake.pay(tradeNo)
  await fake.settled()
  assert.equal(fake.deliveries.at(-1)!.reply, 'success')
  assert.equal((await paymentRow(ta, tradeNo)).status, 'paid')
})
