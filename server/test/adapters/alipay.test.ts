/**
 * The Alipay adapter against a local Alipay gateway (helpers/fake-alipay.ts): signed requests, verified
 * answers and notifications, trade query, close and refund, and which failures are final.
 */
import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import fc from 'fast-check'
import {
  PaymentNotificationError,
  PaymentProviderRefusal,
  PaymentSignatureError,
  type PaymentRequest,
} from '../../src/adapters/payment/payment-provider'
import {
  alipayCredentialsFromEnv,
  type AlipayCredentials,
} from '../../src/adapters/payment/alipay/alipay-credentials'
import {
  beijingTime,
  fenToYuanText,
  yuanTextToFen,
} from '../../src/adapters/payment/alipay/alipay-protocol'
import {
  ALIPAY_IN_WECHAT_REFUSAL,
  AlipayProvider,
  AlipayRefusal,
} from '../../src/adapters/payment/alipay/alipay-provider'
import { realAdapters } from '../../src/adapters'
import { loadConfig } from '../../src/config'
import { FakeAlipay, rsaKeyPair } from '../helpers/fake-alipay'

const APP_ID = '2021000122671080'
const BASE = 'https://phone.example.com'

/** An application key pair, a fake gateway that knows its public key, and the adapter pointed at it. */
async function setup(t: TestContext, overrides: Partial<AlipayCredentials> = {}) {
  const app = rsaKeyPair()
  const received: string[] = []
  const fake = await FakeAlipay.start({
    appId: APP_ID,
    appPublicKey: app.publicKey,
    // our notify route, played here by a recorder that answers like the real one
    deliver: async (_url, body) => {
      received.push(body)
      return { status: 200, body: 'success' }
    },
  })
  t.after(() => fake.close())
  const credentials: AlipayCredentials = {
    appId: APP_ID,
    privateKey: app.privateKey,
    alipayPublicKey: fake.alipayPublicKey,
    publicBaseUrl: BASE,
    gateway: fake.gateway,
    ...overrides,
  }
  return { fake, provider: new AlipayProvider(credentials), received }
}

let tradeCounter = 0
const request = (overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  tradeNo: `T${Date.now()}${++tradeCounter}`,
  orderNo: 'CO2026000001',
  amount: 1999,
  payMethod: 1,
  returnUrl: '/pages/pay/pay?orderNo=CO2026000001',
  expiresAt: new Date(Date.now() + 15 * 60_000),
  scene: 'browser',
  openId: null,
  clientIp: '203.0.113.7',
  description: '云手机订单 CO2026000001',
  ...overrides,
})

/** Opens the WAP link as the buyer's browser does; the page text. */
async function open(checkoutUrl: string) {
  const response = await fetch(checkoutUrl)
  return response.text()
}

/** A trade opened at the fake (the buyer followed the link). */
async function opened(provider: AlipayProvider, overrides: Partial<PaymentRequest> = {}) {
  const req = request(overrides)
  const start = await provider.createPayment(req)
  assert.match(await open(start.checkoutUrl!), /支付宝/)
  return req
}

describe('amounts and times', () => {
  test('fen → total_amount → fen is the identity, always two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (fen) => {
        const text = fenToYuanText(fen)
        assert.match(text, /^(0|[1-9]\d*)\.\d\d$/)
        assert.equal(yuanTextToFen(text), fen)
      }),
    )
    assert.equal(fenToYuanText(1), '0.01')
    assert.equal(fenToYuanText(1005), '10.05')
    assert.equal(fenToYuanText(123456789012), '1234567890.12')
  })

  test('only plain amounts are read', () => {
    assert.equal(yuanTextToFen('12'), 1200)
    assert.equal(yuanTextToFen('12.5'), 1250)
    for (const bad of ['1.234', '-1.00', '1e3', ' 1.00', '01.00', '', '.5', '1.', 12]) {
      assert.equal(yuanTextToFen(bad), null, String(bad))
    }
    assert.throws(() => fenToYuanText(1.5), RangeError)
    assert.throws(() => fenToYuanText(-1), RangeError)
  })

  test('times are Beijing wall-clock', () => {
    assert.equal(beijingTime(new Date('2026-03-02T16:30:59.900Z')), '2026-03-03 00:30:59')
  })
})

