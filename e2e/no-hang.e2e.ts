/**
 * No hang, on any route. The prerendered documents used to carry Taro's tab bar
 * (and every other Taro component) under its own name: the app brought the copy to life as a second,
 * unconfigured tab bar, which logged tabBar 配置错误 and TypeErrors reading map and mode on every
 * fresh load, listened to the router until the snapshot went, and threw reading basename inside the
 * router when the visitor changed page before that: the address changed, the old page stayed under
 * 加载中 for good. scripts/lib/inert-snapshot.mjs makes the snapshot a picture.
 *
 * Every prerendered route and every tab route, signed out and signed in, loads fresh; the first tap
 * comes a quarter second after the app's page is visible (a catalogue asked for before then arrives
 * two seconds late, as on a slow network: 创建云机 keeps its snapshot until then), then 20 taps in
 * sequence: each tab in turn and the first button or link of the page it shows. After each tap,
 * within 3 s, the page for the address must be the one on screen with no 加载中 left; throughout, no
 * page error, no console error of the kinds the second tab bar caused, never more than one tab bar,
 * and no component of the snapshot brought to life. Most rounds on the old build fail by the errors
 * and the second tab bar alone; the hang itself needs a tap while the snapshot's tab bar listens.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { allRoutes } from '#constants/routes'
import { LOADING_TEXT } from '#constants/limits'
import { PRERENDERED_DIR } from '../shared/prerendered.mjs'
import { H5_DIST, apiLogin, seedSession, setupE2E, sleep } from './harness'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const TAPS = 20
/** how long a tap may take to show its page with no spinner left */
const SETTLE_MS = 3_000
/** the catalogue's delay: 创建云机 holds its snapshot until the app has it */
const SLOW_CATALOGUE_MS = 2_000
/** a visitor's first tap: this long after the app's page is visible (the app has drawn its frames) */
const FIRST_TAP_MS = 250
const HOME = '/pages/Home/index'
const TABS = allRoutes.filter((route) => route.tab).map((route) => `/${route.path}`)
const TAB_TEXT = new Map(allRoutes.filter((r) => r.tab).map((r) => [`/${r.path}`, r.tab!.text]))
/** what the second tab bar logged (the audit's console) */
const SECOND_TAB_BAR_ERRORS =
  /tabBar 配置错误|Cannot read properties of undefined \(reading '(basename|map|mode)'\)/
/** the page's first control: what a visitor taps first */
const CONTROL = '[role=button],[role=link],a[href],button,taro-button-core'

/** The routes the build prerenders (prerendered/**.html; a template is its page's document). */
function prerenderedRoutes(dir: string, under = ''): string[] {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(under, entry.name)
    if (entry.isDirectory()) return prerenderedRoutes(dir, file)
    const page = file.match(/^(.*?)(\.template)?\.html$/)?.[1]
    if (page === undefined) return []
    return [page === 'index' ? '/' : `/${page}`]
  })
}

/**
 * Watches the document from its first byte: the most tab bars it ever held, and the snapshot's
 * elements the app defined (brought to life) when the snapshot went (or when asked, if it stays).
 * Plain script: tsx would wrap named functions in a helper the page does not have.
 */
const WATCH = `
window.__noHang = { maxTabBars: 0, upgraded: [] };
(function () {
  var state = window.__noHang;
  var tabBars = document.getElementsByTagName('taro-tabbar');
  state.upgradedIn = function (root) {
    var names = [];
    root.querySelectorAll('*').forEach(function (el) {
      if (el.localName.indexOf('-') > 0 && customElements.get(el.localName) && names.indexOf(el.localName) < 0)
        names.push(el.localName);
    });
    return names;
  };
  new MutationObserver(function (records) {
    if (tabBars.length > state.maxTabBars) state.maxTabBars = tabBars.length;
    records.forEach(function (record) {
      record.removedNodes.forEach(function (node) {
        if (node.id === 'prerendered') state.upgraded = state.upgraded.concat(state.upgradedIn(node));
      });
    });
  }).observe(document, { childList: true, subtree: true });
})();`

