/**
 * The whole app with WeChat Pay as its payment provider, against the fake WeChat Pay: the buyer pays,
 * the signed notification marks the order paid; forged, tampered and old notifications are refused
 * with nothing written; a replay changes nothing; money that arrives late is refunded through WeChat
 * Pay; a payment whose notification never came is found by reconciliation; an abandoned trade is closed.
 */
import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import { test, type TestContext } from 'node:test'
import { eq, inArray } from 'drizzle-orm'
import fc from 'fast-check'
import { OrderStatus } from '#domain/order-status'
import { wechatPayCredentialsFromEnv } from '../../src/adapters/payment/wechatpay/credentials'
import { WechatPayProvider } from '../../src/adapters/payment/wechatpay/wechatpay-provider'
import type { CreatePaymentResult } from '../../src/contract/payment'
import { paymentNotifications, payments, refunds } from '../../src/db/schema'
import { NO_TRADE_AFTER_EXPIRY_MS } from '../../src/services/payments/payment-reconciliation'
import { REFUND_RECHECK_MS, REFUND_STUCK_MS } from '../../src/services/payments/refund-service'
import { createCloudOrder, newBuyer, orderInfo } from '../helpers/commerce'
import { wechatPayWorld, type FakeWechatPay } from '../helpers/fake-wechatpay'
import { buildTestApp, post, type FakeClock, type Session, type TestApp } from '../helpers/test-app'
import { INSTANT_SUPPLIER } from '../helpers/test-config'

const NOTIFY = '/vmcloud/api/pay/notify/wechatpay'
const MINUTE = 60_000

interface World {
  ta: TestApp
  fake: FakeWechatPay
  buyer: Session
}

async function wechatPayApp(t: TestContext): Promise<World> {
  let clock: FakeClock | null = null
  const now = () => clock!.now()
  const { fake, env } = await wechatPayWorld(t, now)
  const read = wechatPayCredentialsFromEnv(env)
  assert.ok(read.ok, read.ok ? '' : read.problems.join('; '))
  const provider = new WechatPayProvider(read.credentials, { now })
  const ta = await buildTestApp(t, {
    payments: [provider],
    config: INSTANT_SUPPLIER,
  })
  clock = ta.clock
  // WeChat Pay calls our public notify_url; here it reaches the app in-process, path and bytes intact.
  fake.deliver = async (url, headers, body) => {
    const reply = await ta.app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      headers,
      payload: body,
    })
    return reply.statusCode
  }
  return { ta, fake, buyer: await newBuyer(ta) }
}

async function payInMiniProgram(w: World, orderNo: string) {
  const reply = await post<CreatePaymentResult>(
    w.ta.app,
    '/pay/createPayment',
    { orderNo, payMethod: 2, scene: 'miniProgram', wxCode: 'sandbox:wechatpay-buyer' },
    w.buyer,
  )
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.checkoutUrl, null)
  assert.match(reply.data.wxPayParams?.package ?? '', /^prepay_id=wx/)
  return reply.data.tradeNo
}

async function paymentOf(w: World, tradeNo: string) {
  const [row] = await w.ta.database.db.select().from(payments).where(eq(payments.tradeNo, tradeNo))
  return row
}

const notificationsOf = (w: World, tradeNo: string) =>
  w.ta.database.db
    .select()
    .from(paymentNotifications)
    .where(eq(paymentNotifications.tradeNo, tradeNo))

test('wechatpay app: JSAPI pay → signed notification → order paid; a replay changes nothing', async (t) => {
  const w = await wechatPayApp(t)
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const tradeNo = await payInMiniProgram(w, order.orderNo)
  assert.equal(w.fake.trades.get(tradeNo)?.payer_openid?.startsWith('o_sandbox_'), true)
  w.fake.pay(tradeNo)
  await w.fake.settled()
  assert.deepEqual(
    w.fake.deliveries.map((d) => d.status),
    [200],
  )
  assert.equal((await orderInfo(w.ta, w.buyer, order.orderNo)).status, OrderStatus.paid)
  assert.equal((await paymentOf(w, tradeNo)).status, 'paid')

  const [real] = w.fake.deliveries
  const replay = await w.ta.app.inject({
    method: 'POST',
    url: NOTIFY,
    headers: real.headers,
    payload: real.body,
  })
  assert.equal(replay.statusCode, 200, 'WeChat Pay is told it arrived, so it stops sending')
  assert.deepEqual(replay.json(), { code: 'SUCCESS', message: '成功' })
  assert.equal((await notificationsOf(w, tradeNo)).length, 1)
  assert.equal((await paymentOf(w, tradeNo)).status, 'paid')
})

