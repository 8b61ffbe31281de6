/**
 * Several payment providers at once: each pay method opens its trades with its own
 * provider, whose name the payment row keeps; notifications, queries, closing and refunds go to that
 * provider only, so one provider never settles another's trade. The callbacks keep the raw body of a
 * JSON or a form post byte for byte, and answer a handled notification in the provider's own words.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { eq } from 'drizzle-orm'
import {
  API_ROOT,
  notifyPath,
  notifyUrl,
  PaymentNotificationError,
  PaymentProviderRefusal,
  PaymentSignatureError,
  type PaymentNotice,
} from '../../src/adapters/payment/payment-provider'
import { PaymentProviders } from '../../src/adapters/payment/payment-providers'
import { sign } from '../../src/adapters/payment/sandbox/protocol'
import {
  SandboxPaymentProvider,
  type SandboxPaySettings,
} from '../../src/adapters/payment/sandbox/sandbox-payment'
import { buildApp } from '../../src/app'
import type { Clock } from '../../src/clock'
import type { SandboxActResult } from '../../src/contract/payment'
import type { Db } from '../../src/db/client'
import { paymentNotifications, refunds, sandboxPayTrades } from '../../src/db/schema'
import { API_PREFIX } from '../../src/plugins/errors'
import {
  createCloudOrder,
  newBuyer,
  orderInfo,
  paymentRow,
  sandboxProvider,
  startPayment,
} from '../helpers/commerce'
import { checkRouteCodes } from '../helpers/route-codes-check'
import { FakeClock, post, type Session, type TestApp } from '../helpers/test-app'
import { INSTANT_SUPPLIER, testConfig } from '../helpers/test-config'
import { createTestDatabase } from '../helpers/test-database'

const SECRET = 'one-secret-for-both-so-only-the-provider-name-tells-them-apart'
const MINUTE = 60_000

/**
 * A provider that is called back with a form post and answers `success`, as Alipay does: it keeps
 * every body it was asked to verify, and checks the sandbox's HMAC over the raw bytes.
 */
class FormPostProvider extends SandboxPaymentProvider {
  override readonly notifyReply = { contentType: 'text/plain; charset=utf-8', body: 'success' }
  readonly received: string[] = []

  override verifyNotification(headers: Record<string, unknown>, rawBody: string): PaymentNotice {
    this.received.push(rawBody)
    if (headers['x-sandbox-signature'] !== sign(SECRET, rawBody)) throw new PaymentSignatureError()
    const form = new URLSearchParams(rawBody)
    return {
      tradeNo: form.get('out_trade_no') ?? '',
      status: form.get('trade_status') === 'TRADE_SUCCESS' ? 'paid' : 'failed',
      amount: Number(form.get('total_fen')),
      payload: Object.fromEntries(form),
    }
  }
}

type Make = (db: Db, clock: Clock, settings: SandboxPaySettings) => SandboxPaymentProvider

/** An app whose pay methods 1 and 2 are collected by two providers of these names. */
async function twoProviderApp(
  t: TestContext,
  alipay: { name: string; make?: Make },
  wechatPay: { name: string; make?: Make },
): Promise<TestApp> {
  const database = await createTestDatabase()
  const clock = new FakeClock()
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-files-'))
  const provider = (p: { name: string; make?: Make }, methods: number[]) =>
    (p.make ?? ((db, c, s) => new SandboxPaymentProvider(db, c, s)))(database.db, clock, {
      secret: SECRET,
      // notifications go out only when a test flushes them
      delayMs: 120_000,
      name: p.name,
      methods,
    })
  const app = await buildApp({
    config: testConfig({ filesDir, ...INSTANT_SUPPLIER }),
    database,
    overrides: { clock, payments: [provider(alipay, [1]), provider(wechatPay, [2])] },
  })
  t.after(async () => {
    await app.close()
    await database.close()
    fs.rmSync(filesDir, { recursive: true, force: true })
  })
  checkRouteCodes(t, app)
  await app.ready()
  return { app, clock, database, filesDir }
}

async function newOrder(ta: TestApp, buyer: Session) {
  const reply = await createCloudOrder(ta, buyer)
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

function notify(ta: TestApp, url: string, body: string, signature: string, type: string) {
  return ta.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': type, 'x-sandbox-signature': signature },
    payload: body,
  })
}