interface Screen {
  /** location.pathname ('/' is Home) */
  url: string
  /** the route of the page on screen */
  shown: string
  spinner: boolean
  tabBars: number
  dialog: boolean
}

/** What the visitor sees now. */
function screen(page: Page): Promise<Screen> {
  return page.evaluate(
    ([home, loading]) => {
      const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
        (element) => getComputedStyle(element).display !== 'none',
      )
      const top = pages[pages.length - 1]
      // Taro's loading toast (page loads and requests both use it): 加载中, over a mask
      const spinner = Array.from(document.querySelectorAll<HTMLElement>('.taro__toast')).some(
        (toast) =>
          getComputedStyle(toast).display !== 'none' &&
          ((toast.textContent ?? '').includes(loading) ||
            (toast.firstElementChild as HTMLElement | null)?.style.display === 'block'),
      )
      const dialog = Array.from(document.querySelectorAll<HTMLElement>('[aria-modal="true"]')).some(
        (element) => element.checkVisibility(),
      )
      return {
        url: location.pathname === '/' ? home : location.pathname,
        shown: top ? top.id.split('?')[0] : '',
        spinner,
        tabBars: document.getElementsByTagName('taro-tabbar').length,
        dialog,
      }
    },
    [HOME, LOADING_TEXT] as const,
  )
}

/** Waits (from `since`) until the page for the address is on screen with no spinner; the last look. */
async function settle(page: Page, since: number, url?: string): Promise<Screen & { ok: boolean }> {
  for (;;) {
    const now = await screen(page)
    const ok = now.shown === now.url && !now.spinner && (url === undefined || now.url === url)
    if (ok || Date.now() - since > SETTLE_MS) return { ...now, ok }
    await sleep(50)
  }
}

interface Outcome {
  start: string
  taps: number
  problems: string[]
}

