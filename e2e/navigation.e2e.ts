/**
 * App-wide navigation rules in the H5 build against the real server: 加载中 while a page's chunk is
 * slow (SPEC 9: after 200 ms), a toast when it fails to load, the webpack chunk timeout of 120 s, and
 * the login gate on in-app links and on a gated page reached by Back after the session was revoked.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { H5_DIST, api, apiLogin, screenshot, seedSession, setupE2E, sleep } from './harness'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const loginFor = (target: string) => `/pages/login/login?redirect=${encodeURIComponent(target)}`
/** The Cell row with exactly this title. */
const row = (page: Page, title: string) =>
  page.locator('.nut-cell').filter({ has: page.getByText(title, { exact: true }) })
const pathAndQuery = (href: string) => {
  const url = new URL(href)
  return `${url.pathname}${url.search}`
}

test('a slow page chunk shows 加载中 until the page appears', async () => {
  const { page, errors } = await e2e.newPage()
  await e2e.open(page, '/pages/Home/user')
  // every script fetched from now on (the agreement page's chunk) takes 1.5 s
  await page.route('**/js/*.js', async (route) => {
    await sleep(1500)
    await route.continue()
  })
  await row(page, '用户协议').click()
  await page.getByText('加载中', { exact: true }).waitFor({ state: 'visible', timeout: 1400 })
  await screenshot(page, 'page-loading')
  await page.waitForURL(/pages\/webView\/protocol/)
  await page.locator('.taro_page').filter({ hasText: '用户协议' }).last().waitFor()
  await page.getByText('加载中', { exact: true }).waitFor({ state: 'hidden' })
  assert.deepEqual(errors, [])
})

test('a page chunk that fails to load hides 加载中 and says so', async () => {
  const { page } = await e2e.newPage()
  await e2e.open(page, '/pages/Home/user')
  await page.route('**/js/*.js', async (route) => {
    await sleep(400)
    await route.abort('internetdisconnected')
  })
  await row(page, '隐私政策').click()
  await page.getByText('页面加载失败，请检查网络后重试').waitFor()
  await page.getByText('加载中', { exact: true }).waitFor({ state: 'hidden' })
})

test('the H5 build waits 120 s for a script chunk (SPEC 9)', () => {
  const dir = path.join(H5_DIST, 'js')
  const app = fs.readdirSync(dir).find((f) => /^app\.[0-9a-f]+\.js$/.test(f))
  assert.ok(app, 'dist/h5/js/app.*.js exists')
  const source = fs.readFileSync(path.join(dir, app), 'utf8')
  // webpack's script loader (names are minified): it sets the script element's timeout and its timer
  const timer = source.search(/\{"?type"?:"timeout","?target"?:/)
  assert.ok(timer > 0, "webpack's script loader is in app.js")
  const loader = source.slice(Math.max(0, timer - 1000), timer + 1000)
  assert.match(loader, /\.timeout=120[,;]/, 'script element timeout 120 s')
  assert.match(loader, /\{"?type"?:"timeout","?target"?:[\w$]+\}\),12e4\)/, 'timer 120000 ms')
})

test('an in-app link to a gated page sends a logged-out visitor to login and back', async () => {
  const { page, errors } = await e2e.newPage()
  await e2e.open(page, '/pages/Home/user')
  await row(page, '设置').click()
  await page.waitForURL(/pages\/login\/login/)
  assert.equal(pathAndQuery(page.url()), loginFor('/pages/user/config'))
  assert.deepEqual(errors, [])
})

test('Back to a gated page after the session was revoked ends at login', async () => {
  const session = await apiLogin('13912340021')
  const { context, page } = await e2e.newPage()
  await seedSession(context, session)
  await e2e.open(page, '/pages/Home/user')
  await row(page, '设置').click()
  await page.waitForURL(/pages\/user\/config/)
  await row(page, '消息设置').click()
  await page.waitForURL(/pages\/user\/messageSet/)
  await page.getByLabel('接收公告').waitFor()
  const revoked = await api('/user/exitLogin', { json: {}, session })
  assert.equal(revoked.code, 200)

  // the next call answers 2017: the session is cleared and login replaces this page
  await page.getByLabel('接收公告').click()
  await page.waitForURL(/pages\/login\/login/)
  assert.equal(pathAndQuery(page.url()), loginFor('/pages/user/messageSet'))
  await page.getByText('验证码登录').first().waitFor()
  // Back shows 设置 again, which needs the session that is gone: login replaces it too
  await page.goBack()
  await page.waitForURL(/redirect=%2Fpages%2Fuser%2Fconfig/)
  assert.equal(pathAndQuery(page.url()), loginFor('/pages/user/config'))
  await page.getByText('验证码登录').first().waitFor()
})
