/**
 * Every call each adapter makes, held against the provider's own model (helpers/provider-models/*.json,
 * each call with its source). The fakes check each request against the model and refuse one that does
 * not fit, as the real service would, and check each answer and notification they make; here each
 * adapter runs through all its calls, and every call of every model must have been checked both ways.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { AlipayProvider } from '../../src/adapters/payment/alipay/alipay-provider'
import { wechatPayCredentialsFromEnv } from '../../src/adapters/payment/wechatpay/credentials'
import { WechatPayProvider } from '../../src/adapters/payment/wechatpay/wechatpay-provider'
import { AliyunSmsAdapter } from '../../src/adapters/sms/aliyun-sms'
import { checkAliyunSms } from '../../src/adapters/sms/aliyun-sms-check'
import { FakeClock } from '../helpers/test-app'
import { FakeAlipay, rsaKeyPair } from '../helpers/fake-alipay'
import { FakeAliyunSms } from '../helpers/fake-aliyun-sms'
import { TEST_MCHID, wechatPayWorld } from '../helpers/fake-wechatpay'
import { MODELS, seen, type ProviderName } from '../helpers/provider-models'

const request = (tradeNo: string, scene: 'miniProgram' | 'browser', expiresAt: Date) => ({
  tradeNo,
  orderNo: 'O1',
  amount: 2990,
  payMethod: 2,
  returnUrl: '/pages/pay/pay?orderNo=O1',
  expiresAt,
  scene,
  openId: scene === 'browser' ? null : 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o',
  clientIp: '203.0.113.7',
  description: '云手机订单 O1',
})

/** Every call of the model: its request (when it has one) and at least one answer were checked. */
function assertAllSeen(provider: ProviderName) {
  const model = MODELS[provider]
  assert.ok(Object.keys(model.sources).length > 0, `${provider} names its sources`)
  for (const [name, call] of Object.entries(model.calls)) {
    assert.ok(call.source, `${provider} ${name} names its source`)
    assert.ok(seen[provider].has(`${name}:request`), `${provider} ${name}: no request checked`)
    const answered = [...seen[provider]].some((key) => key.startsWith(`${name}:answer:`))
    if (call.answers['200'] || call.answers['204'] || call.answers['10000'] || call.answers.OK) {
      assert.ok(answered, `${provider} ${name}: no answer checked`)
    }
  }
  for (const name of Object.keys(model.notifications ?? {})) {
    assert.ok(seen[provider].has(`notification:${name}`), `${provider}: notification ${name}`)
  }
}

test('wechatpay: every call and notification against WeChat Pay Go SDK shapes; off-model requests refused with PARAM_ERROR', async (t) => {
  const clock = new FakeClock(new Date().toISOString())
  const w = await wechatPayWorld(t, () => clock.now(), 'both')
  w.fake.deliver = async () => 200
  const read = wechatPayCredentialsFromEnv(w.env)
  assert.ok(read.ok)
  const provider = new WechatPayProvider(read.credentials, clock)
  const expires = new Date(clock.now().getTime() + 15 * 60_000)
  await provider.createPayment(request('TMODEL000001', 'miniProgram', expires))
  await provider.createPayment(request('TMODEL000002', 'browser', expires))
  w.fake.pay('TMODEL000001')
  await w.fake.settled()
  await provider.queryTrade('TMODEL000001')
  await provider.closeTrade('TMODEL000002')
  await provider.refund({
    tradeNo: 'TMODEL000001',
    refundNo: 'RMODEL1',
    amount: 2990,
    reason: '测试',
  })
  await w.fake.settled()
  await provider.queryRefund('RMODEL1', 'TMODEL000001')
  assertAllSeen('wechatpay')

  // What WeChat Pay's model does not allow is refused, as WeChat Pay refuses it.
  const refused = async (payload: object, why: RegExp) => {
    const answer = await provider.client.send('POST', '/v3/pay/transactions/jsapi', payload)
    assert.equal(answer.status, 400)
    assert.equal(answer.code, 'PARAM_ERROR')
    assert.match(answer.message, why)
  }
  const order = {
    appid: 'wx0mini0program01',
    mchid: TEST_MCHID,
    description: '云手机订单',
    out_trade_no: 'TMODEL000003',
    notify_url: 'https://cloudphone.example.cn/vmcloud/api/pay/notify/wechatpay',
    amount: { total: 1 },
    payer: { openid: 'o1' },
  }
  const { notify_url: _notifyUrl, ...withoutNotifyUrl } = order
  await refused(withoutNotifyUrl, /notify_url/)
  await refused({ ...order, amount: { total: '1' } }, /amount\/total/)
  await refused({ ...order, coupon: 'x' }, /additional/)
})

test('alipay: every call and the trade notification against the EasySDK models and the documents', async (t) => {
  const app = rsaKeyPair()
  const fake = await FakeAlipay.start({
    appId: '2021000122671080',
    appPublicKey: app.publicKey,
    deliver: async () => ({ status: 200, body: 'success' }),
  })
  t.after(() => fake.close())
  const provider = new AlipayProvider({
    appId: '2021000122671080',
    privateKey: app.privateKey,
    alipayPublicKey: fake.alipayPublicKey,
    publicBaseUrl: 'https://cloudphone.example.cn',
    gateway: fake.gateway,
  })
  const expires = new Date(Date.now() + 15 * 60_000)
  for (const tradeNo of ['TMODEL1', 'TMODEL2']) {
    const { checkoutUrl } = await provider.createPayment(request(tradeNo, 'browser', expires))
    await (await fetch(checkoutUrl!)).text()
  }
  fake.pay('TMODEL1')
  await fake.settled()
  await provider.queryTrade('TMODEL1')
  await provider.closeTrade('TMODEL2')
  await provider.refund({ tradeNo: 'TMODEL1', refundNo: 'RMODEL1', amount: 100, reason: '测试' })
  await provider.queryRefund('RMODEL1', 'TMODEL1')
  await fake.settled()
  assertAllSeen('alipay')
})

test('aliyun sms: SendSms, GetSmsSign and GetSmsTemplate against the dysmsapi SDK models', async (t) => {
  const fake = await new FakeAliyunSms({
    accessKeyId: 'LTAI5tModel',
    accessKeySecret: 'secret',
    signs: { 云手机: 1 },
    templates: { SMS_1: 1 },
  }).start()
  t.after(() => fake.close())
  const env = {
    ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI5tModel',
    ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
    ALIYUN_SMS_SIGN_NAME: '云手机',
    ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
    ALIYUN_SMS_ENDPOINT: fake.endpoint,
  }
  const adapter = new AliyunSmsAdapter({
    accessKeyId: env.ALIYUN_SMS_ACCESS_KEY_ID,
    accessKeySecret: env.ALIYUN_SMS_ACCESS_KEY_SECRET,
    signName: env.ALIYUN_SMS_SIGN_NAME,
    templateCode: env.ALIYUN_SMS_TEMPLATE_CODE,
    endpoint: env.ALIYUN_SMS_ENDPOINT,
  })
  await adapter.sendCode({ mobilePhone: '13800138000', type: 'login', code: '123456' })
  assert.deepEqual(fake.sent, [
    {
      phoneNumbers: '13800138000',
      signName: '云手机',
      templateCode: 'SMS_1',
      templateParam: '{"code":"123456"}',
    },
  ])
  await assert.rejects(
    adapter.sendCode({ mobilePhone: '12345', type: 'login', code: '1' }),
    /isv\.MOBILE_NUMBER_ILLEGAL/,
  )
  await checkAliyunSms(env)
  assertAllSeen('aliyun-sms')
})
