/**
 * The WeChat Pay v3 adapter against the fake WeChat Pay (helpers/fake-wechatpay.ts): signed requests,
 * verified answers and notifications, JSAPI / H5 ordering, query, close, refund, and what is passing
 * (500, 429, an unverified answer) versus a refusal.
 */
import assert from 'node:assert/strict'
import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import {
  PaymentProviderRefusal,
  PaymentSignatureError,
  type PaymentRequest,
} from '../../src/adapters/payment/payment-provider'
import { realAdapters } from '../../src/adapters'
import { wechatPayCredentialsFromEnv } from '../../src/adapters/payment/wechatpay/credentials'
import {
  WechatPayError,
  WechatPayProvider,
} from '../../src/adapters/payment/wechatpay/wechatpay-provider'
import { loadConfig } from '../../src/config'
import { FakeClock } from '../helpers/test-app'
import {
  TEST_MCHID,
  TEST_PUBLIC_BASE_URL,
  wechatPayWorld,
  type Delivery,
} from '../helpers/fake-wechatpay'

const tradeNo = () => `T${randomBytes(12).toString('hex')}`

async function world(t: TestContext) {
  const clock = new FakeClock(new Date().toISOString())
  const w = await wechatPayWorld(t, () => clock.now())
  const read = wechatPayCredentialsFromEnv(w.env)
  assert.ok(read.ok, read.ok ? '' : read.problems.join('; '))
  const provider = new WechatPayProvider(read.credentials, clock)
  // Notifications are captured here; each test hands them to the adapter itself.
  const received: Delivery[] = []
  w.fake.deliver = async (url, headers, body) => {
    received.push({ url, headers, body, status: 200 })
    return 200
  }
  return { ...w, clock, provider, received }
}

const request = (clock: FakeClock, overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  tradeNo: tradeNo(),
  orderNo: 'O20260302000001',
  amount: 2990,
  payMethod: 2,
  returnUrl: '/pages/pay/pay?orderNo=O20260302000001',
  expiresAt: new Date(clock.now().getTime() + 15 * 60_000),
  scene: 'miniProgram',
  openId: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o',
  clientIp: '203.0.113.7',
  description: '云手机订单 O20260302000001',
  ...overrides,
})

test('wechatpay credentials: every missing or unusable variable is listed at once', () => {
  const none = wechatPayCredentialsFromEnv({})
  assert.equal(none.ok, false)
  const problems = none.ok ? [] : none.problems
  for (const name of [
    'WECHATPAY_MCHID',
    'WECHATPAY_MERCHANT_SERIAL_NO',
    'WECHATPAY_PUBLIC_KEY_ID',
    'WECHATPAY_PRIVATE_KEY_FILE',
    'WECHATPAY_PUBLIC_KEY_FILE',
    'WECHATPAY_APIV3_KEY',
    'WECHAT_APPID',
    'PUBLIC_BASE_URL',
  ]) {
    assert.ok(
      problems.some((p) => p.startsWith(name)),
      `${name} named in ${problems.join('; ')}`,
    )
  }
  const bad = wechatPayCredentialsFromEnv({
    WECHATPAY_MCHID: 'abc',
    WECHATPAY_MERCHANT_SERIAL_NO: '5157F09EFDC096DE15EBE81A47057A72',
    WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0114232134912410000000000000',
    WECHATPAY_PRIVATE_KEY_FILE: '/nonexistent/apiclient_key.pem',
    WECHATPAY_PUBLIC_KEY_FILE: __filename,
    WECHATPAY_APIV3_KEY: 'too-short',
    WECHAT_APPID: 'wx1',
    PUBLIC_BASE_URL: 'http://cloudphone.example.cn',
    WECHATPAY_BASE_URL: 'ftp://api.mch.weixin.qq.com',
  })
  assert.equal(bad.ok, false)
  assert.deepEqual(bad.ok ? [] : bad.problems, [
    'WECHATPAY_MCHID must be the merchant number (digits)',
    'WECHATPAY_PRIVATE_KEY_FILE: cannot read /nonexistent/apiclient_key.pem (ENOENT)',
    `WECHATPAY_PUBLIC_KEY_FILE: ${__filename} is not a PEM key`,
    'WECHATPAY_APIV3_KEY must be 32 bytes',
    'PUBLIC_BASE_URL must be our https origin (notify_url)',
    'WECHATPAY_BASE_URL must be an http(s) origin',
  ])
})

