/**
 * WeChat Pay from WeChat's browser, end to end against the real server with the real WeChat Pay adapter
 * and the fake WeChat Pay (server/test/helpers/fake-wechatpay.ts: signed answers, encrypted
 * notifications): the config says JSAPI needs the payer's openid in WeChat's browser, so 立即支付 goes
 * to WeChat's silent authorisation (the sandbox WeChat's, playing open.weixin.qq.com), which comes back
 * to pay/pay with a one-time code; the page sends it with scene wechatBrowser, the server turns it into
 * the payer's openid and WeChat Pay answers a prepay_id; WeixinJSBridge (played here: Chromium has none)
 * opens the sheet. A closed sheet says 支付已取消; the code left the address bar, so a reload sends
 * nothing again; paying again takes a new authorisation, the fake's signed notification → 支付成功.
 *
 * Needs an H5 build that names the sandbox's authorisation page, as development builds and CI's do:
 *   TARO_APP_WECHAT_APPID=wx_sandbox TARO_APP_WECHAT_OAUTH_URL=/vmcloud/api/sandbox/wechat/oauth2/authorize \
 *     TARO_OUTPUT_DIR=/tmp/h5-oauth npm run build:h5 && H5_DIST=/tmp/h5-oauth node --import tsx --test e2e/wechat-pay.e2e.ts
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
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
import { wechatPayWorld, type FakeWechatPay } from '../server/test/helpers/fake-wechatpay'

// The fake WeChat Pay starts first, the server then with its keys: WECHATPAY_PROVIDER=wechatpay, WeChat
// login still the sandbox's.
let fake: FakeWechatPay
let officialAccountAppId: string | undefined
const cleanups: (() => Promise<void> | void)[] = []
const e2e = setupE2E({
  env: async () => {
    const world = await wechatPayWorld({ after: (fn) => cleanups.push(fn) }, () => new Date())
    fake = world.fake
    officialAccountAppId = world.env.WECHAT_OA_APPID
    // WeChat Pay calls our public notify_url; here it reaches the e2e server, path and bytes intact.
    fake.deliver = async (url, headers, body) => {
      const reply = await fetch(`${e2e.server.url}${new URL(url).pathname}`, {
        method: 'POST',
        headers,
        body,
      })
      return reply.status
    }
    return { RATE_LIMIT_PER_MINUTE: '0', WECHATPAY_PROVIDER: 'wechatpay', ...world.env }
  },
})
after(async () => {
  for (const cleanup of cleanups) await cleanup()
})

/** How the played WeChat sheet ends: closed by the buyer, or paid (at the fake WeChat Pay). */
let sheet: 'cancel' | 'ok' = 'cancel'

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

test('WeChat browser: 立即支付 → silent authorisation → back with a code → WeChat Pay sheet → 支付成功', async (t) => {
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
  // WeixinJSBridge as WeChat's browser injects it: getBrandWCPayRequest opens the sheet for the
  // prepay_id the server signed; 'ok' is the buyer paying at WeChat Pay.
  const sheets: string[] = []
  await context.exposeFunction('e2eWechatSheet', (pkg: string) => {
    sheets.push(pkg)
    if (sheet === 'ok') {
      const trade = [...fake.trades.values()].find((tr) => `prepay_id=${tr.prepay_id}` === pkg)
      if (!trade) return 'get_brand_wcpay_request:fail'
      fake.pay(trade.out_trade_no)
    }
    return `get_brand_wcpay_request:${sheet}`
  })
  await context.addInitScript(() => {
    const w = window as unknown as {
      WeixinJSBridge: unknown
      e2eWechatSheet(pkg: string): Promise<string>
    }
    w.WeixinJSBridge = {
      invoke(_name: string, params: { package: string }, done: (r: { err_msg: string }) => void) {
        void w.e2eWechatSheet(params.package).then((err_msg) => done({ err_msg }))
      },
    }
  })
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
  await page.getByText('支付已取消').waitFor()
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
  // WeChat Pay was asked as the payer the code named, in the official account's app
  const [trade] = fake.trades.values()
  assert.equal(trade.trade_type, 'JSAPI')
  assert.equal(trade.appid, officialAccountAppId)
  assert.match(trade.payer_openid ?? '', /^o_sandbox_/)
  assert.deepEqual(sheets, [`prepay_id=${trade.prepay_id}`])

  // the code left the address bar when it was used: a reload sends nothing again
  const back = new URL(page.url())
  assert.equal(back.searchParams.get('code'), null, `no code in ${page.url()}`)
  assert.equal(back.searchParams.get('state'), null)
  assert.equal(back.searchParams.get('orderNo'), orderNo)
  await page.reload()
  await page.getByText('支付剩余时间').waitFor()
  await sleep(1500)
  assert.equal(payments.length, 1, 'the used code was not sent again')

  // pay again: a new authorisation and its code, the sheet, WeChat Pay's signed notification
  sheet = 'ok'
  await button(page, '立即支付').click()
  await page.getByText('支付成功', { exact: true }).waitFor({ timeout: 20_000 })
  assert.equal(payments.length, 2)
  // a second authorisation (the sandbox WeChat's codes repeat per WeChat user; WeChat's do not)
  assert.equal(hops.filter((h) => new URL(h).pathname === AUTHORIZE_PATH).length, 2)
  assert.equal(sheets.length, 2)
  await fake.settled()
  assert.deepEqual(
    fake.deliveries.map((d) => d.status),
    [200],
  )
  await screenshot(page, 'wechat-pay-paid')
  assert.deepEqual(errors, [])
})