test('wechatpay app: forged, tampered and old notifications are refused with 401 and nothing written', async (t) => {
  const w = await wechatPayApp(t)
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const tradeNo = await payInMiniProgram(w, order.orderNo)
  w.fake.dropNotifications = true
  w.fake.pay(tradeNo)
  await w.fake.settled()
  const { body, headers } = w.fake.deliveries[0]
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const tampered = body.replace(/"ciphertext":"(.)/, (_m, c: string) => {
    return `"ciphertext":"${c === 'A' ? 'B' : 'A'}`
  })
  w.ta.clock.advance(5 * MINUTE + 1_000)
  for (const [what, h, b] of [
    [
      'signed with another key',
      { ...w.fake.signedHeaders(body, forger.privateKey), 'Content-Type': 'application/json' },
      body,
    ],
    ['tampered after signing', headers, tampered],
    ['older than 5 minutes', headers, body],
  ] as const) {
    const reply = await w.ta.app.inject({ method: 'POST', url: NOTIFY, headers: h, payload: b })
    assert.equal(reply.statusCode, 401, what)
  }
  assert.equal((await notificationsOf(w, tradeNo)).length, 0)
  assert.equal((await paymentOf(w, tradeNo)).status, 'pending')
  assert.equal((await orderInfo(w.ta, w.buyer, order.orderNo)).status, OrderStatus.unpaid)
  // WeChat Pay's own retry, signed now, is believed.
  w.fake.dropNotifications = false
  await w.fake.resendFailed()
  assert.equal(w.fake.deliveries.at(-1)?.status, 200)
  assert.equal((await orderInfo(w.ta, w.buyer, order.orderNo)).status, OrderStatus.paid)
})

test('wechatpay app: money that arrives after the order timed out is refunded through WeChat Pay', async (t) => {
  const w = await wechatPayApp(t)
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const tradeNo = await payInMiniProgram(w, order.orderNo)
  w.ta.clock.advance(14 * MINUTE)
  w.fake.dropNotifications = true
  w.fake.pay(tradeNo) // inside the pay window; our server misses the notification
  await w.fake.settled()
  w.ta.clock.advance(2 * MINUTE)
  for (const id of await w.ta.app.services.orders.overdue(w.ta.clock.now())) {
    await w.ta.app.services.orders.close(id, OrderStatus.timedOut)
  }
  assert.equal((await orderInfo(w.ta, w.buyer, order.orderNo)).status, OrderStatus.timedOut)
  w.fake.dropNotifications = false
  await w.fake.resendFailed() // WeChat Pay's retry arrives late
  assert.equal((await paymentOf(w, tradeNo)).status, 'refunding')
  await w.ta.app.jobs.runDue() // send-refund: the refund call to WeChat Pay
  const trade = w.fake.trades.get(tradeNo)!
  assert.equal(trade.refunded, trade.total)
  await w.fake.settled() // the refund notification
  const [refund] = await w.ta.database.db
    .select()
    .from(refunds)
    .where(eq(refunds.paymentId, (await paymentOf(w, tradeNo)).id))
  assert.equal(refund.status, 'succeeded')
  assert.equal((await paymentOf(w, tradeNo)).status, 'refunded')
  assert.equal(w.fake.refunds.get(refund.refundNo)?.status, 'SUCCESS')
  assert.equal((await orderInfo(w.ta, w.buyer, order.orderNo)).status, OrderStatus.timedOut)
})