test('wechatpay JSAPI in the mini-program: signed order, paySign the mini-program can verify', async (t) => {
  const { fake, provider, clock, merchantKeys, env } = await world(t)
  const req = request(clock)
  const start = await provider.createPayment(req)
  assert.equal(start.checkoutUrl, null)
  const params = start.wxPayParams!
  const trade = fake.trades.get(req.tradeNo)!
  assert.equal(trade.trade_type, 'JSAPI')
  assert.equal(trade.appid, env.WECHAT_APPID)
  assert.equal(trade.payer_openid, req.openId)
  assert.equal(trade.total, 2990)
  assert.equal(trade.notify_url, `${TEST_PUBLIC_BASE_URL}/vmcloud/api/pay/notify/wechatpay`)
  assert.equal(trade.time_expire.getTime(), Math.floor(req.expiresAt.getTime() / 1000) * 1000)
  assert.match(JSON.parse(trade.request).time_expire, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/)
  assert.equal(params.appId, env.WECHAT_APPID)
  assert.equal(params.package, `prepay_id=${trade.prepay_id}`)
  assert.equal(params.signType, 'RSA')
  assert.match(params.timeStamp, /^\d{10}$/)
  const message = `${params.appId}\n${params.timeStamp}\n${params.nonceStr}\n${params.package}\n`
  assert.ok(
    createVerify('RSA-SHA256')
      .update(message)
      .verify(merchantKeys.publicKey, params.paySign, 'base64'),
    'paySign verifies with the merchant public key',
  )
  assert.deepEqual(
    fake.requests.map((r) => [r.method, r.path, r.signed, r.status]),
    [['POST', '/v3/pay/transactions/jsapi', true, 200]],
  )
})

test('wechatpay JSAPI in the WeChat browser uses the official account appid; no openid is refused', async (t) => {
  const { fake, provider, clock, env } = await world(t)
  const req = request(clock, { scene: 'wechatBrowser' })
  const start = await provider.createPayment(req)
  assert.equal(start.wxPayParams?.appId, env.WECHAT_OA_APPID)
  assert.equal(fake.trades.get(req.tradeNo)?.appid, env.WECHAT_OA_APPID)
  await assert.rejects(
    provider.createPayment(request(clock, { openId: null })),
    PaymentProviderRefusal,
  )
})

test('wechatpay H5 in a mobile browser: h5_url with redirect_url back to our pay page', async (t) => {
  const { fake, provider, clock } = await world(t)
  const req = request(clock, { scene: 'browser', openId: null })
  const start = await provider.createPayment(req)
  assert.equal(start.wxPayParams, null)
  const trade = fake.trades.get(req.tradeNo)!
  assert.equal(trade.trade_type, 'MWEB')
  assert.equal(trade.payer_client_ip, '203.0.113.7')
  const url = new URL(start.checkoutUrl!)
  assert.equal(url.origin + url.pathname, 'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb')
  assert.equal(url.searchParams.get('prepay_id'), trade.prepay_id)
  assert.equal(url.searchParams.get('redirect_url'), `${TEST_PUBLIC_BASE_URL}${req.returnUrl}`)
  assert.ok(start.checkoutUrl!.includes(`redirect_url=${encodeURIComponent(TEST_PUBLIC_BASE_URL)}`))
})

