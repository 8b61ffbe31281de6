/**
 * WeChat Pay's two ways of signing, against the fake set to each (helpers/fake-wechatpay.ts): the WeChat
 * Pay public key, platform certificates (downloaded with GET /v3/certificates, rotated, kept in a cache
 * that survives a restart), and both at once during WeChat Pay's switchover; and error answers: a
 * refusal is final with WeChat Pay's message whether signed or not, 5xx and network errors stay passing.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test, type TestContext } from 'node:test'
import {
  PaymentProviderRefusal,
  PaymentSignatureError,
  type PaymentRequest,
} from '../../src/adapters/payment/payment-provider'
import { wechatPayCredentialsFromEnv } from '../../src/adapters/payment/wechatpay/credentials'
import { REFRESH_MIN_INTERVAL_MS } from '../../src/adapters/payment/wechatpay/platform-certificates'
import {
  WechatPayError,
  WechatPayProvider,
  WechatPayRefusal,
} from '../../src/adapters/payment/wechatpay/wechatpay-provider'
import { FakeClock } from '../helpers/test-app'
import { wechatPayWorld, type Delivery, type FakeWechatPayOptions } from '../helpers/fake-wechatpay'

let counter = 0
const tradeNo = () => `K${Date.now()}${++counter}`

async function world(t: TestContext, signing: FakeWechatPayOptions['signing']) {
  const clock = new FakeClock(new Date().toISOString())
  const w = await wechatPayWorld(t, () => clock.now(), signing)
  const make = (env = w.env) => {
    const read = wechatPayCredentialsFromEnv(env)
    assert.ok(read.ok, read.ok ? '' : read.problems.join('; '))
    return new WechatPayProvider(read.credentials, clock)
  }
  const received: Delivery[] = []
  w.fake.deliver = async (url, headers, body) => {
    received.push({ url, headers, body, status: 200 })
    return 200
  }
  return { ...w, clock, make, provider: make(), received }
}

const request = (clock: FakeClock): PaymentRequest => ({
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
})

/** Orders, pays and answers the payment notification's notice. */
async function payAndNotify(w: Awaited<ReturnType<typeof world>>) {
  const req = request(w.clock)
  await w.provider.createPayment(req)
  w.fake.pay(req.tradeNo)
  await w.fake.settled()
  const delivery = w.received.at(-1)!
  return { req, delivery }
}

const downloads = (w: Awaited<ReturnType<typeof world>>) =>
  w.fake.requests.filter((r) => r.path === '/v3/certificates').length

test('wechatpay platform certificates: downloaded once, verify answers and notifications, cached for a restart', async (t) => {
  const w = await world(t, 'certificate')
  const { req, delivery } = await payAndNotify(w)
  assert.equal(delivery.headers['Wechatpay-Serial'], w.fake.certificates[0].serialNo)
  assert.equal(w.provider.verifyNotification(delivery.headers, delivery.body).status, 'paid')
  assert.equal((await w.provider.queryTrade(req.tradeNo)).status, 'paid')
  assert.equal(downloads(w), 1, 'the list is asked for once')
  const cached = JSON.parse(fs.readFileSync(w.env.WECHATPAY_PLATFORM_CERT_CACHE!, 'utf8'))
  assert.deepEqual(
    cached.certificates.map((c: { serialNo: string }) => c.serialNo),
    [w.fake.certificates[0].serialNo],
  )
  // A restart while WeChat Pay cannot be asked: the cache verifies the notification at once.
  w.fake.failNext(500, 10)
  const restarted = w.make()
  assert.equal(restarted.verifyNotification(delivery.headers, delivery.body).status, 'paid')
  w.fake.clearFailures()
})