describe('credentials from the environment', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alipay-keys-'))
  const write = (name: string, text: string) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, text)
    return file
  }
  const app = rsaKeyPair()
  const alipay = rsaKeyPair()

  test('an empty environment lists every missing variable at once', () => {
    const result = alipayCredentialsFromEnv({})
    assert.equal(result.ok, false)
    const problems = result.ok ? [] : result.problems
    for (const name of [
      'ALIPAY_APP_ID',
      'ALIPAY_PRIVATE_KEY_FILE',
      'ALIPAY_PUBLIC_KEY_FILE',
      'PUBLIC_BASE_URL',
    ]) {
      assert.ok(
        problems.some((p) => p.includes(name)),
        `${name} in ${problems.join('; ')}`,
      )
    }
  })

  test('PKCS#1, PKCS#8 and the bare base64 of Alipay’s key tool all load', () => {
    const bare = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')
    for (const privateText of [app.privateKey, app.privateKeyPkcs1, bare(app.privateKey)]) {
      const result = alipayCredentialsFromEnv({
        ALIPAY_APP_ID: APP_ID,
        ALIPAY_PRIVATE_KEY_FILE: write('app.pem', privateText),
        ALIPAY_PUBLIC_KEY_FILE: write('alipay.pem', bare(alipay.publicKey)),
        PUBLIC_BASE_URL: `${BASE}/`,
      })
      assert.ok(result.ok, result.ok ? '' : result.problems.join('; '))
      assert.equal(result.credentials.publicBaseUrl, BASE)
      assert.equal(result.credentials.gateway, 'https://openapi.alipay.com/gateway.do')
      assert.match(result.credentials.privateKey, /BEGIN PRIVATE KEY/)
    }
  })

  test('wrong keys, a bad app id and bad URLs are each named', () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 })
    const result = alipayCredentialsFromEnv({
      ALIPAY_APP_ID: 'app-1',
      ALIPAY_PRIVATE_KEY_FILE: write(
        'weak.pem',
        weak.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ),
      ALIPAY_PUBLIC_KEY_FILE: path.join(dir, 'missing.pem'),
      PUBLIC_BASE_URL: 'phone.example.com',
      ALIPAY_GATEWAY: 'ftp://gateway',
    })
    assert.equal(result.ok, false)
    const text = result.ok ? '' : result.problems.join('\n')
    assert.match(text, /ALIPAY_APP_ID must be the 16-digit app id/)
    assert.match(text, /ALIPAY_PRIVATE_KEY_FILE must hold an RSA key of 2048 bits/)
    assert.match(text, /ALIPAY_PUBLIC_KEY_FILE: cannot read .*ENOENT/)
    assert.match(text, /PUBLIC_BASE_URL is not a URL/)
    assert.match(text, /ALIPAY_GATEWAY must be an http\(s\) URL/)
  })

  test('ALIPAY_PROVIDER=alipay: the adapter collects pay method 1, or its every problem is named', () => {
    const env = {
      ALIPAY_PROVIDER: 'alipay',
      ALIPAY_APP_ID: APP_ID,
      ALIPAY_PRIVATE_KEY_FILE: write('app.pem', app.privateKey),
      ALIPAY_PUBLIC_KEY_FILE: write('alipay.pem', alipay.publicKey),
      PUBLIC_BASE_URL: BASE,
    }
    const { payments } = realAdapters(loadConfig(env), env)
    assert.equal(payments.length, 1)
    assert.ok(payments[0] instanceof AlipayProvider)
    assert.deepEqual(payments[0].methods, [1])
    const missing = { ALIPAY_PROVIDER: 'alipay', PUBLIC_BASE_URL: BASE }
    assert.throws(
      () => realAdapters(loadConfig(missing), missing),
      (error: Error) =>
        ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY_FILE', 'ALIPAY_PUBLIC_KEY_FILE'].every((name) =>
          error.message.includes(name),
        ),
    )
  })

  test("the application's own public key in place of Alipay's is refused", () => {
    const result = alipayCredentialsFromEnv({
      ALIPAY_APP_ID: APP_ID,
      ALIPAY_PRIVATE_KEY_FILE: write('app.pem', app.privateKey),
      ALIPAY_PUBLIC_KEY_FILE: write('own.pem', app.publicKey),
      PUBLIC_BASE_URL: BASE,
    })
    assert.equal(result.ok, false)
    assert.match(result.ok ? '' : result.problems.join(), /application's own public key/)
  })
})