test('the notify path is spelt once, under the API prefix', () => {
  assert.equal(API_ROOT, API_PREFIX)
  assert.equal(notifyPath('alipay'), '/vmcloud/api/pay/notify/alipay')
  assert.equal(notifyPath('wechatpay', 'refund'), '/vmcloud/api/pay/notify/wechatpay/refund')
  assert.equal(
    notifyUrl('https://phone.example.com/', 'wechatpay'),
    'https://phone.example.com/vmcloud/api/pay/notify/wechatpay',
  )
})

test('providers: each pay method has exactly one, names are unique path segments', () => {
  const fake = (name: string, methods: number[]) =>
    ({ name, methods }) as unknown as SandboxPaymentProvider
  const both = new PaymentProviders([fake('alipay', [1]), fake('wechatpay', [2])])
  assert.equal(both.forMethod(1).name, 'alipay')
  assert.equal(both.forMethod(2).name, 'wechatpay')
  assert.equal(both.named('wechatpay')?.name, 'wechatpay')
  assert.equal(both.named('nobody'), undefined)
  assert.equal(both.running('alipay').name, 'alipay')
  assert.throws(
    () => both.running('nobody'),
    (error) => error instanceof PaymentNotificationError && error.httpStatus === 404,
  )
  assert.throws(() => both.forMethod(3), /no payment provider for pay method 3/)
  assert.throws(
    () => new PaymentProviders([fake('alipay', [1])]),
    /no payment provider for pay method 2/,
  )
  assert.throws(
    () => new PaymentProviders([fake('a', [1, 2]), fake('b', [2])]),
    /pay method 2 has two providers: a, b/,
  )
  assert.throws(
    () => new PaymentProviders([fake('same', [1]), fake('same', [2])]),
    /two payment providers are named "same"/,
  )
  for (const bad of ['', 'Alipay', 'a/b', '../x', 'a b', 'x'.repeat(33)]) {
    assert.throws(() => new PaymentProviders([fake(bad, [1, 2])]), /not a lower-case path segment/)
  }
  // the sandbox collects what the real ones leave, and nothing when they leave nothing
  const made: number[][] = []
  const sandbox = (methods: number[]) => {
    made.push(methods)
    return fake('sandbox', methods)
  }
  assert.deepEqual(PaymentProviders.withSandbox([fake('wechatpay', [2])], sandbox).names, [
    'wechatpay',
    'sandbox',
  ])
  assert.deepEqual(PaymentProviders.withSandbox([], sandbox).forMethod(2).name, 'sandbox')
  assert.deepEqual(
    PaymentProviders.withSandbox([fake('alipay', [1]), fake('wechatpay', [2])], sandbox).names,
    ['alipay', 'wechatpay'],
  )
  assert.deepEqual(made, [[1], [1, 2]])
})

test('each pay method opens its trade with its own provider, and each checkout reports to it', async (t) => {
  const ta = await twoProviderApp(t, { name: 'sandbox' }, { name: 'sandbox-wechat' })
  const buyer = await newBuyer(ta)
  for (const [payMethod, name] of [
    [1, 'sandbox'],
    [2, 'sandbox-wechat'],
  ] as const) {
    const order = await newOrder(ta, buyer)
    const { tradeNo } = await startPayment(ta, buyer, order.orderNo, payMethod)
    assert.equal((await paymentRow(ta, tradeNo)).provider, name)
    const acted = await post<SandboxActResult>(ta.app, '/sandbox/pay/act', {
      tradeNo,
      action: 'pay',
    })
    assert.equal(acted.code, 200, acted.msg)
    await sandboxProvider(ta, name).outbox.flush()
    assert.equal((await paymentRow(ta, tradeNo)).status, 'paid', name)
    assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 1)
    const [record] = await ta.database.db
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.tradeNo, tradeNo))
    assert.equal(record.provider, name)
  }
})