test('wechatpay certificate rotation: a new serial is downloaded when it first signs; the old one is kept', async (t) => {
  const w = await world(t, 'certificate')
  const first = await payAndNotify(w)
  const old = w.fake.certificates[0].serialNo
  w.clock.advance(REFRESH_MIN_INTERVAL_MS) // WeChat Pay rotates long after our last download
  const rotated = w.fake.rotateCertificate()
  // An answer signed by the new certificate: downloaded, then verified, within the same call.
  assert.equal((await w.provider.queryTrade(first.req.tradeNo)).status, 'paid')
  assert.equal(downloads(w), 2)
  assert.deepEqual(w.provider.client.certificates!.serials.sort(), [old, rotated.serialNo].sort())
  // The notification signed by the old certificate still verifies (WeChat Pay may resend it).
  assert.equal(
    w.provider.verifyNotification(first.delivery.headers, first.delivery.body).status,
    'paid',
  )

  // A notification signed by a certificate not held yet: refused now (WeChat Pay resends it), the
  // list downloaded meanwhile, and the resend verifies.
  const w2 = await world(t, 'certificate')
  const second = await payAndNotify(w2)
  assert.equal(
    w2.provider.verifyNotification(second.delivery.headers, second.delivery.body).status,
    'paid',
  )
  w2.fake.rotateCertificate()
  const resentBody = w2.fake.notificationBody(
    'TRANSACTION.SUCCESS',
    'transaction',
    w2.fake.transaction(w2.fake.trades.get(second.req.tradeNo)!),
  )
  const resentHeaders = w2.fake.signedHeaders(resentBody)
  assert.throws(
    () => w2.provider.verifyNotification(resentHeaders, resentBody),
    (error: unknown) => error instanceof PaymentSignatureError && /平台证书/.test(error.message),
  )
  await w2.provider.client.certificates!.refresh()
  assert.equal(w2.provider.verifyNotification(resentHeaders, resentBody).status, 'paid')
})

test('wechatpay: forged certificate serials ask WeChat Pay once a minute at most', async (t) => {
  const w = await world(t, 'certificate')
  const { delivery } = await payAndNotify(w)
  w.provider.verifyNotification(delivery.headers, delivery.body)
  const before = downloads(w)
  for (let i = 0; i < 20; i++) {
    const forged = { ...delivery.headers, 'Wechatpay-Serial': `7${String(i).padStart(39, '0')}` }
    assert.throws(() => w.provider.verifyNotification(forged, delivery.body), PaymentSignatureError)
  }
  await w.provider.client.certificates!.refresh(true)
  assert.ok(downloads(w) - before <= 1, `${downloads(w) - before} downloads`)
  w.clock.advance(REFRESH_MIN_INTERVAL_MS)
  const forged = { ...delivery.headers, 'Wechatpay-Serial': '7'.repeat(40) }
  assert.throws(() => w.provider.verifyNotification(forged, delivery.body), PaymentSignatureError)
  await w.provider.client.certificates!.refresh()
  assert.equal(downloads(w) - before, 1, 'a minute later, asked once more')
})

test('wechatpay switchover: answers and notifications signed by the public key or a certificate both verify', async (t) => {
  const w = await world(t, 'both')
  const serials = new Set<string>()
  for (let i = 0; i < 3; i++) {
    const { req, delivery } = await payAndNotify(w)
    serials.add(delivery.headers['Wechatpay-Serial'])
    assert.equal(w.provider.verifyNotification(delivery.headers, delivery.body).status, 'paid')
    assert.equal((await w.provider.queryTrade(req.tradeNo)).status, 'paid')
  }
  assert.ok(
    [...serials].some((s) => s.startsWith('PUB_KEY_ID_')),
    'the public key signed',
  )
  assert.ok(
    [...serials].some((s) => !s.startsWith('PUB_KEY_ID_')),
    'a certificate signed',
  )
  // A merchant configured with the public key alone refuses what a certificate signed.
  const publicOnly = { ...w.env, WECHATPAY_PLATFORM_CERT_CACHE: undefined }
  const merchant = w.make(publicOnly)
  const body = w.received[0].body
  const byCertificate = w.fake.signedHeaders(body, null, {
    serial: w.fake.certificates[0].serialNo,
  })
  assert.throws(() => merchant.verifyNotification(byCertificate, body), PaymentSignatureError)
})

