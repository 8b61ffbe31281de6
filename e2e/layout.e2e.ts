/**
 * Layout scan: every route of the route table (what app.config.ts is generated from) in the
 * H5 build at 390×844 and at 320×568, logged in as a user with content (two running phones, a group,
 * an unpaid order, a login password) and, for the public pages, logged out. Nothing may reach past the
 * screen's right edge: the document may not be wider than the window, and no visible element may end
 * right of it, unless an ancestor clips it (a horizontal scroller, a swipe row).
 *
 * Each route loads once at 390 px and is scanned again after the window narrows to 320 px (the page
 * lays itself out again: Taro's rem base follows the width), which keeps the run near a minute.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { ROUTES, isPublicPage, requiresLogin, type RouteName } from '#constants/routes'
import { api, apiLogin, seedSession, setupE2E } from './harness'
import { buyPhones, goodsFor, ok } from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '100' },
})

const SIZES = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
]

interface Overflow {
  what: string
  right: number
}

/**
 * What reaches past the right edge now: the document's width, then the outermost elements. A string
 * run in the page (tsx would wrap named functions in a helper the page does not have).
 */
const OVERFLOW_SCAN = `(() => {
  const width = window.innerWidth
  const found = []
  const doc = document.documentElement
  if (doc.scrollWidth > width) found.push({ what: 'document', right: doc.scrollWidth })
  const describe = (el) => {
    const classes = [...el.classList].slice(0, 2).join('.')
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 24)
    return el.tagName.toLowerCase() + (classes ? '.' + classes : '') + ' "' + text + '"'
  }
  const shown = (el) => {
    const style = getComputedStyle(el)
    return style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0'
  }
  // an ancestor inside the page that clips its content horizontally (a scroller, a swipe row) and
  // ends inside the screen; the page's own frame clips everything and does not count
  const clipped = (el) => {
    for (let p = el.parentElement; p && !p.classList.contains('taro_page'); p = p.parentElement) {
      if (p === document.body) return false
      if (getComputedStyle(p).overflowX !== 'visible' && p.getBoundingClientRect().right <= width + 1)
        return true
    }
    return false
  }
  const reported = []
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect()
    if (box.width === 0 || box.height === 0 || box.right <= width + 1) continue
    if (el.closest('.taro__toast') || !shown(el) || clipped(el)) continue
    if (reported.some((outer) => outer.contains(el))) continue
    // a page hidden under the one on screen (Taro keeps them in the DOM)
    const page = el.closest('.taro_page')
    if (page && !shown(page)) continue
    reported.push(el)
    found.push({ what: describe(el), right: Math.round(box.right) })
  }
  return found
})()`

const overflowsNow = (page: Page) => page.evaluate<Overflow[]>(OVERFLOW_SCAN)

/** Each size in turn on the page as loaded; the findings, one line each. */
async function scan(page: Page, label: string): Promise<string[]> {
  const report: string[] = []
  for (const size of SIZES) {
    if (page.viewportSize()?.width !== size.width) await page.setViewportSize(size)
    // a layout pass after the resize (Taro sets the rem base on resize), then two frames
    await page.evaluate(
      'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
    )
    await page.waitForTimeout(100)
    for (const o of await overflowsNow(page)) {
      report.push(`${label} @${size.width}: ${o.what} ends at ${o.right} px`)
    }
  }
  await page.setViewportSize(SIZES[0])
  return report
}

async function open(page: Page, path: string) {
  await page.goto(path, { waitUntil: 'domcontentloaded' })
  await page.locator('.taro_page').first().waitFor({ state: 'attached', timeout: 20_000 })
  // the page's data: most pages settle well inside this; a page that polls does not hold the scan up
  await page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => {})
}

test('no page reaches past the right edge at 390 and 320 px, logged in and out', async () => {
  const session = await apiLogin('13912370001')
  ok(
    'password',
    await api('/user/firstUpdateUserPassword', { session, json: { newPassword: 'Layout2026' } }),
  )
  const phones = await buyPhones(session, 2, 30, 'layout-e2e-phones')
  ok('group', await api('/group/create', { session, json: { name: '一个很长很长的分组名称' } }))
  const choice = await goodsFor(30)
  const quote = ok(
    'quote',
    await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
      session,
      json: { kind: 'new', goodId: choice.goodId, priceId: choice.priceId, quantity: 1 },
    }),
  )
  const order = ok(
    'unpaid order',
    await api<{ orderNo: string }>('/order/createCloudOrder', {
      session,
      json: { ...choice, quantity: 1, expectedAmount: quote.total, idempotencyKey: 'layout-e2e' },
    }),
  )
  const ids = phones.map((p) => p.deviceId)
  const query: Partial<Record<RouteName, string>> = {
    goodsDetails: `goodId=${choice.goodId}`,
    buyGoods: `goodId=${choice.goodId}`,
    pay: `orderNo=${order.orderNo}`,
    messageList: 'type=1',
    scanResult: `text=${encodeURIComponent('https://example.com/一段很长的扫码结果文本，看它是否折行而不是撑宽页面')}`,
  }
  const queryOf = (name: RouteName) =>
    query[name] ?? `deviceId=${ids[0]}&deviceIds=${ids.join(',')}`

  const started = Date.now()
  const names = Object.keys(ROUTES) as RouteName[]
  const loggedOut = names.filter((name) => {
    const path = ROUTES[name].path
    return isPublicPage(path) || !requiresLogin(path)
  })

  /** Scans the routes in order in one page; the session (if any) is seeded first. */
  const scanAll = async (routes: RouteName[], label: string, signedIn: boolean) => {
    const { context, page, errors } = await e2e.newPage()
    if (signedIn) await seedSession(context, session)
    const report: string[] = []
    for (const name of routes) {
      await open(page, `/${ROUTES[name].path}?${queryOf(name)}`)
      report.push(...(await scan(page, `${name}${label}`)))
    }
    return { report, errors }
  }
  // two pages at a time (logged out, then the first half; the second half) keep the run short
  const half = Math.ceil((names.length - loggedOut.length) / 2)
  const results = await Promise.all([
    (async () => {
      const out = await scanAll(loggedOut, ' (logged out)', false)
      const first = await scanAll(names.slice(0, names.length - half), '', true)
      return { report: [...out.report, ...first.report], errors: [...out.errors, ...first.errors] }
    })(),
    scanAll(names.slice(names.length - half), '', true),
  ])
  const report = results.flatMap((r) => r.report)
  const errors = results.flatMap((r) => r.errors)
  console.log(
    `layout scan: ${names.length} routes in ${Math.round((Date.now() - started) / 1000)} s`,
  )
  assert.deepEqual(report, [], `past the right edge:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
})