test('wechatpay app: paid at WeChat Pay but never notified → reconciliation marks it paid, once', async (t) => {
  const w = await wechatPayApp(t)
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const tradeNo = await payInMiniProgram(w, order.orderNo)
  w.fake.dropNotifications = true
  w.fake.pay(tradeNo)
  await w.fake.settled()
  w.ta.clock.advance(MINUTE + 1_000)
  w.fake.failNext(500) // the first query fails; the next round asks again
  assert.equal(await w.ta.app.services.paymentReconciliation.reconcile(w.ta.clock.now()), 0)
  assert.equal((await paymentOf(w, tradeNo)).status, 'pending')
  w.ta.clock.advance(MINUTE + 1_000)
  assert.equal(await w.ta.app.services.paymentReconciliation.reconcile(w.ta.clock.now()), 1)
  assert.equal((await orderInfo(w.ta, w.buyer, order.orderNo)).status, OrderStatus.paid)
  // The notification that finally comes is a duplicate.
  w.fake.dropNotifications = false
  await w.fake.resendFailed()
  assert.equal(w.fake.deliveries.at(-1)?.status, 200)
  assert.equal((await notificationsOf(w, tradeNo)).length, 1)
})

test('wechatpay app: a trade left open when its order is cancelled is closed at WeChat Pay', async (t) => {
  const w = await wechatPayApp(t)
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const tradeNo = await payInMiniProgram(w, order.orderNo)
  const cancelled = await post(w.ta.app, '/order/cancel', { orderNo: order.orderNo }, w.buyer)
  assert.equal(cancelled.code, 200, cancelled.msg)
  await w.ta.app.services.paymentReconciliation.reconcile(w.ta.clock.now())
  assert.equal(w.fake.trades.get(tradeNo)?.trade_state, 'CLOSED')
  assert.equal((await paymentOf(w, tradeNo)).status, 'closed')
  assert.throws(() => w.fake.pay(tradeNo), /cannot pay/)
})

test('wechatpay app: a cancelled order whose trade WeChat Pay has not recorded yet (ORDER_NOT_EXIST, its close a bare 204): paid later with the notification lost, the money is found and refunded once', async (t) => {
  const w = await wechatPayApp(t)
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const tradeNo = await payInMiniProgram(w, order.orderNo)
  const cancelled = await post(w.ta.app, '/order/cancel', { orderNo: order.orderNo }, w.buyer)
  assert.equal(cancelled.code, 200, cancelled.msg)
  // two rounds of query, close (204, nothing closed) and the query after it
  w.fake.notFoundNext('query', 4)
  w.fake.notFoundNext('close', 1)
  const reconcile = () => w.ta.app.services.paymentReconciliation.reconcile(w.ta.clock.now())
  assert.equal(await reconcile(), 0)
  assert.equal((await paymentOf(w, tradeNo)).status, 'pending', 'no record is not "never opened"')
  assert.equal(w.fake.trades.get(tradeNo)?.trade_state, 'NOTPAY', 'the bare 204 closed nothing')
  w.fake.dropNotifications = true
  w.fake.pay(tradeNo) // still payable at WeChat Pay until its time_expire
  await w.fake.settled()
  w.ta.clock.advance(MINUTE + 1_000)
  assert.equal(await reconcile(), 0, 'WeChat Pay still answers ORDER_NOT_EXIST')
  w.ta.clock.advance(MINUTE + 1_000)
  assert.equal(await reconcile(), 1)
  assert.equal((await paymentOf(w, tradeNo)).status, 'refunding')
  w.fake.dropNotifications = false
  await w.ta.app.jobs.runDue()
  await w.fake.settled()
  const trade = w.fake.trades.get(tradeNo)!
  assert.equal(trade.refunded, trade.total)
  assert.equal([...w.fake.refunds.values()].filter((r) => r.out_trade_no === tradeNo).length, 1)
  assert.equal((await paymentOf(w, tradeNo)).status, 'refunded')
  assert.equal((await orderInfo(w.ta, w.buyer, order.orderNo)).status, OrderStatus.cancelled)
})

