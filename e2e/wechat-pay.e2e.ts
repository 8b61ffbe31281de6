/**
 * WeChat Pay from WeChat's browser, end to end against the real server: 立即支付 goes to WeChat's silent
 * authorisation (the sandbox WeChat's, playing open.weixin.qq.com), which comes back to pay/pay with a
 * one-time code; the page sends it with scene wechatBrowser, the server turns it into the payer's openid
 * and (the sandbox provider) answers its checkout page; 确认支付 → back on pay/pay → 支付成功. The code
 * leaves the address bar when it is used: going back to that page sends nothing again.
 *
 * Needs an H5 build that names the sandbox's authorisation page, as development builds and CI's do:
 *   TARO_APP_WECHAT_APPID=wx_sandbox TARO_APP_WECHAT_OAUTH_URL=/vmcloud/api/sandbox/wechat/oauth2/authorize \
 *     TARO_OUTPUT_DIR=/tmp/h5-oauth npm run build:h5 && H5_DIST=/tmp/h5-oauth node --import tsx --test e2e/wechat-pay.e2e.ts
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import {
  API_PREFIX,
  H5_DIST,
  api,
  apiLogin,
  collectPageErrors,
  newMobileContext,
  screenshot,
  seedSession,
  setupE2E,
  sleep,
} from './harness'
import { button, goodsFor, ok } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const AUTHORIZE_PATH = `${API_PREFIX}/sandbox/wechat/oauth2/authorize`
const WECHAT =
  'MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN'

const buildNamesSandbox = () => {
  const js = path.join(H5_DIST, 'js')
  return fs
    .readdirSync(js)
    .some(
      (f) =>
        f.endsWith('.js') && fs.readFileSync(path.join(js, f), 'utf8').includes(AUTHORIZE_PATH),
    )
}

test('WeChat browser: 立即支付 → silent authorisation → back with a code → checkout → 支付成功', async (t) => {
  if (!buildNamesSandbox()) {
    t.skip(`${H5_DIST} was built without the sandbox authorisation page (see this file's header)`)
    return
  }
  const session = await apiLogin('13912377101')
  const choice = await goodsFor(7)
  const quote = ok(
    'quote',
    await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
      session,
      json: { kind: 'new', goodId: choice.goodId, priceId: choice.priceId, quantity: 1 },
    }),
  )
  const { orderNo } = ok(
    'createCloudOrder',
    await api<{ orderNo: string }>('/order/createCloudOrder', {
      session,
      json: { ...choice, quantity: 1, expectedAmount: quote.total, idempotencyKey: 'e2e-wxpay-1' },
    }),
  )

  const context = await newMobileContext(e2e.browser, { uaSuffix: WECHAT })
  t.after(() => context.close())
  await seedSession(context, session)
  const page = await context.newPage()
  const errors = collectPageErrors(page)
  const hops: string[] = []
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      hops.push(request.url())
  })
  const payments: Record<string, unknown>[] = []
  page.on('request', (request) => {
    if (request.url().includes('/pay/createPayment')) payments.push(request.postDataJSON())
  })

  await page.goto(`/pages/pay/pay?orderNo=${orderNo}`)
  await page.getByText('支付剩余时间').waitFor()
  // WeChat opens no Alipay page: WeChat Pay first, no Alipay
  assert.equal(await page.getByRole('radio', { name: '支付宝' }).count(), 0)
  assert.equal(
    await page.getByRole('radio', { name: '微信支付' }).getAttribute('aria-checked'),
    'true',
  )
  await screenshot(page, 'wechat-pay-page')

  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  const authorize = hops.find((h) => new URL(h).pathname === AUTHORIZE_PATH)
  assert.ok(authorize, `went through the authorisation: ${hops.join(' → ')}`)
  assert.equal(new URL(authorize).searchParams.get('scope'), 'snsapi_base')
  const returned = new URL(hops[hops.indexOf(authorize) + 1])
  assert.equal(returned.pathname, '/pages/pay/pay')
  assert.equal(returned.searchParams.get('orderNo'), orderNo)
  assert.equal(returned.searchParams.get('payMethod'), '2')
  const code = returned.searchParams.get('code') ?? ''
  assert.match(code, /^sandbox:oa-[0-9a-f]{32}$/)
  assert.equal(payments.length, 1, 'one payment, started by the code coming back')
  assert.deepEqual(payments[0], {
    orderNo,
    payMethod: 2,
    returnUrl: `/pages/pay/pay?orderNo=${orderNo}&paying=1`,
    scene: 'wechatBrowser',
    wxCode: code,
  })

  // back to the page the code came to: it left the address bar, so nothing is sent again
  await page.goBack()
  await page.waitForURL((u) => u.pathname === '/pages/pay/pay')
  await page.getByText('支付剩余时间').waitFor()
  const back = new URL(page.url())
  assert.equal(back.searchParams.get('code'), null, `no code in ${page.url()}`)
  assert.equal(back.searchParams.get('state'), null)
  assert.equal(back.searchParams.get('orderNo'), orderNo)
  await sleep(1500)
  assert.equal(payments.length, 1, 'the used code was not sent again')

  // pay again: a new authorisation and its code, then the sandbox checkout's 确认支付
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  assert.equal(payments.length, 2)
  // a second authorisation (the sandbox WeChat's codes repeat per WeChat user; WeChat's do not)
  assert.equal(hops.filter((h) => new URL(h).pathname === AUTHORIZE_PATH).length, 2)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay\?.*paying=1/)
  await page.getByText('支付成功', { exact: true }).waitFor({ timeout: 20_000 })
  await screenshot(page, 'wechat-pay-paid')
  assert.deepEqual(errors, [])
})