test("two providers never settle each other's trades: not by notification, not by query", async (t) => {
  const ta = await twoProviderApp(t, { name: 'sandbox' }, { name: 'sandbox-wechat' })
  const alipay = sandboxProvider(ta, 'sandbox')
  const wechat = sandboxProvider(ta, 'sandbox-wechat')
  const buyer = await newBuyer(ta)
  const order = await newOrder(ta, buyer)
  const { tradeNo } = await startPayment(ta, buyer, order.orderNo, 2)

  // The same secret signs for both: only the provider the callback names decides. Its own
  // notification through the other provider's callback finds no trade of that provider.
  const paid = wechat.notification(tradeNo, 'paid', order.amount)
  for (const [url, status] of [
    [notifyPath('sandbox'), 404], // signed, but not a trade of this provider
    [notifyPath('nobody'), 404], // no such provider here
    [notifyPath('sandbox-wechat', 'refund'), 401], // a trade notice is not a refund notice
  ] as const) {
    const reply = await notify(ta, url, paid.body, paid.signature, 'application/json')
    assert.equal(reply.statusCode, status, url)
  }
  assert.equal((await paymentRow(ta, tradeNo)).status, 'pending')
  assert.equal((await ta.database.db.select().from(paymentNotifications)).length, 0)
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 0)

  // The other provider does not know the trade either: it cannot say it was paid, nor close it.
  await assert.rejects(alipay.queryTrade(tradeNo), PaymentProviderRefusal)
  await assert.rejects(alipay.closeTrade(tradeNo), PaymentProviderRefusal)
  const foreignPage = await ta.app.inject({
    method: 'GET',
    url: `/vmcloud/api/sandbox/pay/checkout?tradeNo=${tradeNo}`,
  })
  assert.equal(foreignPage.statusCode, 200, 'the checkout finds the sandbox that opened it')

  // The buyer pays at WeChat's sandbox; the notification is lost. Reconciliation asks the provider
  // named on the row, and only it.
  const asked: string[] = []
  for (const provider of [alipay, wechat]) {
    const query = provider.queryTrade.bind(provider)
    provider.queryTrade = (no) => {
      asked.push(`${provider.name}:${no}`)
      return query(no)
    }
  }
  const acted = await post<SandboxActResult>(ta.app, '/sandbox/pay/act', { tradeNo, action: 'pay' })
  assert.equal(acted.code, 200)
  await wechat.outbox.close()
  ta.clock.advance(MINUTE + 1_000)
  assert.equal(await ta.app.services.paymentReconciliation.reconcile(ta.clock.now()), 1)
  assert.deepEqual(asked, [`sandbox-wechat:${tradeNo}`])
  assert.equal((await paymentRow(ta, tradeNo)).status, 'paid')
  const [record] = await ta.database.db.select().from(paymentNotifications)
  assert.deepEqual(
    [record.provider, (record.payload as { source: string }).source],
    ['sandbox-wechat', 'query'],
  )
})

test('a refund goes to the provider that took the money, and only its refund callback finishes it', async (t) => {
  const ta = await twoProviderApp(t, { name: 'sandbox' }, { name: 'sandbox-wechat' })
  const alipay = sandboxProvider(ta, 'sandbox')
  const wechat = sandboxProvider(ta, 'sandbox-wechat')
  const buyer = await newBuyer(ta)
  const order = await newOrder(ta, buyer)
  // Two trades for one order, one per provider, both paid: the second is refunded by its own provider.
  const first = (await startPayment(ta, buyer, order.orderNo, 1)).tradeNo
  const second = (await startPayment(ta, buyer, order.orderNo, 2)).tradeNo
  for (const tradeNo of [first, second]) {
    const acted = await post<SandboxActResult>(ta.app, '/sandbox/pay/act', {
      tradeNo,
      action: 'pay',
    })
    assert.equal(acted.code, 200)
  }
  await alipay.outbox.flush()
  await wechat.outbox.flush()
  assert.equal((await paymentRow(ta, first)).status, 'paid')
  assert.equal((await paymentRow(ta, second)).status, 'refunding')
  const [refund] = await ta.database.db.select().from(refunds)
  assert.equal(refund.provider, 'sandbox-wechat')
  assert.equal(await ta.app.services.refunds.advance(refund.id), 'requested')
  assert.equal((await wechat.queryRefund(refund.refundNo, second))?.status, 'processing')
  assert.equal(await alipay.queryRefund(refund.refundNo, second), null, 'not its refund')

  // the refund's notification through the other provider's refund callback changes nothing
  const done = wechat.refundNotification(refund.refundNo, second, 'succeeded', order.amount)
  const wrong = await notify(
    ta,
    notifyPath('sandbox', 'refund'),
    done.body,
    done.signature,
    'application/json',
  )
  assert.equal(wrong.statusCode, 404)
  assert.equal((await paymentRow(ta, second)).status, 'refunding')
  await wechat.outbox.flush()
  assert.equal((await paymentRow(ta, second)).status, 'refunded')
  assert.equal(await wechat.heldFor(second), 0)
  assert.equal(await alipay.heldFor(first), order.amount)
})

