/**
 * Where the buyer pays (PayScene) and what the provider is told: the scene, the payer's openid (only
 * ever exchanged from a WeChat code the client sends, 1004 when missing or refused), the buyer's IP as
 * the server sees it, the bill's description, and the JSAPI parameters the provider answers.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import type {
  PaymentRequest,
  PaymentStart,
  WxPayParams,
} from '../../src/adapters/payment/payment-provider'
import { sandboxOpenid } from '../../src/adapters/wechat/sandbox-wechat'
import type { CommonConfig } from '../../src/contract/config'
import type { CreatePaymentResult } from '../../src/contract/payment'
import type { OrderInfo } from '../../src/contract/order'
import { payments } from '../../src/db/schema'
import {
  WXCODE_MISSING_MESSAGE,
  WXCODE_REFUSED_MESSAGE,
} from '../../src/services/payments/payment-service'
import { commerceApp, createCloudOrder, newBuyer, sandboxProvider } from '../helpers/commerce'
import { authHeaders, buildTestApp, type Session, type TestApp } from '../helpers/test-app'
import type { Envelope } from '../helpers/test-app'

const JSAPI: WxPayParams = {
  appId: 'wx_test_app',
  timeStamp: '1764200000',
  nonceStr: 'n0nce',
  package: 'prepay_id=wx_test',
  signType: 'RSA',
  paySign: 'c2lnbmVk',
}

/**
 * Records what the sandbox is asked. `asWechatPay`: it needs the payer's openid in the two WeChat scenes
 * and answers JSAPI parameters there, like WeChat Pay; otherwise it is the sandbox, which needs none.
 */
function recordRequests(ta: TestApp, asWechatPay = true): PaymentRequest[] {
  const provider = sandboxProvider(ta)
  const create = provider.createPayment.bind(provider)
  if (asWechatPay) {
    const asWechat = (method: number, scene: string) => method === 2 && scene !== 'browser'
    Object.assign(provider, { needsPayerOpenId: asWechat })
  }
  const seen: PaymentRequest[] = []
  provider.createPayment = async (request): Promise<PaymentStart> => {
    seen.push(request)
    const start = await create(request)
    return request.openId ? { checkoutUrl: null, wxPayParams: JSAPI } : start
  }
  return seen
}

async function newOrder(ta: TestApp, buyer: Session) {
  const order = await createCloudOrder(ta, buyer)
  assert.equal(order.code, 200, order.msg)
  return (order.data as OrderInfo).orderNo
}

async function pay(
  ta: TestApp,
  buyer: Session,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const response = await ta.app.inject({
    method: 'POST',
    url: '/vmcloud/api/pay/createPayment',
    payload: body,
    headers: { ...authHeaders(buyer), ...headers },
  })
  return response.json() as Envelope<CreatePaymentResult>
}

async function tradesOf(ta: TestApp, orderNo: string) {
  const rows = await ta.database.db.select().from(payments)
  return rows.filter((row) => row.returnUrl.includes(orderNo))
}

test('a browser payment tells the provider the scene, no openid, the IP and the bill text', async (t) => {
  const ta = await commerceApp(t)
  const seen = recordRequests(ta)
  const buyer = await newBuyer(ta)
  const orderNo = await newOrder(ta, buyer)
  const reply = await pay(ta, buyer, { orderNo, payMethod: 2 })
  assert.equal(reply.code, 200, reply.msg)
  // the sandbox as before: its checkout page, no JSAPI parameters
  assert.match(reply.data.checkoutUrl!, /^\/vmcloud\/api\/sandbox\/pay\/checkout\?tradeNo=/)
  assert.equal(reply.data.wxPayParams, null)
  assert.equal(seen.length, 1)
  assert.equal(seen[0].scene, 'browser')
  assert.equal(seen[0].openId, null)
  assert.equal(seen[0].clientIp, '127.0.0.1')
  assert.equal(seen[0].description, `云手机订单 ${orderNo}`)
})

test('the IP behind a trusted proxy is the forwarded one', async (t) => {
  const ta = await buildTestApp(t, {
    config: { trustProxy: true, sandboxSupplierDelayMs: 0 },
  })
  const seen = recordRequests(ta)
  const buyer = await newBuyer(ta)
  const orderNo = await newOrder(ta, buyer)
  const reply = await pay(
    ta,
    buyer,
    { orderNo, payMethod: 1 },
    { 'x-forwarded-for': '203.0.113.9' },
  )
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(seen[0].clientIp, '203.0.113.9')
})