test('wechatpay pay → signed, encrypted notification → paid; query agrees', async (t) => {
  const { fake, provider, clock, received } = await world(t)
  const req = request(clock)
  await provider.createPayment(req)
  assert.equal((await provider.queryTrade(req.tradeNo)).status, 'pending')
  fake.pay(req.tradeNo)
  await fake.settled()
  assert.equal(received.length, 1)
  const [delivery] = received
  assert.equal(delivery.url, `${TEST_PUBLIC_BASE_URL}/vmcloud/api/pay/notify/wechatpay`)
  // Headers arrive lowercased through Fastify; the adapter reads them in any case.
  const lower = Object.fromEntries(
    Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]),
  )
  const notice = provider.verifyNotification(lower, delivery.body)
  assert.equal(notice.tradeNo, req.tradeNo)
  assert.equal(notice.status, 'paid')
  assert.equal(notice.amount, 2990)
  assert.equal(notice.payload.out_trade_no, req.tradeNo)
  const state = await provider.queryTrade(req.tradeNo)
  assert.equal(state.status, 'paid')
  assert.equal(state.amount, 2990)
  assert.equal(state.providerTradeId, fake.trades.get(req.tradeNo)!.transaction_id)
  assert.ok(state.paidAt instanceof Date)
})

test('wechatpay notifications: forged, tampered, old, wrong key id, wrong APIv3 key → PaymentSignatureError', async (t) => {
  const { fake, provider, clock, received } = await world(t)
  const req = request(clock)
  await provider.createPayment(req)
  fake.pay(req.tradeNo)
  await fake.settled()
  const { headers, body } = received[0]
  assert.equal(provider.verifyNotification(headers, body).status, 'paid')

  const refused = (h: Record<string, unknown>, b: string, why: RegExp) =>
    assert.throws(
      () => provider.verifyNotification(h, b),
      (error: unknown) => error instanceof PaymentSignatureError && why.test(error.message),
    )
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 })
  refused(fake.signedHeaders(body, forger.privateKey), body, /签名校验失败/)
  // A body changed after signing: one character of the ciphertext.
  const tampered = body.replace(
    /"ciphertext":"(.)/,
    (_m, c: string) => `"ciphertext":"${c === 'A' ? 'B' : 'A'}`,
  )
  refused(headers, tampered, /签名校验失败/)
  // Re-signed by the forger with the right key id still fails: the key decides, not the header.
  refused(fake.signedHeaders(tampered, forger.privateKey), tampered, /签名校验失败/)
  const old = Math.floor(clock.now().getTime() / 1000) - 301
  refused(fake.signedHeaders(body, null, { timestamp: old }), body, /过期/)
  refused(
    fake.signedHeaders(body, null, { serial: 'PUB_KEY_ID_0000000000000000000000000000' }),
    body,
    /公钥ID/,
  )
  refused({}, body, /缺少/)
  // Signed by WeChat Pay but encrypted under another APIv3 key: cannot be opened, so not trusted.
  const otherKey = fake.notificationBody(
    'TRANSACTION.SUCCESS',
    'transaction',
    fake.transaction(fake.trades.get(req.tradeNo)!),
    'x'.repeat(32),
  )
  refused(fake.signedHeaders(otherKey), otherKey, /解密/)
  // Another merchant's payment, properly signed and encrypted.
  const foreign = fake.notificationBody('TRANSACTION.SUCCESS', 'transaction', {
    ...fake.transaction(fake.trades.get(req.tradeNo)!),
    mchid: '1230000109',
  })
  refused(fake.signedHeaders(foreign), foreign, /商户号/)
  // A refund notification is not a payment notification.
  const refundEvent = fake.notificationBody('REFUND.SUCCESS', 'refund', { mchid: TEST_MCHID })
  refused(fake.signedHeaders(refundEvent), refundEvent, /类型/)
  // Hostile bytes.
  refused(fake.signedHeaders('\u0000'.repeat(10)), '\u0000'.repeat(10), /JSON/)
  const huge = JSON.stringify({
    event_type: 'TRANSACTION.SUCCESS',
    resource: {
      algorithm: 'AEAD_AES_256_GCM',
      nonce: 'abcdefabcdef',
      ciphertext: 'A'.repeat(1_000_000),
    },
  })
  refused(fake.signedHeaders(huge), huge, /解密/)
})

