/**
 * Smoke: the H5 build served by the real server — health, the three tab pages logged out on a phone
 * screen, and the not-found page for an unknown route.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, readStorage, screenshot, seedSession, setupE2E, smsCode } from './harness'

const e2e = setupE2E()

const TABS = [
  { route: '/pages/Home/index', title: '我的云机', shot: 'tab-home' },
  { route: '/pages/Home/create', title: '创建云机', shot: 'tab-create' },
  { route: '/pages/Home/user', title: '我的', shot: 'tab-mine' },
]

test('the API reports healthy', async () => {
  const health = await api<{ db: string }>('/health')
  assert.equal(health.code, 200)
  assert.equal(health.data.db, 'ok')
})

for (const tab of TABS) {
  test(`${tab.title} (${tab.route}) loads logged out with the tab bar`, async () => {
    const { page, errors } = await e2e.newPage()
    await e2e.open(page, tab.route)
    const tabBar = page.locator('.taro-tabbar__tabbar')
    await tabBar.waitFor({ state: 'visible' })
    for (const { title } of TABS) {
      await tabBar.getByText(title, { exact: true }).waitFor({ state: 'visible' })
    }
    assert.equal(
      page.url(),
      `${e2e.server.url}${tab.route}`,
      'stays on the tab page (no login redirect)',
    )
    assert.deepEqual(errors, [], 'no uncaught page errors')
    await screenshot(page, tab.shot)
  })
}

test('/ shows the home tab', async () => {
  const { page, errors } = await e2e.newPage()
  await e2e.open(page, '/')
  await page.locator('.taro-tabbar__tabbar').getByText('我的云机', { exact: true }).waitFor()
  assert.deepEqual(errors, [])
})

test('an unknown route shows 页面不存在 with a way home', async () => {
  const { page, errors } = await e2e.newPage()
  await page.goto('/pages/nope/missing')
  await page
    .getByText('页面不存在', { exact: true })
    .last()
    .waitFor({ state: 'visible', timeout: 20_000 })
  await screenshot(page, 'not-found')
  await page.locator('taro-button-core').filter({ hasText: '返回首页' }).click()
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/pages/Home/index')
  await page.locator('.taro-tabbar__tabbar').getByText('我的云机', { exact: true }).waitFor()
  assert.deepEqual(errors, [])
})

test('harness: apiLogin + seedSession give the app a session it keeps', async () => {
  const session = await apiLogin('13800000001')
  assert.match(await smsCode('13800000001'), /^\d{6}$/)
  const me = await api<{ mobilePhone: string }>('/user/getUserInfo', { session })
  assert.equal(me.data.mobilePhone, '13800000001')

  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)
  await e2e.open(page, '/pages/Home/user')
  assert.equal(await readStorage(page, 'accessToken'), session.token)
  assert.equal(String(await readStorage(page, 'userId')), String(session.userId))
  assert.deepEqual(errors, [])
})