describe('WAP pay', () => {
  test('the signed link carries the exact amount, the pay window in Beijing time and our URLs', async (t) => {
    const { fake, provider } = await setup(t)
    const req = request({ amount: 1005, expiresAt: new Date('2030-01-01T04:00:30.500Z') })
    const start = await provider.createPayment(req)
    assert.equal(start.wxPayParams, null)
    const url = new URL(start.checkoutUrl!)
    assert.equal(`${url.origin}${url.pathname}`, fake.gateway)
    assert.equal(url.searchParams.get('method'), 'alipay.trade.wap.pay')
    // stamped in Beijing time whatever the process's time zone (alipay-sdk would use local time)
    const stamped = Date.parse(`${url.searchParams.get('timestamp')!.replace(' ', 'T')}+08:00`)
    assert.ok(Math.abs(stamped - Date.now()) < 60_000, url.searchParams.get('timestamp')!)
    assert.equal(url.searchParams.get('notify_url'), `${BASE}/vmcloud/api/pay/notify/alipay`)
    assert.equal(url.searchParams.get('return_url'), `${BASE}${req.returnUrl}`)
    const biz = JSON.parse(url.searchParams.get('biz_content')!) as Record<string, string>
    assert.deepEqual(biz, {
      out_trade_no: req.tradeNo,
      total_amount: '10.05',
      subject: '云手机订单 CO2026000001',
      product_code: 'QUICK_WAP_WAY',
      time_expire: '2030-01-01 12:00:30',
      quit_url: `${BASE}${req.returnUrl}`,
    })
    // Alipay opens the trade when the buyer follows the link, not before.
    await assert.rejects(provider.queryTrade(req.tradeNo), PaymentProviderRefusal)
    assert.match(await open(start.checkoutUrl!), /¥10\.05/)
    assert.equal((await provider.queryTrade(req.tradeNo)).status, 'pending')
  })

  test('a link whose amount was edited is refused by the gateway (the signature covers it)', async (t) => {
    const { provider } = await setup(t)
    const start = await provider.createPayment(request({ amount: 1999 }))
    const url = new URL(start.checkoutUrl!)
    const biz = JSON.parse(url.searchParams.get('biz_content')!) as Record<string, string>
    url.searchParams.set('biz_content', JSON.stringify({ ...biz, total_amount: '0.01' }))
    assert.match(await open(url.toString()), /isv\.invalid-signature/)
  })

  test('inside WeChat (mini-program or its browser) Alipay is refused with the message to show', async (t) => {
    const { provider } = await setup(t)
    for (const scene of ['miniProgram', 'wechatBrowser'] as const) {
      await assert.rejects(
        provider.createPayment(request({ scene })),
        (error: Error) =>
          error instanceof PaymentProviderRefusal && error.message === ALIPAY_IN_WECHAT_REFUSAL,
      )
    }
  })
})