test('wechatpay close: a pending trade closes; a paid one stays paid', async (t) => {
  const { fake, provider, clock } = await world(t)
  const pending = request(clock)
  await provider.createPayment(pending)
  assert.equal((await provider.closeTrade(pending.tradeNo)).status, 'closed')
  assert.equal(fake.trades.get(pending.tradeNo)?.trade_state, 'CLOSED')
  assert.throws(() => fake.pay(pending.tradeNo), /cannot pay/)

  const paid = request(clock)
  await provider.createPayment(paid)
  fake.pay(paid.tradeNo)
  const state = await provider.closeTrade(paid.tradeNo)
  assert.equal(state.status, 'paid', 'the money came first')

  await assert.rejects(provider.queryTrade(tradeNo()), PaymentProviderRefusal)
  await assert.rejects(provider.closeTrade(tradeNo()), PaymentProviderRefusal)
})

test('wechatpay refund: asked with the trade total, idempotent per refundNo, finished by its notification', async (t) => {
  const { fake, provider, clock, received } = await world(t)
  const req = request(clock)
  await provider.createPayment(req)
  fake.pay(req.tradeNo)
  await fake.settled()
  received.length = 0
  const refundNo = `R${req.tradeNo}`
  const asked = { tradeNo: req.tradeNo, refundNo, amount: 2990, reason: '订单已超时' }
  const state = await provider.refund(asked)
  assert.deepEqual(state, { refundNo, tradeNo: req.tradeNo, status: 'processing', amount: 2990 })
  const again = await provider.refund(asked)
  assert.deepEqual(
    { ...again, status: 'processing' },
    state,
    'the same refundNo is the same refund',
  )
  assert.equal(fake.refunds.size, 1)
  assert.equal(fake.trades.get(req.tradeNo)?.refunded, 2990, 'refunded once')
  await fake.settled()
  assert.equal(received.length, 1, 'one refund, one notification')
  assert.equal(received[0].url, `${TEST_PUBLIC_BASE_URL}/vmcloud/api/pay/notify/wechatpay/refund`)
  const notice = provider.verifyRefundNotification(received[0].headers, received[0].body)
  assert.deepEqual(
    { ...notice, payload: undefined },
    { refundNo, tradeNo: req.tradeNo, status: 'succeeded', amount: 2990, payload: undefined },
  )
  assert.throws(
    () => provider.verifyNotification(received[0].headers, received[0].body),
    PaymentSignatureError,
  )
  assert.equal((await provider.queryRefund(refundNo, req.tradeNo))?.status, 'succeeded')
  assert.equal(
    (await provider.queryTrade(req.tradeNo)).status,
    'paid',
    'REFUND: paid, then refunded',
  )

  await assert.rejects(
    provider.refund({ ...asked, amount: 100 }),
    PaymentProviderRefusal,
    'a refundNo reused for another amount',
  )
  const unpaid = request(clock)
  await provider.createPayment(unpaid)
  await assert.rejects(
    provider.refund({ ...asked, tradeNo: unpaid.tradeNo, refundNo: `R${unpaid.tradeNo}` }),
    PaymentProviderRefusal,
  )
  assert.equal(await provider.queryRefund('Rnothing', req.tradeNo), null, 'RESOURCE_NOT_EXISTS')
})

test('wechatpay refund: one WeChat Pay never recorded reads null and is sent again with the same out_refund_no; a lost answer is one refund', async (t) => {
  const { fake, provider, clock } = await world(t)
  const req = request(clock)
  await provider.createPayment(req)
  fake.pay(req.tradeNo)
  await fake.settled()
  const refundNo = `R${req.tradeNo}`
  const asked = { tradeNo: req.tradeNo, refundNo, amount: 2990, reason: '订单已取消' }
  fake.loseNextRefund = 'unrecorded'
  assert.equal((await provider.refund(asked)).status, 'processing', 'accepted, it says')
  assert.equal(await provider.queryRefund(refundNo, req.tradeNo), null)
  assert.equal((await provider.refund(asked)).status, 'processing')
  assert.equal(fake.refunds.size, 1)
  assert.equal(fake.trades.get(req.tradeNo)?.refunded, 2990)

  const other = request(clock)
  await provider.createPayment(other)
  fake.pay(other.tradeNo)
  const lost = { ...asked, tradeNo: other.tradeNo, refundNo: `R${other.tradeNo}` }
  fake.loseNextRefund = 'answerLost'
  await assert.rejects(
    provider.refund(lost),
    (error: Error) => !(error instanceof PaymentProviderRefusal),
  )
  // The refund recorded with the lost answer; it may have finished (delayMs) before we ask again.
  assert.match((await provider.refund(lost)).status, /^(processing|succeeded)$/)
  assert.equal(fake.trades.get(other.tradeNo)?.refunded, 2990, 'refunded once')
  await fake.settled()
  assert.equal((await provider.queryRefund(lost.refundNo, other.tradeNo))?.status, 'succeeded')
  // another refusal of the query says nothing about the refund: passing, never a refusal
  await assert.rejects(
    provider.queryRefund('bad refund no!', other.tradeNo),
    (error: Error) => !(error instanceof PaymentProviderRefusal),
  )
})

