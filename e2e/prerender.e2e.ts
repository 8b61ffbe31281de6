/**
 * Prerendered pages (scripts/prerender-h5.mjs): Home and Login arrive as HTML that shows the
 * page before any script has run, 创建云机 with the live catalogue; the app takes over without a
 * visible change and with what the visitor typed; a visitor who is signed in never sees the
 * signed-out Home.
 */
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { test } from 'node:test'
import type { Browser, Page, Route } from 'playwright-core'
import { MOBILE, apiLogin, runScriptFile, screenshot, seedSession, setupE2E } from './harness'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })
const AXE_SOURCE = createRequire(__filename).resolve('axe-core/axe.min.js')

const PAGES = [
  { route: '/', text: '登录后查看您的云手机' },
  { route: '/pages/Home/index', text: '登录后查看您的云手机', screenshot: 'prerendered-home' },
  { route: '/pages/login/login', text: '欢迎使用云手机', screenshot: 'prerendered-login' },
  // the server renders the live catalogue into it (server/src/plugins/level-goods-document.ts)
  {
    route: '/pages/Home/create',
    text: '入门之选，适合日常挂机、轻量应用多开',
    screenshot: 'prerendered-create',
  },
]

/** A page of a phone-sized context with JavaScript off: what arrives before any script has run. */
async function withoutScript(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    ...MOBILE,
    baseURL: e2e.server.url,
    javaScriptEnabled: false,
  })
  return context.newPage()
}

/** Holds requests matching `pattern` until `release()`: the app loading as slowly as we like. */
async function hold(page: Page, pattern: string) {
  const held: Route[] = []
  let released = false
  await page.route(pattern, (route) => (released ? route.continue() : void held.push(route)))
  return {
    release: async () => {
      released = true
      await Promise.all(held.map((route) => route.continue()))
    },
  }
}

/** Waits until the app's page has taken the prerendered one's place. */
async function takenOver(page: Page, text: string) {
  await page.locator('#prerendered').waitFor({ state: 'detached', timeout: 20_000 })
  await page.locator('.taro_page').getByText(text, { exact: true }).first().waitFor()
}

/** How many pixels differ between two screenshots of the same size (decoded by the page). */
async function differingPixels(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async (images) => {
      // no named functions in here: tsx would wrap them in a helper the page does not have
      const [x, y] = await Promise.all(
        images.map(async (base64) => {
          // not fetch(data:…): the page's CSP lets it connect to its own server only
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
          const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
          const context = canvas.getContext('2d')!
          context.drawImage(bitmap, 0, 0)
          return context.getImageData(0, 0, bitmap.width, bitmap.height).data
        }),
      )
      if (x.length !== y.length) return Infinity
      let differing = 0
      for (let i = 0; i < x.length; i += 4) {
        if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2]) differing++
      }
      return differing
    },
    [a.toString('base64'), b.toString('base64')],
  )
}

test('Home, Login and 创建云机 arrive rendered before any script, and the app takes over unchanged', async () => {
  for (const { route, text, screenshot: name } of PAGES) {
    // with JavaScript off: the page's content is in the HTML itself
    const noScript = await withoutScript(e2e.browser)
    await noScript.goto(route)
    await noScript.getByText(text, { exact: true }).waitFor()
    await noScript.context().close()

    // the first paint (the app's scripts held back; the document's inline ones run, as for a visitor)
    const { page, errors } = await e2e.newPage()
    const scripts = await hold(page, '**/js/*.js')
    await page.goto(route, { waitUntil: 'commit' })
    await page.locator('#prerendered').getByText(text, { exact: true }).waitFor()
    const painted = await page.screenshot({ animations: 'disabled', caret: 'hide' })
    if (name) await screenshot(page, name)
    await scripts.release()
    await takenOver(page, text)
    await page.waitForLoadState('networkidle')
    const mounted = await page.screenshot({ animations: 'disabled', caret: 'hide' })
    const differing = await differingPixels(page, painted, mounted)
    assert.equal(differing, 0, `${route}: ${differing} pixels differ once the app has mounted`)
    assert.deepEqual(errors, [])
  }
})

test('创建云机 keeps the catalogue it arrived with on screen until the app has its own', async () => {
  const { page, errors } = await e2e.newPage()
  const catalogue = await hold(page, '**/CommodityGroup/getGoodsList*')
  await page.goto('/pages/Home/create')
  // the app's page is there beneath, still loading its catalogue
  await page
    .locator('.taro_page')
    .getByText('加载中', { exact: true })
    .waitFor({ state: 'attached' })
  await page.waitForTimeout(500)
  assert.equal(await page.locator('#prerendered').isVisible(), true)
  await catalogue.release()
  await takenOver(page, '入门之选，适合日常挂机、轻量应用多开')
  // the cards open their goods once the app has them, to a visitor too, who signs in at 立即购买
  await page
    .getByRole('button', { name: /^畅享版 4核4G/ })
    .first()
    .click()
  await page.waitForURL(/\/pages\/create\/goodsDetails\?goodId=\d+/)
  await page.getByText('购买时长').waitFor()
  await button(page, '立即购买').click()
  await page.waitForURL(/\/pages\/login\/login\?redirect=.*buyGoods(%3F|\?)goodId(%3D|=)\d+/)
  assert.deepEqual(errors, [])
})