test('wechatpay app: a trade WeChat Pay never finds is taken as closed only past its time_expire and the margin, nothing taken', async (t) => {
  const w = await wechatPayApp(t)
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const tradeNo = await payInMiniProgram(w, order.orderNo)
  const cancelled = await post(w.ta.app, '/order/cancel', { orderNo: order.orderNo }, w.buyer)
  assert.equal(cancelled.code, 200, cancelled.msg)
  w.fake.notFoundNext('query', 1000)
  w.fake.notFoundNext('close', 1000)
  const deadline = order.payDeadline
  while (w.ta.clock.now().getTime() < deadline + NO_TRADE_AFTER_EXPIRY_MS) {
    await w.ta.app.services.paymentReconciliation.reconcile(w.ta.clock.now())
    assert.equal((await paymentOf(w, tradeNo)).status, 'pending')
    w.ta.clock.advance(MINUTE + 1_000)
  }
  assert.equal(await w.ta.app.services.paymentReconciliation.reconcile(w.ta.clock.now()), 1)
  assert.equal((await paymentOf(w, tradeNo)).status, 'closed')
  assert.equal(
    w.fake.trade(tradeNo)?.trade_state,
    'CLOSED',
    'past time_expire WeChat Pay takes nothing',
  )
  assert.equal(w.fake.refunds.size, 0)
})

test('wechatpay app: H5 pay in a mobile browser answers the h5_url with our pay page to return to', async (t) => {
  const w = await wechatPayApp(t)
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const reply = await post<CreatePaymentResult>(
    w.ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 2, scene: 'browser' },
    w.buyer,
  )
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.wxPayParams, null)
  const url = new URL(reply.data.checkoutUrl!)
  assert.equal(
    url.searchParams.get('redirect_url'),
    `https://cloudphone.example.cn/pages/pay/pay?orderNo=${order.orderNo}`,
  )
  assert.equal(w.fake.trades.get(reply.data.tradeNo)?.payer_client_ip, '127.0.0.1')
})

test("wechatpay app: the config names the scenes JSAPI needs the payer's code in; a code sent for H5 pay is ignored", async (t) => {
  const w = await wechatPayApp(t)
  const config = await w.ta.app.inject({
    method: 'GET',
    url: '/vmcloud/api/configure/getCommonConfig',
  })
  assert.deepEqual(config.json().data.wechatPayCodeScenes, ['miniProgram', 'wechatBrowser'])
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const reply = await post<CreatePaymentResult>(
    w.ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 2, scene: 'browser', wxCode: 'not-a-code' },
    w.buyer,
  )
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(w.fake.trades.get(reply.data.tradeNo)?.payer_openid, null)
})

/** An order paid twice (two trades, both paid): one payment is kept, the other is refunding. */
async function paidTwice(w: World) {
  const { data: order } = await createCloudOrder(w.ta, w.buyer)
  const trades = [
    await payInMiniProgram(w, order.orderNo),
    await payInMiniProgram(w, order.orderNo),
  ]
  for (const tradeNo of trades) w.fake.pay(tradeNo)
  await w.fake.settled()
  const rows = await w.ta.database.db
    .select()
    .from(payments)
    .where(inArray(payments.tradeNo, trades))
  const kept = rows.find((row) => row.status === 'paid')!
  const back = rows.find((row) => row.status === 'refunding')!
  assert.ok(kept && back, rows.map((row) => row.status).join())
  const refundOf = async () =>
    (await w.ta.database.db.select().from(refunds).where(eq(refunds.paymentId, back.id)))[0]
  return { order, kept: kept.tradeNo, back: back.tradeNo, refundOf }
}

type RefundStep =
  | { kind: 'jobs' }
  | { kind: 'reconcile' }
  | { kind: 'lose'; how: 'unrecorded' | 'answerLost' }
  | { kind: 'fail' }
  | { kind: 'notifications'; drop: boolean }
  | { kind: 'deliver' }

const refundStep: fc.Arbitrary<RefundStep> = fc.oneof(
  fc.constant({ kind: 'jobs' as const }),
  fc.constant({ kind: 'reconcile' as const }),
  fc.record({
    kind: fc.constant('lose' as const),
    how: fc.constantFrom('unrecorded' as const, 'answerLost' as const),
  }),
  fc.constant({ kind: 'fail' as const }),
  fc.record({ kind: fc.constant('notifications' as const), drop: fc.boolean() }),
  fc.constant({ kind: 'deliver' as const }),
)