describe('notifications', () => {
  test('pay → the signed form notification reads paid, with the amount in fen', async (t) => {
    const { fake, provider, received } = await setup(t)
    const req = await opened(provider, { amount: 2990 })
    fake.pay(req.tradeNo)
    await fake.settled()
    assert.equal(received.length, 1)
    const notice = provider.verifyNotification({}, received[0])!
    assert.equal(notice.tradeNo, req.tradeNo)
    assert.equal(notice.status, 'paid')
    assert.equal(notice.amount, 2990)
    assert.equal(notice.payload.trade_status, 'TRADE_SUCCESS')
    assert.equal(notice.payload.sign, undefined)
    assert.deepEqual(provider.notifyReply, { contentType: 'text/plain', body: 'success' })
  })

  test('forged, foreign, tampered and malformed notifications are refused before anything is read', async (t) => {
    const { fake, provider } = await setup(t)
    const req = await opened(provider, { amount: 2990 })
    const trade = fake.trade(req.tradeNo)!
    trade.status = 'TRADE_SUCCESS'
    trade.paidAt = new Date()
    const genuine = new URLSearchParams(fake.notificationBody(trade))
    assert.equal(provider.verifyNotification({}, genuine.toString())?.status, 'paid')

    const fields = Object.fromEntries(genuine)
    const { sign: _sign, ...unsigned } = fields
    const refusals: [string, string][] = [
      ['signed by another key', fake.signForm(unsigned, rsaKeyPair().privateKey)],
      ['another app_id', fake.signForm({ ...unsigned, app_id: '2021000000000001' })],
      [
        'amount changed after signing',
        new URLSearchParams({ ...fields, total_amount: '0.01' }).toString(),
      ],
      [
        'status changed after signing',
        new URLSearchParams({ ...fields, out_trade_no: 'T-other' }).toString(),
      ],
      ['no signature', new URLSearchParams(unsigned).toString()],
      ['sign_type RSA (SHA1)', new URLSearchParams({ ...fields, sign_type: 'RSA' }).toString()],
      ['sign_type unknown', new URLSearchParams({ ...fields, sign_type: 'HMAC' }).toString()],
      ['a field twice', `${genuine.toString()}&total_amount=0.01`],
      ['garbage signature', new URLSearchParams({ ...fields, sign: '%%%\u0000' }).toString()],
      ['empty body', ''],
      ['JSON body', JSON.stringify(fields)],
    ]
    for (const [what, body] of refusals) {
      assert.throws(() => provider.verifyNotification({}, body), PaymentSignatureError, what)
    }
  })

  test('a genuine WAIT_BUYER_PAY asks nothing (null); an unknown trade status is refused without a signature error', async (t) => {
    const { fake, provider } = await setup(t)
    const req = await opened(provider)
    const trade = fake.trade(req.tradeNo)!
    const waiting = fake.notificationBody(trade)
    assert.equal(new URLSearchParams(waiting).get('trade_status'), 'WAIT_BUYER_PAY')
    assert.equal(provider.verifyNotification({}, waiting), null)
    // still verified first: a forged or foreign WAIT_BUYER_PAY is refused
    const { sign: _sign, ...unsigned } = Object.fromEntries(new URLSearchParams(waiting))
    assert.throws(
      () => provider.verifyNotification({}, fake.signForm(unsigned, rsaKeyPair().privateKey)),
      PaymentSignatureError,
    )
    assert.throws(
      () =>
        provider.verifyNotification({}, fake.signForm({ ...unsigned, app_id: '2021000000000001' })),
      PaymentSignatureError,
    )
    const odd = fake.notificationBody(trade, { trade_status: 'TRADE_PENDING' })
    assert.throws(
      () => provider.verifyNotification({}, odd),
      (error: Error) =>
        error instanceof PaymentNotificationError && !(error instanceof PaymentSignatureError),
    )
  })

  test('refunds have no notification of their own: the refund route refuses with 404', async (t) => {
    const { provider } = await setup(t)
    assert.throws(
      () => provider.verifyRefundNotification(),
      (error: Error) => error instanceof PaymentNotificationError && error.httpStatus === 404,
    )
  })
})