test('wechatpay credentials: the public key, the certificate cache, or both; a cache in a directory we cannot write is refused', () => {
  const base = {
    WECHATPAY_MCHID: '1900009191',
    WECHATPAY_MERCHANT_SERIAL_NO: '5157F09EFDC096DE15EBE81A47057A72',
    WECHATPAY_PRIVATE_KEY_FILE: '/nonexistent/key.pem',
    WECHATPAY_APIV3_KEY: 'x'.repeat(32),
    WECHAT_APPID: 'wx1',
    PUBLIC_BASE_URL: 'https://cloudphone.example.cn',
  }
  const problems = (env: NodeJS.ProcessEnv) => {
    const read = wechatPayCredentialsFromEnv(env)
    return read.ok ? [] : read.problems
  }
  assert.ok(problems(base).includes('WECHATPAY_PUBLIC_KEY_ID is not set'))
  const withCache = { ...base, WECHATPAY_PLATFORM_CERT_CACHE: '/tmp/wechatpay-certs.json' }
  assert.deepEqual(
    problems(withCache).filter((p) => p.startsWith('WECHATPAY_PUBLIC_KEY')),
    [],
    'certificates alone need no public key',
  )
  assert.ok(
    problems({ ...withCache, WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_01' }).includes(
      'WECHATPAY_PUBLIC_KEY_FILE is not set',
    ),
    'half a public key is refused',
  )
  assert.ok(
    problems({ ...base, WECHATPAY_PLATFORM_CERT_CACHE: '/nonexistent/dir/certs.json' }).includes(
      'WECHATPAY_PLATFORM_CERT_CACHE: cannot write in /nonexistent/dir',
    ),
  )
})

test('wechatpay error answers: a refusal is final with WeChat Pay\'s message, signed or not; "not found" must be signed; 401, 5xx and network errors stay passing', async (t) => {
  const w = await world(t, 'publicKey')
  const req = request(w.clock)
  await w.provider.createPayment(req)
  // The same out_trade_no with another body: WeChat Pay refuses it for good.
  const refusal = (error: unknown) =>
    error instanceof WechatPayRefusal &&
    error.message === '商户订单号重复（INVALID_REQUEST）' &&
    error.httpStatus === 400
  await assert.rejects(w.provider.createPayment({ ...req, amount: 1000 }), refusal)
  w.fake.signErrors = false
  await assert.rejects(w.provider.createPayment({ ...req, amount: 1000 }), refusal, 'unsigned too')
  // An unsigned "not found" would read as "no trade": not believed.
  await assert.rejects(
    w.provider.queryTrade(tradeNo()),
    (error: unknown) =>
      error instanceof WechatPayError &&
      !(error instanceof PaymentProviderRefusal) &&
      error.code === 'UNVERIFIED_ANSWER',
  )
  w.fake.signErrors = true
  await assert.rejects(w.provider.queryTrade(tradeNo()), PaymentProviderRefusal, 'signed: believed')

  // Our request signature refused: 401 unsigned, WeChat Pay's message kept, passing.
  const wrongSerial = w.make({ ...w.env, WECHATPAY_MERCHANT_SERIAL_NO: 'ABCDEF0123456789' })
  await assert.rejects(
    wrongSerial.queryTrade(req.tradeNo),
    (error: unknown) =>
      error instanceof WechatPayError &&
      !(error instanceof PaymentProviderRefusal) &&
      error.code === 'SIGN_ERROR' &&
      /签名错误/.test(error.message),
  )
  w.fake.failNext(500)
  await assert.rejects(
    w.provider.queryTrade(req.tradeNo),
    (error: unknown) => error instanceof WechatPayError && error.httpStatus === 500,
  )
  const unreachable = w.make({ ...w.env, WECHATPAY_BASE_URL: 'http://127.0.0.1:9' })
  await assert.rejects(
    unreachable.queryTrade(req.tradeNo),
    (error: unknown) => error instanceof Error && !(error instanceof PaymentProviderRefusal),
  )
})