test('a form-post notification reaches its provider byte for byte and is answered in its words', async (t) => {
  let form: FormPostProvider | null = null
  const ta = await twoProviderApp(
    t,
    {
      name: 'formpay',
      make: (db, clock, settings) => (form = new FormPostProvider(db, clock, settings)),
    },
    { name: 'sandbox' },
  )
  const provider = form as unknown as FormPostProvider
  const buyer = await newBuyer(ta)
  const order = await newOrder(ta, buyer)
  const { tradeNo } = await startPayment(ta, buyer, order.orderNo, 1)
  assert.equal((await paymentRow(ta, tradeNo)).provider, 'formpay')

  // Alipay's notify is a form post: percent-escapes, '+' for spaces, Chinese, a base64 signature
  const body =
    `gmt_create=2026-03-02+10%3A00%3A00&charset=utf-8&subject=%E4%BA%91%E6%89%8B%E6%9C%BA+${order.orderNo}` +
    `&out_trade_no=${tradeNo}&trade_status=TRADE_SUCCESS&total_fen=${order.amount}` +
    '&sign=ab%2Bcd%2F%3D%3D&empty=&dup=1&dup=2'
  const forged = await notify(
    ta,
    notifyPath('formpay'),
    body,
    sign('not-the-secret', body),
    'application/x-www-form-urlencoded; charset=utf-8',
  )
  assert.equal(forged.statusCode, 401)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'pending', 'a refusal writes nothing')

  const reply = await notify(
    ta,
    notifyPath('formpay'),
    body,
    sign(SECRET, body),
    'application/x-www-form-urlencoded; charset=utf-8',
  )
  assert.deepEqual(provider.received, [body, body], 'the raw body, exactly as sent')
  assert.equal(reply.statusCode, 200)
  assert.equal(reply.body, 'success')
  assert.match(String(reply.headers['content-type']), /^text\/plain/)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'paid')
  // a replay is answered the same way (the provider stops resending), and changes nothing
  const replay = await notify(
    ta,
    notifyPath('formpay'),
    body,
    sign(SECRET, body),
    'application/x-www-form-urlencoded',
  )
  assert.deepEqual([replay.statusCode, replay.body], [200, 'success'])
  const records = await ta.database.db
    .select()
    .from(paymentNotifications)
    .where(eq(paymentNotifications.tradeNo, tradeNo))
  assert.equal(records.length, 1)

  // JSON keeps its bytes too (WeChat Pay signs the body as sent: spacing, key order, escapes)
  const json = ` {"out_trade_no" : "${tradeNo}",\n "x":"\\u4e91"} `
  const jsonReply = await notify(
    ta,
    notifyPath('formpay'),
    json,
    'unsigned',
    'application/json; charset=utf-8',
  )
  assert.equal(jsonReply.statusCode, 401)
  assert.equal(provider.received.at(-1), json)
  // the sandbox still answers with our envelope and its outcome
  const other = await newOrder(ta, buyer)
  const sandboxTrade = (await startPayment(ta, buyer, other.orderNo, 2)).tradeNo
  const signed = sandboxProvider(ta).notification(sandboxTrade, 'cancelled', other.amount)
  const sandboxReply = await notify(
    ta,
    notifyPath('sandbox'),
    signed.body,
    signed.signature,
    'application/json',
  )
  assert.equal(sandboxReply.json().data.outcome, 'cancelled')
  const [books] = await ta.database.db
    .select()
    .from(sandboxPayTrades)
    .where(eq(sandboxPayTrades.tradeNo, sandboxTrade))
  assert.equal(books.payMethod, 2)
})