describe('query and close', () => {
  test('paid: the provider trade id and the time of payment', async (t) => {
    const { fake, provider } = await setup(t)
    const req = await opened(provider)
    fake.dropNotifications = true
    fake.pay(req.tradeNo)
    const state = await provider.queryTrade(req.tradeNo)
    assert.equal(state.status, 'paid')
    assert.equal(state.amount, req.amount)
    assert.equal(state.providerTradeId, fake.trade(req.tradeNo)!.tradeNo)
    assert.ok(state.paidAt && Math.abs(state.paidAt.getTime() - Date.now()) < 5_000)
  })

  test('a trade past its time_expire is closed at Alipay', async (t) => {
    let now = Date.now()
    const app = rsaKeyPair()
    const fake = await FakeAlipay.start({
      appId: APP_ID,
      appPublicKey: app.publicKey,
      now: () => new Date(now),
      deliver: async () => ({ status: 200, body: 'success' }),
    })
    t.after(() => fake.close())
    const provider = new AlipayProvider({
      appId: APP_ID,
      privateKey: app.privateKey,
      alipayPublicKey: fake.alipayPublicKey,
      publicBaseUrl: BASE,
      gateway: fake.gateway,
    })
    const req = await opened(provider, { expiresAt: new Date(now + 60_000) })
    now += 61_000
    assert.equal((await provider.queryTrade(req.tradeNo)).status, 'closed')
    assert.throws(() => fake.pay(req.tradeNo), /TRADE_CLOSED/)
  })

  test('close: an open trade closes (and notifies closed), a paid one answers paid, an unopened link is refused (no trade yet)', async (t) => {
    const { fake, provider, received } = await setup(t)
    const open1 = await opened(provider)
    assert.equal((await provider.closeTrade(open1.tradeNo)).status, 'closed')
    await fake.settled()
    assert.equal(provider.verifyNotification({}, received.at(-1)!)?.status, 'closed')
    assert.throws(() => fake.pay(open1.tradeNo), /TRADE_CLOSED/)

    const paid = await opened(provider)
    fake.pay(paid.tradeNo)
    const state = await provider.closeTrade(paid.tradeNo)
    assert.equal(state.status, 'paid')
    assert.equal(state.amount, paid.amount)

    const never = request()
    const link = await provider.createPayment(never)
    // ACQ.TRADE_NOT_EXIST: nothing to close, and the link still opens a trade until its time_expire.
    await assert.rejects(
      provider.closeTrade(never.tradeNo),
      (error) => error instanceof AlipayRefusal && error.subCode === 'ACQ.TRADE_NOT_EXIST',
    )
    await open(link.checkoutUrl!)
    fake.pay(never.tradeNo)
    assert.equal((await provider.queryTrade(never.tradeNo)).status, 'paid')
  })

  test('ACQ.SYSTEM_ERROR and a down gateway are passing errors, not refusals', async (t) => {
    const { fake, provider } = await setup(t)
    const req = await opened(provider)
    fake.failNext('alipay.trade.query')
    await assert.rejects(provider.queryTrade(req.tradeNo), (error: Error) => {
      assert.ok(!(error instanceof PaymentProviderRefusal))
      assert.match(error.message, /ACQ\.SYSTEM_ERROR/)
      return true
    })
    // another refusal of a query says nothing about the trade: passing as well
    fake.failNext('alipay.trade.query', 'ACQ.INVALID_PARAMETER')
    await assert.rejects(
      provider.queryTrade(req.tradeNo),
      (error: Error) => !(error instanceof PaymentProviderRefusal),
    )
    assert.equal((await provider.queryTrade(req.tradeNo)).status, 'pending')

    const down = new AlipayProvider(
      {
        appId: APP_ID,
        privateKey: rsaKeyPair().privateKey,
        alipayPublicKey: fake.alipayPublicKey,
        publicBaseUrl: BASE,
        gateway: 'http://127.0.0.1:9/gateway.do',
      },
      { timeoutMs: 2_000 },
    )
    await assert.rejects(
      down.queryTrade(req.tradeNo),
      (error: Error) => !(error instanceof PaymentProviderRefusal),
    )
  })

  test("answers are believed only with Alipay's signature; our requests only with ours", async (t) => {
    const { fake } = await setup(t)
    const app = rsaKeyPair()
    const notAlipaysKey = new AlipayProvider({
      appId: APP_ID,
      privateKey: app.privateKey,
      alipayPublicKey: rsaKeyPair().publicKey,
      publicBaseUrl: BASE,
      gateway: fake.gateway,
    })
    // Even "trade does not exist" is not believed from an answer the SDK cannot verify.
    await assert.rejects(notAlipaysKey.queryTrade('T-unknown'), (error: Error) => {
      assert.ok(!(error instanceof PaymentProviderRefusal))
      assert.match(error.message, /验签失败/)
      return true
    })
    // A request signed with a key the gateway does not hold is refused: isv.invalid-signature.
    const strangerKey = new AlipayProvider({
      appId: APP_ID,
      privateKey: app.privateKey,
      alipayPublicKey: fake.alipayPublicKey,
      publicBaseUrl: BASE,
      gateway: fake.gateway,
    })
    await assert.rejects(strangerKey.queryTrade('T-unknown'), (error: Error) => {
      assert.ok(!(error instanceof PaymentProviderRefusal))
      assert.match(error.message, /isv\.invalid-signature/)
      return true
    })
    assert.equal(fake.calls.length, 0)
  })
})