test('property: whatever is lost (refund requests WeChat Pay never recorded, answers, notifications) or fails, WeChat Pay refunds each refundNo at most once and every refund ends, money back once', async (t) => {
  const w = await wechatPayApp(t)
  await fc.assert(
    fc.asyncProperty(fc.array(refundStep, { minLength: 1, maxLength: 12 }), async (steps) => {
      const { kept, back, refundOf } = await paidTwice(w)
      const { fake, ta } = w
      const atMostOnce = () => {
        const taken = [...fake.refunds.values()].filter((r) => r.out_trade_no === back)
        assert.ok(taken.length <= 1, `${taken.length} refunds of one trade`)
        const trade = fake.trades.get(back)!
        assert.equal(trade.refunded, taken.length === 1 ? trade.total : 0)
        assert.equal(fake.trades.get(kept)!.refunded, 0, 'the kept payment is never refunded')
      }
      for (const step of steps) {
        switch (step.kind) {
          case 'jobs':
            await ta.app.jobs.runDue()
            break
          case 'reconcile':
            ta.clock.advance(REFUND_RECHECK_MS + 1_000)
            await ta.app.services.refunds.reconcile(ta.clock.now())
            break
          case 'lose':
            fake.loseNextRefund = step.how
            break
          case 'fail':
            fake.failNext(500)
            break
          case 'notifications':
            fake.dropNotifications = step.drop
            break
          case 'deliver':
            await fake.settled()
            await fake.resendFailed()
            break
        }
        atMostOnce()
      }
      // Then nothing more is lost: WeChat Pay's retries arrive and reconciliation runs.
      fake.dropNotifications = false
      fake.loseNextRefund = null
      fake.clearFailures()
      for (let round = 0; round < 20 && (await refundOf()).status === 'requested'; round++) {
        await fake.settled()
        await fake.resendFailed()
        ta.clock.advance(REFUND_RECHECK_MS + 1_000)
        await ta.app.services.refunds.reconcile(ta.clock.now())
        atMostOnce()
      }
      await fake.settled()
      const refund = await refundOf()
      assert.equal(refund.status, 'succeeded')
      assert.equal(fake.refunds.get(refund.refundNo)?.status, 'SUCCESS')
      assert.equal(fake.trades.get(back)!.refunded, refund.amount, 'money back once')
      const [payment] = await ta.database.db
        .select()
        .from(payments)
        .where(eq(payments.tradeNo, back))
      assert.equal(payment.status, 'refunded')
    }),
    { numRuns: 25 },
  )
})

test('wechatpay app: a refund still not final a week after it was requested is logged once for an operator', async (t) => {
  const w = await wechatPayApp(t)
  const { back, refundOf } = await paidTwice(w)
  const logged = t.mock.method(w.ta.app.services.ctx.log, 'error')
  const stuck = () =>
    logged.mock.calls.filter((call) => String(call.arguments[1]).includes('not final a week'))
  w.fake.failNext(500, 4) // WeChat Pay is down for the first four calls
  await w.ta.app.jobs.runDue() // 1: the send-refund job
  w.ta.clock.advance(REFUND_STUCK_MS - 2 * REFUND_RECHECK_MS)
  await w.ta.app.services.refunds.reconcile(w.ta.clock.now()) // 2
  assert.equal(stuck().length, 0, 'not a week yet')
  w.ta.clock.advance(2 * REFUND_RECHECK_MS + 1_000)
  await w.ta.app.services.refunds.reconcile(w.ta.clock.now()) // 3
  assert.equal(stuck().length, 1)
  const { refundNo } = await refundOf()
  assert.equal((stuck()[0].arguments[0] as { refundNo: string }).refundNo, refundNo)
  w.ta.clock.advance(REFUND_RECHECK_MS + 1_000)
  await w.ta.app.services.refunds.reconcile(w.ta.clock.now()) // 4
  assert.equal(stuck().length, 1, 'logged once, still sent again')
  w.ta.clock.advance(REFUND_RECHECK_MS + 1_000)
  await w.ta.app.services.refunds.reconcile(w.ta.clock.now())
  assert.equal(w.fake.trades.get(back)!.refunded, (await refundOf()).amount)
  await w.fake.settled()
  assert.equal((await refundOf()).status, 'succeeded')
})