test('WeChat Pay inside WeChat takes the openid from the code the client sends, per scene', async (t) => {
  const ta = await commerceApp(t)
  const seen = recordRequests(ta)
  const buyer = await newBuyer(ta)
  for (const scene of ['miniProgram', 'wechatBrowser'] as const) {
    const orderNo = await newOrder(ta, buyer)
    const reply = await pay(ta, buyer, { orderNo, payMethod: 2, scene, wxCode: `sandbox:${scene}` })
    assert.equal(reply.code, 200, reply.msg)
    assert.deepEqual(reply.data.wxPayParams, JSAPI)
    assert.equal(reply.data.checkoutUrl, null)
    assert.equal(reply.data.paid, false)
    const request = seen.at(-1)!
    assert.equal(request.scene, scene)
    assert.equal(request.openId, sandboxOpenid(`sandbox:${scene}`))
    // the trade is opened and recorded under the provider that opened it
    const [row] = await ta.database.db
      .select()
      .from(payments)
      .where(eq(payments.tradeNo, reply.data.tradeNo))
    assert.equal(row.provider, 'sandbox')
  }
})

test('the sandbox needs no openid: the config names no scene, no code is asked for, one sent is not exchanged', async (t) => {
  const ta = await commerceApp(t)
  const seen = recordRequests(ta, false)
  const config = await ta.app.inject({
    method: 'GET',
    url: '/vmcloud/api/configure/getCommonConfig',
  })
  assert.deepEqual((config.json() as Envelope<CommonConfig>).data.wechatPayCodeScenes, [])
  const buyer = await newBuyer(ta)
  const exchanged: string[] = []
  const wechat = ta.app.services.ctx.wechat
  const code2session = wechat.code2session.bind(wechat)
  const oauthCode = wechat.oauthCode.bind(wechat)
  wechat.code2session = (code) => (exchanged.push(code), code2session(code))
  wechat.oauthCode = (code) => (exchanged.push(code), oauthCode(code))
  for (const body of [
    { scene: 'miniProgram' },
    { scene: 'wechatBrowser' },
    { scene: 'wechatBrowser', wxCode: 'forged-openid-o_abc' },
    { scene: 'miniProgram', wxCode: 'sandbox:buyer' },
  ]) {
    const orderNo = await newOrder(ta, buyer)
    const reply = await pay(ta, buyer, { orderNo, payMethod: 2, ...body })
    assert.equal(reply.code, 200, `${JSON.stringify(body)}: ${reply.msg}`)
    assert.match(reply.data.checkoutUrl!, /^\/vmcloud\/api\/sandbox\/pay\/checkout\?tradeNo=/)
    assert.equal(seen.at(-1)!.openId, null)
  }
  assert.deepEqual(exchanged, [])
})

test('a provider that needs the openid: the config names its scenes', async (t) => {
  const ta = await commerceApp(t)
  recordRequests(ta)
  const config = await ta.app.inject({
    method: 'GET',
    url: '/vmcloud/api/configure/getCommonConfig',
  })
  assert.deepEqual((config.json() as Envelope<CommonConfig>).data.wechatPayCodeScenes, [
    'miniProgram',
    'wechatBrowser',
  ])
})

test('a WeChat code missing or refused is 1004 and opens no trade; Alipay in WeChat needs none', async (t) => {
  const ta = await commerceApp(t)
  const seen = recordRequests(ta)
  const buyer = await newBuyer(ta)
  const orderNo = await newOrder(ta, buyer)
  for (const [body, message] of [
    [{ scene: 'miniProgram' }, WXCODE_MISSING_MESSAGE],
    [{ scene: 'wechatBrowser', wxCode: '' }, WXCODE_MISSING_MESSAGE],
    [{ scene: 'miniProgram', wxCode: 'forged-openid-o_abc' }, WXCODE_REFUSED_MESSAGE],
    [{ scene: 'wechatBrowser', wxCode: 'sandbox:' }, WXCODE_REFUSED_MESSAGE],
  ] as const) {
    const reply = await pay(ta, buyer, { orderNo, payMethod: 2, ...body })
    assert.equal(reply.code, ResultCode.WECHAT_ACCOUNT_EMPTY, JSON.stringify(body))
    assert.equal(reply.msg, message)
  }
  assert.equal(seen.length, 0)
  assert.equal((await tradesOf(ta, orderNo)).length, 0)
  // a code longer than WeChat's is refused by the contract before anything is asked
  const long = await pay(ta, buyer, {
    orderNo,
    payMethod: 2,
    scene: 'miniProgram',
    wxCode: `sandbox:${'x'.repeat(128)}`,
  })
  assert.notEqual(long.code, 200)
  assert.equal(seen.length, 0)
  // Alipay is not JSAPI: no code is asked for, no openid passed on
  const alipay = await pay(ta, buyer, { orderNo, payMethod: 1, scene: 'wechatBrowser' })
  assert.equal(alipay.code, 200, alipay.msg)
  assert.equal(seen[0].openId, null)
  assert.equal(alipay.data.wxPayParams, null)
})