describe('refunds', () => {
  test('one refundNo twice is one refund; both answers say succeeded', async (t) => {
    const { fake, provider, received } = await setup(t)
    const req = await opened(provider, { amount: 5000 })
    fake.pay(req.tradeNo)
    const refund = {
      tradeNo: req.tradeNo,
      refundNo: `R${req.tradeNo}`,
      amount: 5000,
      reason: '订单已取消',
    }
    const first = await provider.refund(refund)
    const again = await provider.refund(refund)
    assert.deepEqual(first, {
      refundNo: refund.refundNo,
      tradeNo: req.tradeNo,
      amount: 5000,
      status: 'succeeded',
    })
    assert.deepEqual(again, first)
    assert.equal(fake.trade(req.tradeNo)!.refunded, 5000)
    assert.deepEqual(await provider.queryRefund(refund.refundNo, req.tradeNo), first)
    const [asked] = fake.calls.filter((call) => call.method === 'alipay.trade.fastpay.refund.query')
    assert.deepEqual(asked.biz, { out_trade_no: req.tradeNo, out_request_no: refund.refundNo })
    // a full refund closes the trade; its notification reads closed (no money held)
    await fake.settled()
    const last = provider.verifyNotification({}, received.at(-1)!)!
    assert.equal(last.status, 'closed')
    assert.equal(last.payload.refund_fee, '50.00')
    assert.equal((await provider.queryTrade(req.tradeNo)).status, 'closed')
  })

  test('refusals are final; a partial refund keeps the trade paid', async (t) => {
    const { fake, provider } = await setup(t)
    const req = await opened(provider, { amount: 5000 })
    const refund = { tradeNo: req.tradeNo, refundNo: `R${req.tradeNo}`, amount: 5000, reason: 'x' }
    // not paid yet
    await assert.rejects(provider.refund(refund), PaymentProviderRefusal)
    fake.pay(req.tradeNo)
    await assert.rejects(provider.refund({ ...refund, amount: 5001 }), PaymentProviderRefusal)
    assert.equal((await provider.refund({ ...refund, amount: 2000 })).status, 'succeeded')
    // the same refundNo for another amount
    await assert.rejects(
      provider.refund({ ...refund, amount: 3000 }),
      (error: Error) =>
        error instanceof PaymentProviderRefusal &&
        error.message === '请求信息不一致（ACQ.DISCORDANT_REPEAT_REQUEST）',
    )
    await assert.rejects(
      provider.refund({ ...refund, tradeNo: 'T-unknown', refundNo: 'RT-unknown' }),
      PaymentProviderRefusal,
    )
    assert.equal((await provider.queryTrade(req.tradeNo)).status, 'paid')
    // no refund under this number (nor of a trade Alipay does not know): null, to be sent again
    assert.equal(await provider.queryRefund(`R${req.tradeNo}-2`, req.tradeNo), null)
    assert.equal(await provider.queryRefund('RT-unknown', 'T-unknown'), null)
    // any other refusal of the query says nothing about the refund: passing
    fake.failNext('alipay.trade.fastpay.refund.query', 'ACQ.INVALID_PARAMETER')
    await assert.rejects(
      provider.queryRefund(`R${req.tradeNo}`, req.tradeNo),
      (error: Error) =>
        !(error instanceof PaymentProviderRefusal) && /INVALID_PARAMETER/.test(error.message),
    )
  })

  test('a refund Alipay never took (fund_change N, no refund data) reads processing, then null; sent again it refunds once', async (t) => {
    const { fake, provider } = await setup(t)
    const req = await opened(provider, { amount: 1200 })
    fake.pay(req.tradeNo)
    const refund = { tradeNo: req.tradeNo, refundNo: `R${req.tradeNo}`, amount: 1200, reason: 'x' }
    fake.loseNextRefund = true
    assert.deepEqual(await provider.refund(refund), {
      refundNo: refund.refundNo,
      tradeNo: req.tradeNo,
      amount: 1200,
      status: 'processing',
    })
    assert.equal(fake.trade(req.tradeNo)!.refunded, 0)
    assert.equal(await provider.queryRefund(refund.refundNo, req.tradeNo), null)
    assert.equal((await provider.refund(refund)).status, 'succeeded')
    assert.equal((await provider.refund(refund)).status, 'succeeded')
    assert.equal(fake.trade(req.tradeNo)!.refunded, 1200)
    assert.equal((await provider.queryRefund(refund.refundNo, req.tradeNo))?.status, 'succeeded')
  })

  test('ACQ.SYSTEM_ERROR on refund is passing; the retry with the same refundNo refunds once', async (t) => {
    const { fake, provider } = await setup(t)
    const req = await opened(provider, { amount: 800 })
    fake.pay(req.tradeNo)
    const refund = { tradeNo: req.tradeNo, refundNo: `R${req.tradeNo}`, amount: 800, reason: 'x' }
    fake.failNext('alipay.trade.refund')
    await assert.rejects(
      provider.refund(refund),
      (error: Error) => !(error instanceof PaymentProviderRefusal),
    )
    assert.equal((await provider.refund(refund)).status, 'succeeded')
    assert.equal(fake.trade(req.tradeNo)!.refunded, 800)
  })
})
