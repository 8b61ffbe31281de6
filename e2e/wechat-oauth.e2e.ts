/**
 * Official-account login in the WeChat browser, end to end: a logged-out visitor opens a gated page from
 * an official-account link (channelCode), the app sends them to the authorisation page (the sandbox
 * WeChat's, playing open.weixin.qq.com), which returns to wechatAuth with a code; wechatAuth exchanges
 * it, binds a new number with an SMS code (the bind ticket), and goes back to the page they opened,
 * logged in. The same WeChat later logs straight in.
 *
 * Needs an H5 build that names the sandbox's authorisation page, as development builds do:
 *   TARO_APP_WECHAT_APPID=wx_sandbox TARO_APP_WECHAT_OAUTH_URL=/vmcloud/api/sandbox/wechat/oauth2/authorize \
 *     TARO_OUTPUT_DIR=/tmp/h5-oauth npm run build:h5 && H5_DIST=/tmp/h5-oauth node --import tsx --test e2e/wechat-oauth.e2e.ts
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import {
  H5_DIST,
  collectPageErrors,
  newMobileContext,
  readStorage,
  screenshot,
  setupE2E,
  smsCode,
} from './harness'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const AUTHORIZE_PATH = '/vmcloud/api/sandbox/wechat/oauth2/authorize'
const WECHAT =
  'MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN'
const MOBILE = '13912377001'
const GATED = '/pages/user/messageList?type=2'

const buildNamesSandbox = () => {
  const js = path.join(H5_DIST, 'js')
  return fs
    .readdirSync(js)
    .some(
      (f) =>
        f.endsWith('.js') && fs.readFileSync(path.join(js, f), 'utf8').includes(AUTHORIZE_PATH),
    )
}

/** Every address the tab's top frame asked for, in order, redirects included. */
function trackHops(page: Page): string[] {
  const hops: string[] = []
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      hops.push(request.url())
  })
  return hops
}

const wayBackOf = (hops: string[]) => {
  const authorize = hops.find((h) => new URL(h).pathname === AUTHORIZE_PATH)
  assert.ok(authorize, `went through the authorisation page: ${hops.join(' → ')}`)
  return new URL(new URL(authorize).searchParams.get('redirect_uri')!)
}

test('WeChat browser: official-account link → authorise → bind a number → back on the page; again: straight in', async (t) => {
  if (!buildNamesSandbox()) {
    t.skip(`${H5_DIST} was built without the sandbox authorisation page (see this file's header)`)
    return
  }
  const context = await newMobileContext(e2e.browser, { uaSuffix: WECHAT })
  t.after(() => context.close())

  // 1. first visit: from the official account's menu, logged out
  const page = await context.newPage()
  const errors = collectPageErrors(page)
  const hops = trackHops(page)
  const logs: string[] = []
  page.on('console', (message) => logs.push(message.text()))
  await page.goto(`${GATED}&channelCode=oa-menu`)
  await page.waitForURL(/\/pages\/auth\/wechatAuth\?/)
  await page
    .getByText('首次使用微信登录，请绑定手机号，之后可直接微信登录')
    .waitFor()
    .catch(async (error) => {
      // what the page said and logged instead (a refused code shows 微信授权失败)
      const text = await page.locator('body').innerText()
      throw new Error(`${error}\npage: ${text}\nconsole: ${logs.join('\n')}`)
    })

  const back = wayBackOf(hops)
  assert.equal(back.pathname, '/pages/auth/wechatAuth')
  assert.equal(back.searchParams.get('redirect'), GATED, 'the page opened, encoded once')
  assert.equal(back.searchParams.get('isWeChatAuth'), '1')
  assert.equal(back.searchParams.get('channelCode'), 'oa-menu')
  assert.equal(decodeURIComponent(back.toString()).match(/channelCode/g)?.length, 1)
  const landed = new URL(page.url())
  assert.match(landed.searchParams.get('code') ?? '', /^sandbox:oa-[0-9a-f]{32}$/)
  assert.equal(await readStorage(page, 'channel'), 'oa-menu')
  await screenshot(page, 'wechat-oauth-bind')

  // bind a new number with an SMS code
  await page.locator('input[placeholder="请输入手机号"]').fill(MOBILE)
  await button(page, '获取验证码').click()
  await page.getByText(/s后重新获取/).waitFor()
  await page.locator('input[placeholder="请输入验证码"]').fill(await smsCode(MOBILE))
  await button(page, '绑定并登录').click()
  // a new account is offered a password first
  await page.getByText('设置登录密码', { exact: true }).waitFor()
  await page.getByText('稍后', { exact: true }).click()

  await page.waitForURL((u) => `${u.pathname}${u.search}` === GATED)
  await page.locator('.taro_page').first().waitFor({ state: 'attached' })
  const userId = await readStorage(page, 'userId')
  assert.ok(userId, 'logged in')
  assert.ok(await readStorage(page, 'accessToken'), 'with a session')
  assert.equal(
    hops.filter((h) => new URL(h).pathname === AUTHORIZE_PATH).length,
    1,
    'one authorisation, no loop',
  )
  assert.deepEqual(errors, [])

  // 2. a later visit with the same WeChat, after the app forgot its session: logs straight in
  await page.evaluate(() => localStorage.clear())
  await page.close()
  const again = await context.newPage()
  const againErrors = collectPageErrors(again)
  const againHops = trackHops(again)
  await again.goto('/pages/user/config?channelCode=oa-menu')
  // an account still without a password is offered one again (finishLogin), as after any login
  const offer = again.getByText('稍后', { exact: true })
  const arrived = again.waitForURL((u) => u.pathname === '/pages/user/config' && !u.search)
  await Promise.race([arrived, offer.waitFor().then(() => offer.click())])
  await arrived
  await again.locator('.taro_page').first().waitFor({ state: 'attached' })
  assert.ok(
    againHops.some((h) => new URL(h).pathname === '/pages/auth/wechatAuth'),
    `through wechatAuth: ${againHops.join(' → ')}`,
  )
  assert.equal(wayBackOf(againHops).searchParams.get('redirect'), '/pages/user/config')
  assert.equal(String(await readStorage(again, 'userId')), String(userId), 'the same account')
  assert.equal(await again.getByText('绑定手机号').count(), 0)
  assert.deepEqual(againErrors, [])
})