test('wechatpay refund: "not found" (RESOURCE_NOT_EXISTS from the refund call, ORDER_NOT_EXIST from its trade query) is passing and sent again; other refusals stay final', async (t) => {
  const { fake, provider, clock } = await world(t)
  const req = request(clock)
  await provider.createPayment(req)
  fake.pay(req.tradeNo)
  const refundNo = `R${req.tradeNo}`
  const asked = { tradeNo: req.tradeNo, refundNo, amount: 2990, reason: '订单已取消' }
  const notFound = (code: string) => (error: unknown) =>
    error instanceof WechatPayError &&
    !(error instanceof PaymentProviderRefusal) &&
    error.httpStatus === 404 &&
    error.code === code

  fake.notFoundNext('refund')
  await assert.rejects(provider.refund(asked), notFound('RESOURCE_NOT_EXISTS'))
  assert.equal(fake.refunds.size, 0, 'WeChat Pay took nothing')
  fake.notFoundNext('query')
  await assert.rejects(provider.refund(asked), notFound('ORDER_NOT_EXIST'))
  assert.deepEqual(fake.requests.at(-1), {
    method: 'GET',
    path: `/v3/pay/transactions/out-trade-no/${req.tradeNo}`,
    signed: true,
    status: 404,
  })
  assert.equal((await provider.refund(asked)).status, 'processing', 'the same refund, sent again')
  assert.equal(fake.refunds.size, 1)
  assert.equal(fake.trades.get(req.tradeNo)?.refunded, 2990, 'refunded once')

  // Outside refund() a trade query's ORDER_NOT_EXIST keeps its meaning for reconciliation.
  fake.notFoundNext('query')
  await assert.rejects(provider.queryTrade(req.tradeNo), PaymentProviderRefusal)
  // A trade WeChat Pay never had: we only refund trades it told us were paid, so this is our merchant
  // misconfigured (another WECHATPAY_MCHID), and it is asked again, never written off.
  const never = { ...asked, tradeNo: tradeNo(), refundNo: 'Rnever' }
  await assert.rejects(provider.refund(never), notFound('ORDER_NOT_EXIST'))

  const other = request(clock)
  await provider.createPayment(other)
  fake.pay(other.tradeNo)
  const second = { ...asked, tradeNo: other.tradeNo, refundNo: `R${other.tradeNo}` }
  // 余额不足 is passing (PASSING_CODES): the merchant's balance is topped up and it goes through.
  fake.refuseNextRefund = { status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' }
  await assert.rejects(
    provider.refund(second),
    (error: unknown) => error instanceof WechatPayError && error.code === 'NOT_ENOUGH',
  )
  // A signed refusal with a real reason stays final.
  fake.refuseNextRefund = { status: 403, code: 'USER_ACCOUNT_ABNORMAL', message: '退款请求失败' }
  await assert.rejects(
    provider.refund(second),
    (error: unknown) =>
      error instanceof PaymentProviderRefusal &&
      error.message === '退款请求失败（USER_ACCOUNT_ABNORMAL）',
  )
  assert.equal(fake.trades.get(other.tradeNo)?.refunded, 0)
})

test('wechatpay: 500, 429, a bad answer signature or our wrong key are passing errors, never refusals', async (t) => {
  const { fake, provider, clock, env } = await world(t)
  const req = request(clock)
  await provider.createPayment(req)
  const passing = (error: unknown) =>
    !(error instanceof PaymentProviderRefusal) && error instanceof Error

  fake.failNext(500)
  await assert.rejects(
    provider.queryTrade(req.tradeNo),
    (e) => passing(e) && /500 SYSTEM_ERROR/.test(String(e)),
  )
  fake.failNext(429)
  await assert.rejects(
    provider.queryTrade(req.tradeNo),
    (e) => passing(e) && /429 FREQUENCY_LIMITED/.test(String(e)),
  )
  assert.equal((await provider.queryTrade(req.tradeNo)).status, 'pending', 'then it answers again')

  // A man in the middle answering "ORDER_NOT_EXIST" (or anything) with his own key is not believed.
  fake.answerKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  await assert.rejects(
    provider.queryTrade(tradeNo()),
    (e) => passing(e) && /UNVERIFIED_ANSWER/.test(String(e)),
  )
  await assert.rejects(provider.queryTrade(req.tradeNo), (e) => e instanceof WechatPayError)
  fake.answerKey = null

  // Our requests signed with a key WeChat Pay does not know: 401 SIGN_ERROR, an operator's problem.
  const wrongKey = path.join(
    fs.mkdtempSync(path.join(path.dirname(env.WECHATPAY_PRIVATE_KEY_FILE!), 'k')),
    'key.pem',
  )
  fs.writeFileSync(
    wrongKey,
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string,
  )
  const read = wechatPayCredentialsFromEnv({ ...env, WECHATPAY_PRIVATE_KEY_FILE: wrongKey })
  assert.ok(read.ok)
  const misconfigured = new WechatPayProvider(read.credentials, clock)
  await assert.rejects(
    misconfigured.queryTrade(req.tradeNo),
    (e) => passing(e) && /401 SIGN_ERROR/.test(String(e)),
  )
  assert.equal(fake.requests.at(-1)?.signed, false)
})

test('wechatpay: a trade past its time_expire cannot be paid and reads closed', async (t) => {
  const { fake, provider, clock } = await world(t)
  const req = request(clock, { expiresAt: new Date(clock.now().getTime() + 60_000) })
  await provider.createPayment(req)
  clock.advance(60_000)
  assert.throws(() => fake.pay(req.tradeNo), /cannot pay/)
  assert.equal((await provider.queryTrade(req.tradeNo)).status, 'closed')
  await assert.rejects(
    provider.createPayment(request(clock, { expiresAt: new Date(clock.now().getTime() - 1000) })),
    PaymentProviderRefusal,
  )
})

test('property: a notification changed anywhere after WeChat Pay signed it is refused', async (t) => {
  const { fake, provider, clock, received } = await world(t)
  const req = request(clock)
  await provider.createPayment(req)
  fake.pay(req.tradeNo)
  await fake.settled()
  const { headers, body } = received[0]
  fc.assert(
    fc.property(
      fc.nat({ max: body.length - 1 }),
      fc.string({ minLength: 1, maxLength: 3 }),
      (at, inserted) => {
        const changed = body.slice(0, at) + inserted + body.slice(at + 1)
        fc.pre(changed !== body)
        assert.throws(() => provider.verifyNotification(headers, changed), PaymentSignatureError)
      },
    ),
    { numRuns: 200 },
  )
})

test('WECHATPAY_PROVIDER=wechatpay makes the WeChat Pay provider for pay method 2 from the environment', async (t) => {
  const { env } = await wechatPayWorld(t, () => new Date())
  const withIt = { ...env, WECHATPAY_PROVIDER: 'wechatpay' }
  const { payments } = realAdapters(loadConfig(withIt), withIt)
  assert.equal(payments.length, 1)
  const [provider] = payments
  assert.ok(provider instanceof WechatPayProvider)
  assert.deepEqual(provider.methods, [2])
  // It talks to the (fake) WeChat Pay with the keys the environment named.
  await assert.rejects(provider.queryTrade(tradeNo()), PaymentProviderRefusal)
  const without = { WECHATPAY_PROVIDER: 'wechatpay' }
  assert.throws(
    () => realAdapters(loadConfig(without), without),
    (error: Error) =>
      ['WECHATPAY_MCHID', 'WECHATPAY_APIV3_KEY', 'WECHATPAY_PUBLIC_KEY_ID'].every((name) =>
        error.message.includes(name),
      ),
  )
})