/** One fresh load of `route` and TAPS taps in sequence (see the file's comment). */
async function tapThrough(route: string, signedIn: boolean, session: unknown): Promise<Outcome> {
  const start = `${route} ${signedIn ? 'signed in' : 'signed out'}`
  const problems: string[] = []
  const { context, page, errors } = await e2e.newPage()
  if (signedIn) await seedSession(context, session as Parameters<typeof seedSession>[1])
  await context.addInitScript({ content: WATCH })
  // the catalogue asked for before the first tap is late (later ones are not: they count in a tap's 3 s)
  let firstTapDone = false
  await context.route('**/CommodityGroup/getGoodsList*', async (call) => {
    if (!firstTapDone) await sleep(SLOW_CATALOGUE_MS)
    await call.continue().catch(() => undefined)
  })
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && SECOND_TAB_BAR_ERRORS.test(message.text()))
      consoleErrors.push(message.text().split('\n')[0])
  })

  await page.goto(route, { waitUntil: 'commit' })
  // as soon as the app takes a tap: its own tab bar (or, without one, its page) is visible
  const appTabBar = page.locator('taro-tabbar:not(#prerendered *)')
  await page.locator('#app .taro_page').first().waitFor({ state: 'visible', timeout: 20_000 })
  await sleep(FIRST_TAP_MS)
  let taps = 0
  for (let step = 0; taps < TAPS; step++) {
    const here = await screen(page)
    const onTab = TABS.includes(here.url) && (await appTabBar.isVisible())
    // the tabs in turn, each followed by its page's first control; a page without tabs: its control
    const tab = onTab && step % 2 === 0 ? TABS[(TABS.indexOf(here.url) + 1) % TABS.length] : null
    const tappedAt = Date.now()
    firstTapDone = true
    taps += 1
    if (tab) {
      await appTabBar.getByText(TAB_TEXT.get(tab)!, { exact: true }).click({ timeout: SETTLE_MS })
      const after = await settle(page, tappedAt, tab)
      if (!after.ok) {
        problems.push(`tap ${taps} on tab ${tab}: ${JSON.stringify(after)} after ${SETTLE_MS} ms`)
        break
      }
      if (after.tabBars !== 1) problems.push(`tap ${taps}: ${after.tabBars} tab bars on ${tab}`)
      continue
    }
    const control = page
      .locator('#app .taro_page:visible')
      .last()
      .locator(CONTROL)
      .locator('visible=true')
      .first()
    const label = ((await control.textContent({ timeout: SETTLE_MS })) ?? '').slice(0, 20)
    const before = page.url()
    await control.click({ timeout: SETTLE_MS })
    // a page change starts at once (加载中 shows after 200 ms if its page is not there yet); a
    // control that opens no page is given as long to show what it does
    await page.waitForURL((next) => next.href !== before, { timeout: 300 }).catch(() => undefined)
    const after = await settle(page, tappedAt)
    if (!after.ok) {
      problems.push(`tap ${taps} on "${label}" (${here.url}): ${JSON.stringify(after)}`)
      break
    }
    if (after.url !== here.url) {
      // back to the page the control was on, once the new page has slid in: Taro's router hides the
      // page beneath when its animation ends, even if the visitor has gone back to it by then (a
      // blank page; noted in an earlier QA report, not this test's subject). Its timer (300 ms after
      // a 50 ms delay, @tarojs/router) runs late on a busy machine: the test goes back once the page
      // beneath is hidden, not after a fixed time (400 ms left a blank page in a CI run).
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('.taro_page')).filter(
            (element) => getComputedStyle(element).display !== 'none',
          ).length <= 1,
        undefined,
        { timeout: SETTLE_MS },
      )
      const backAt = Date.now()
      await page.goBack({ waitUntil: 'commit' })
      const back = await settle(page, backAt, here.url)
      if (!back.ok) {
        problems.push(`back from "${label}" to ${here.url}: ${JSON.stringify(back)}`)
        break
      }
    } else if (after.dialog) {
      // the control opened a sheet or dialog: its mask closes it
      await page.mouse.click(195, 80)
      await sleep(300)
      if ((await screen(page)).dialog) {
        problems.push(`"${label}" (${here.url}) opened a dialog its mask does not close`)
        break
      }
    }
  }

  const watched = await page.evaluate(() => {
    const state = (window as unknown as { __noHang: NoHangState }).__noHang
    const snapshot = document.getElementById('prerendered')
    return {
      maxTabBars: state.maxTabBars,
      upgraded: snapshot ? state.upgradedIn(snapshot) : state.upgraded,
    }
  })
  if (watched.maxTabBars > 1) problems.push(`${watched.maxTabBars} tab bars at once`)
  if (watched.upgraded.length > 0)
    problems.push(`the snapshot's ${watched.upgraded.join(', ')} brought to life`)
  if (consoleErrors.length > 0) problems.push(`console: ${[...new Set(consoleErrors)].join(' | ')}`)
  if (errors.length > 0)
    problems.push(`page errors: ${errors.map((e) => e.split('\n')[0]).join(' | ')}`)
  await context.close()
  return { start, taps, problems }
}

interface NoHangState {
  maxTabBars: number
  upgraded: string[]
  upgradedIn(root: Element): string[]
}

test('every prerendered and tab route, signed out and in: 20 taps, no hang, one tab bar, no error', async () => {
  const prerendered = prerenderedRoutes(path.join(H5_DIST, PRERENDERED_DIR))
  assert.ok(prerendered.length > 0, `no prerendered documents in ${H5_DIST}`)
  const routes = [...new Set([...prerendered, ...TABS])]
  const session = await apiLogin('13712345670')
  const outcomes: Outcome[] = []
  // signed out and signed in side by side: most of a tap is waiting, two pages keep it near two minutes
  await Promise.all(
    [false, true].map(async (signedIn) => {
      for (const route of routes) outcomes.push(await tapThrough(route, signedIn, session))
    }),
  )

  const failed = outcomes
    .filter((outcome) => outcome.problems.length > 0)
    .sort((a, b) => a.start.localeCompare(b.start))
  const hung = failed.filter((outcome) => outcome.problems.some((p) => /^(tap|back)/.test(p)))
  console.log(
    `no-hang: ${outcomes.length} fresh loads, ${outcomes.reduce((n, o) => n + o.taps, 0)} taps; ` +
      `${hung.length} hung, ${failed.length} with a problem`,
  )
  assert.deepEqual(
    failed.map(({ start, problems }) => `${start}: ${problems.join('; ')}`),
    [],
  )
})