/**
 * WeChat Pay answers "not found" for a trade it has (its delay right after payment) twice: the refund
 * stays requested and is sent again every REFUND_RECHECK_MS, then succeeds once, money back once.
 */
async function notFoundThenRefunded(t: TestContext, call: 'refund' | 'query', code: RegExp) {
  const w = await wechatPayApp(t)
  const { back, refundOf } = await paidTwice(w)
  const logged = t.mock.method(w.ta.app.services.ctx.log, 'error')
  const takenAtWechatPay = () => [...w.fake.refunds.values()].filter((r) => r.out_trade_no === back)
  w.fake.notFoundNext(call, 2)
  await w.ta.app.jobs.runDue() // the send-refund job: not found
  for (const attempts of [1, 2]) {
    const refund = await refundOf()
    assert.equal(refund.status, 'requested', 'not given up')
    assert.equal(refund.attempts, attempts)
    assert.match(refund.lastError ?? '', code)
    assert.equal(refund.sentAt, null, 'sent again, not asked about')
    assert.equal(takenAtWechatPay().length, 0)
    w.ta.clock.advance(REFUND_RECHECK_MS + 1_000)
    await w.ta.app.services.refunds.reconcile(w.ta.clock.now()) // 2: not found; 3: taken
  }
  assert.equal(takenAtWechatPay().length, 1)
  await w.fake.settled() // the refund notification
  const refund = await refundOf()
  assert.equal(refund.status, 'succeeded')
  assert.equal(refund.lastError, null)
  assert.equal((await paymentOf(w, back)).status, 'refunded')
  // Later rounds change nothing: one refund at WeChat Pay, the money back once, never logged failed
  // (the send-refund job's own 'job failed' for its passing error is all there is).
  w.ta.clock.advance(REFUND_RECHECK_MS + 1_000)
  await w.ta.app.services.refunds.reconcile(w.ta.clock.now())
  await w.ta.app.jobs.runDue()
  await w.fake.settled()
  assert.equal(takenAtWechatPay().length, 1)
  assert.equal(w.fake.trades.get(back)!.refunded, refund.amount, 'money back once')
  assert.equal((await refundOf()).status, 'succeeded')
  assert.deepEqual(
    logged.mock.calls.map((c) => c.arguments[1]).filter((message) => message !== 'job failed'),
    [],
  )
}

test('wechatpay app: a refund WeChat Pay answers 404 RESOURCE_NOT_EXISTS (not found yet) is sent again and succeeds once', async (t) => {
  await notFoundThenRefunded(t, 'refund', /404 RESOURCE_NOT_EXISTS/)
})

test('wechatpay app: a refund whose trade query answers 404 ORDER_NOT_EXIST (not found yet) is sent again and succeeds once', async (t) => {
  await notFoundThenRefunded(t, 'query', /404 ORDER_NOT_EXIST/)
})

test('wechatpay app: a refund WeChat Pay refuses for good (403 USER_ACCOUNT_ABNORMAL) ends failed at once, logged for an operator', async (t) => {
  const w = await wechatPayApp(t)
  const { back, refundOf } = await paidTwice(w)
  const logged = t.mock.method(w.ta.app.services.ctx.log, 'error')
  w.fake.refuseNextRefund = { status: 403, code: 'USER_ACCOUNT_ABNORMAL', message: '退款请求失败' }
  await w.ta.app.jobs.runDue()
  const refund = await refundOf()
  assert.equal(refund.status, 'failed')
  assert.equal(refund.lastError, '退款请求失败（USER_ACCOUNT_ABNORMAL）')
  assert.deepEqual(
    logged.mock.calls.map((c) => c.arguments[1]),
    ['refund failed at the provider: the money is still there, an operator must return it'],
  )
  // Never sent again: the operator returns the money.
  w.ta.clock.advance(REFUND_RECHECK_MS + 1_000)
  await w.ta.app.services.refunds.reconcile(w.ta.clock.now())
  await w.ta.app.jobs.runDue()
  assert.equal(w.fake.refunds.size, 0)
  assert.equal(w.fake.trades.get(back)!.refunded, 0)
  assert.equal((await refundOf()).status, 'failed')
  assert.equal((await paymentOf(w, back)).status, 'refunding')
})