test('登录 / 注册 leads to Login before the script has loaded and after', async () => {
  const before = await withoutScript(e2e.browser)
  await before.goto('/')
  await before.getByRole('link', { name: '登录 / 注册' }).click()
  await before.waitForURL(/\/pages\/login\/login\?redirect=/)
  await before.getByText('欢迎使用云手机', { exact: true }).waitFor()
  await before.context().close()

  const { page, errors } = await e2e.newPage()
  await page.goto('/')
  await takenOver(page, '登录后查看您的云手机')
  await page.getByRole('button', { name: '登录 / 注册' }).click()
  await page.waitForURL(/\/pages\/login\/login\?redirect=/)
  await page.locator('.taro_page').getByText('欢迎使用云手机', { exact: true }).waitFor()
  assert.deepEqual(errors, [])
})

test('what is typed into Login before the app has loaded is kept when it takes over', async () => {
  const MOBILE_PHONE = '13712340031'
  const { page, errors } = await e2e.newPage()
  const app = await hold(page, '**/js/app.*.js')
  await page.goto('/pages/login/login', { waitUntil: 'commit' })
  const typed = page.locator('#prerendered input[placeholder="请输入手机号"]')
  await typed.fill(MOBILE_PHONE)
  await app.release()
  await takenOver(page, '欢迎使用云手机')
  const phone = page.locator('input[placeholder="请输入手机号"]')
  assert.equal(await phone.inputValue(), MOBILE_PHONE)
  // the page's state has the number: it sends the code instead of asking for a number
  await page.locator('taro-button-core').filter({ hasText: '获取验证码' }).click()
  await page.getByText(/s后重新获取/).waitFor()
  assert.deepEqual(errors, [])
})

test('while the app loads beneath the prerendered page, only one of them is read', async () => {
  for (const { route, text } of [PAGES[0], PAGES[3]]) {
    const { page } = await e2e.newPage()
    // the page's stylesheet held: the app has mounted its frame (tab bar), not the page
    const pageStyles = await hold(page, '**/css/*.css')
    await page.goto(route, { waitUntil: 'commit' })
    await page.locator('.taro-tabbar__container:not(#prerendered *)').waitFor({ state: 'attached' })
    await runScriptFile(page, AXE_SOURCE)
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (c: unknown) => Promise<unknown> } }).axe
      const result = (await axe.run(document)) as { violations: { id: string; impact: string }[] }
      return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
    })
    assert.deepEqual(violations, [], route)
    // the tab bar is drawn twice and read once: the prerendered one is the live one; and only the
    // app's is a tab bar (the snapshot's is a picture the app never brings to life: no-hang.e2e)
    assert.equal(await page.getByRole('link', { name: '创建云机' }).count(), 1, route)
    assert.equal(await page.locator('taro-tabbar').count(), 1, route)
    assert.equal(await page.locator('#prerendered prerendered-taro-tabbar').count(), 1, route)
    await pageStyles.release()
    await takenOver(page, text)
  }
})

test('a visitor who is signed in never sees the signed-out Home', async () => {
  const session = await apiLogin('13712340032')
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)
  // every frame: is the signed-out invitation on screen?
  await page.addInitScript({
    content: `window.signedOutSeen = false;
      requestAnimationFrame(function check() {
        for (const element of document.querySelectorAll('taro-text-core, prerendered-taro-text-core'))
          if (element.textContent === '登录后查看您的云手机' && element.checkVisibility())
            window.signedOutSeen = true;
        requestAnimationFrame(check);
      });`,
  })
  const app = await hold(page, '**/js/app.*.js')
  await page.goto('/', { waitUntil: 'commit' })
  await page.locator('#prerendered').waitFor({ state: 'attached' })
  assert.equal(await page.locator('#prerendered').isVisible(), false)
  await app.release()
  await page.locator('#prerendered').waitFor({ state: 'detached', timeout: 20_000 })
  await page.locator('.taro_page').getByText('我的云机', { exact: true }).waitFor()
  await page.waitForLoadState('networkidle')
  assert.equal(
    await page.evaluate(() => (window as unknown as { signedOutSeen: boolean }).signedOutSeen),
    false,
  )
  assert.deepEqual(errors, [])
})
