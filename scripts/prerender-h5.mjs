/**
 * After `taro build --type h5`, before compress-h5: renders the pages a visitor who is not signed in
 * opens first (Home at / and at its own URL, Login) in headless Chromium and writes each as a copy of
 * index.html with the rendered page inside `<div id="prerendered">`, under prerendered/ (`/` →
 * prerendered/index.html, `/pages/login/login` → prerendered/pages/login/login.html). The server sends
 * it for that URL; the browser paints it before any script has run, and src/runtime/prerender.ts
 * removes it once the app's own page is on screen (LCP; docs/decisions.md). The snapshot is a
 * picture: its Taro components are renamed so the app never brings them to life (a second, unconfigured
 * tab bar hung the first page change: scripts/lib/inert-snapshot.mjs). 创建云机 shows
 * live data, so it is written as a template, prerendered/pages/Home/create.template.html, with its
 * catalogue cut out, and the page's catalogue component is bundled for Node beside it: the server
 * renders the live catalogue into the template for each visit (server/src/plugins/level-goods-document.ts).
 *
 *   node scripts/prerender-h5.mjs [dir]   (default: $TARO_OUTPUT_DIR or dist/h5)
 *
 * Fails (exit 1) when Chromium cannot render a page (or, under CI, is missing; elsewhere a missing
 * Chromium only leaves the pages unprerendered, with a warning), the page is not the expected one, or
 * it asks the API for data: a page that needs data cannot be rendered ahead of time honestly (创建云机's
 * catalogue is a made-up sample, cut out of the template).
 */
import fs from 'node:fs'
import path from 'node:path'
import Beasties from 'beasties'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, chromiumPath } from './lib/chromium.mjs'
import { serveStatic } from './lib/h5-first-route.mjs'
import cssModuleNames from '../config/css-module-names.js'
import { INERT_PREFIX, inertSelectors, liveCustomElements } from './lib/inert-snapshot.mjs'
import { buildLevelGoodsRenderer } from './lib/level-goods-renderer.mjs'
import {
  LEVEL_GOODS_SLOT,
  PRERENDERED_DIR,
  prerenderedFile,
  prerenderedTemplate,
} from '../shared/prerendered.mjs'

const dir = path.resolve(process.argv[2] || process.env.TARO_OUTPUT_DIR || 'dist/h5')
// the one API call a signed-out page makes: a usage-log write, no data on the page comes from it;
// 创建云机's catalogue is the template's sample (SAMPLE_CATALOGUE), replaced by the server
const ALLOWED_API = /^\/vmcloud\/api\/(userUsageLog\/|CommodityGroup\/getGoodsList$)/

/**
 * `text` proves the page is the one we mean (signed-out Home, Login's form); `links` are texts of
 * controls that navigate, which become real links to where the app goes when they are tapped, so
 * they work before the script has loaded.
 */
const PAGES = [
  { url: '/', text: '登录后查看您的云手机', links: ['登录 / 注册'] },
  { url: '/pages/Home/index', text: '登录后查看您的云手机', links: ['登录 / 注册'] },
  { url: '/pages/login/login', text: '欢迎使用云手机', links: ['《用户协议》', '《隐私政策》'] },
  // a template: the server puts the live catalogue's opening level where LEVEL_GOODS_SLOT stands
  { url: '/pages/Home/create', text: '预渲染样例', links: [], levelGoods: true },
]

/** The element of 创建云机 that the server renders (src/pages/Home/parts/catalogue/LevelGoods.tsx). */
const LEVEL_GOODS_CLASS = cssModuleNames.scopedClassName(
  'levelGoods',
  'src/pages/Home/parts/catalogue/catalogue.module.scss',
)
/**
 * What 创建云机 shows around the catalogue (tabs, footer, tab bar) does not depend on it, so the
 * template is rendered with a made-up level that uses every part of a card: their rules stay in the
 * page's cut stylesheet. Only the opening level (畅享版, id 1) is shown.
 */
const SAMPLE_CATALOGUE = [
  {
    level: 1,
    name: '畅享版',
    themeColor: '#2F5FE8',
    description: '预渲染样例',
    goods: [
      {
        goodId: 1,
        level: 1,
        levelName: '畅享版',
        themeColor: '#2F5FE8',
        name: '样例',
        configName: '样例',
        androidVersion: 'B',
        androidVersionLabel: '样例',
        imageType: 1,
        imageTypeLabel: '样例',
        maxPerOrder: 1,
        description: '',
        permissions: [],
        videoDailyFee: null,
        prices: [
          {
            priceId: 1,
            goodId: 1,
            goodTime: 30,
            durationLabel: '1个月',
            goodPrice: 3000,
            oldGoodPrice: 5000,
            firstPurchasePrice: 1000,
            firstCount: 1,
            activityId: 1,
            activityPrice: 2000,
            activityEndsAt: 4102444800000,
            activityRunning: true,
          },
        ],
        zones: [1, 2, 3, 4].map((status) => ({
          zoneId: status,
          name: '样例',
          inventoryStatus: status,
          statusText: '样例',
        })),
      },
    ],
  },
]

/**
 * In <head>, before the body is parsed. A visitor for whom the app would draw something else never
 * sees the snapshot: one signed in (Taro H5's storage keeps the token as {"data": token} under
 * src/runtime/storage-keys.ts's `accessToken`), or in the WeChat browser (Login offers WeChat login
 * there, Home may go to the official account's authorisation).
 */
const HEAD_SCRIPT =
  '<script>try{if(/MicroMessenger/i.test(navigator.userAgent)||JSON.parse(localStorage.getItem("accessToken")).data)' +
  'document.documentElement.className+=" no-prerender"}catch(e){}</script>'
/**
 * The snapshot covers the viewport; the app mounts beneath it, invisible and out of the accessibility
 * tree (visibility), so nothing moves and nothing is read twice when the snapshot goes.
 */
const PRERENDER_CSS =
  '#prerendered{position:fixed;top:0;right:0;bottom:0;left:0;z-index:1000;overflow:hidden}' +
  '.no-prerender #prerendered{display:none}' +
  'html:not(.no-prerender) #prerendered~*{visibility:hidden}'

/**
 * The app's scripts start once the snapshot is on screen: downloaded from the start (preload), run in
 * order when the browser reports the first contentful paint. As `defer` scripts that have arrived they
 * run before the first paint, which then waits for the app's start (4× CPU: ~0.4 s). Without the
 * snapshot to show (a session, the WeChat browser), in a hidden tab, or where paint timing is missing
 * (Safari before 14.1: after two frames), they start at once.
 */
function startAfterFirstPaint(html) {
  const scripts = [...html.matchAll(/<script defer="defer" src="([^"]+)"><\/script>/g)]
  if (scripts.length === 0) throw new Error('index.html: no deferred scripts found')
  let out = html
  for (const [tag, src] of scripts)
    out = replaceOnce(out, tag, `<link rel="preload" as="script" href="${src}">`)
  if (/<script[^>]* src=/.test(out)) throw new Error('index.html: a script that is not deferred')
  const start = `<script>(function(){var started=0;function start(){if(started++)return;${JSON.stringify(
    scripts.map(([, src]) => src),
  )}.forEach(function(src){var s=document.createElement("script");s.src=src;s.async=false;document.body.appendChild(s)})}
if(document.visibilityState!=="visible"||/no-prerender/.test(document.documentElement.className))return start();
var P=window.PerformanceObserver;if(!P||!P.supportedEntryTypes||P.supportedEntryTypes.indexOf("paint")<0)
return requestAnimationFrame(function(){requestAnimationFrame(start)});
new P(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();start()}}).observe({type:"paint",buffered:true})})()</script>`
  return replaceOnce(out, '</body>', `${start}</body>`)
}

/** API calls the pages made (refused with 503) */
const apiCalls = []

/** Opens the page as a first visit and waits until it shows `text` with its images decoded. */
async function open(context, url, text) {
  const page = await context.newPage()
  const errors = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 })
  await page.getByText(text, { exact: true }).first().waitFor({ timeout: 30_000 })
  await page.evaluate(() =>
    Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))),
  )
  if (errors.length > 0) throw new Error(`${url}: ${errors.join('; ')}`)
  return page
}

/** Where tapping `text` takes the app (the URL it navigates to). */
async function destination(page, text) {
  const before = page.url()
  await page.getByText(text, { exact: true }).first().click()
  await page.waitForURL((next) => next.href !== before, { timeout: 10_000 })
  const next = new URL(page.url())
  return next.pathname + next.search
}

/**
 * The rendered body, with ids made unique, the tab bar and `links` turned into real links, and every
 * custom element renamed with `inertPrefix` (scripts/lib/inert-snapshot.mjs: the app would otherwise
 * bring the copies to life); and, when the page has an element of class `slotClass`, the same with a
 * comment (`slot`) in its place. `renamed`: the custom elements' names.
 */
function snapshot([links, slotClass, slot, inertPrefix]) {
  const body = document.body.cloneNode(true)
  const prefix = (value) => value.replace(/\S+/g, (id) => `prerendered-${id}`)
  for (const element of body.querySelectorAll('[id]')) element.id = prefix(element.id)
  for (const name of ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls']) {
    for (const element of body.querySelectorAll(`[${name}]`))
      element.setAttribute(name, prefix(element.getAttribute(name)))
  }
  const tabs = window.__taroAppConfig?.tabBar?.list ?? []
  body.querySelectorAll('.weui-tabbar__item').forEach((item, index) => {
    if (tabs[index]) item.setAttribute('href', `/${tabs[index].pagePath.replace(/^\//, '')}`)
  })
  // match in the live page (computed styles), replace in the copy: the same position in both trees
  const all = [...document.body.querySelectorAll('*')]
  const copies = [...body.querySelectorAll('*')]
  // what is not displayed (Taro's hidden navigation bar and its icons) has no place in a picture
  const hidden = copies.filter((_, index) => getComputedStyle(all[index]).display === 'none')
  for (const [text, href] of links) {
    const index = all.findLastIndex((element) => element.textContent.trim() === text)
    if (index < 0) throw new Error(`no element reads "${text}"`)
    const style = getComputedStyle(all[index])
    const original = copies[index]
    const link = document.createElement('a')
    for (const { name, value } of original.attributes)
      if (name !== 'role') link.setAttribute(name, value)
    link.setAttribute('href', href)
    link.style.display = style.display
    link.style.color = style.color
    link.append(...original.childNodes)
    original.replaceWith(link)
  }
  for (const element of hidden) element.remove()
  const renamed = new Set()
  for (const element of body.querySelectorAll('*')) {
    // custom elements are HTML's (an SVG name such as font-face is not one)
    if (!element.localName.includes('-') || element.namespaceURI !== document.body.namespaceURI)
      continue
    renamed.add(element.localName)
    const inert = document.createElement(`${inertPrefix}${element.localName}`)
    for (const { name, value } of element.attributes) inert.setAttribute(name, value)
    inert.append(...element.childNodes)
    element.replaceWith(inert)
  }
  const dom = body.innerHTML
  const slotted = slotClass && body.querySelector(`.${slotClass}`)
  if (!slotted) return { dom, renamed: [...renamed] }
  slotted.replaceWith(document.createComment(slot))
  return { dom, template: body.innerHTML, renamed: [...renamed] }
}

async function prerender(context, index, { url, text, links, levelGoods }) {
  const hrefs = []
  for (const label of links) {
    const page = await open(context, url, text)
    hrefs.push([label, await destination(page, label)])
    await page.close()
  }
  const apiCallsBefore = apiCalls.length
  const page = await open(context, url, text)
  const { dom, template, renamed } = await page.evaluate(snapshot, [
    hrefs,
    levelGoods ? LEVEL_GOODS_CLASS : null,
    LEVEL_GOODS_SLOT,
    INERT_PREFIX,
  ])
  if (levelGoods && !template) throw new Error(`${url}: no element of class ${LEVEL_GOODS_CLASS}`)
  const live = liveCustomElements(dom)
  if (live.length > 0) throw new Error(`${url}: the snapshot holds live ${live.join(', ')}`)
  // the styles the app added to <head> (router, components) and the page's own stylesheets
  const styles = await page.evaluate(() => ({
    inline: [...document.head.querySelectorAll('style')].map((style) => style.textContent),
    linked: [...document.head.querySelectorAll('link[rel=stylesheet]')].map((link) =>
      link.getAttribute('href'),
    ),
  }))
  await page.close()
  const pageCss = await usedBy(
    dom,
    [
      ...styles.inline.filter((style) => !index.includes(style)),
      ...styles.linked.map((href) =>
        fs.readFileSync(path.join(dir, new URL(href, 'http://x').pathname), 'utf8'),
      ),
    ].map((css) => inertSelectors(css, renamed)),
  )
  const css = `${PRERENDER_CSS}\n${pageCss}`.replace(/<\/style/gi, '<\\/style')
  const html = replaceOnce(
    replaceOnce(
      startAfterFirstPaint(index),
      '</head>',
      `<style id="prerendered-style">${css}</style>${HEAD_SCRIPT}</head>`,
    ),
    '<div id="app">',
    `<div id="prerendered">${template ?? dom}</div><div id="app">`,
  )
  const file = levelGoods ? prerenderedTemplate(dir, url) : prerenderedFile(dir, url)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, html)
  return { file, bytes: html.length, apiCalls: apiCalls.slice(apiCallsBefore) }
}

/**
 * Only the rules the snapshot's elements use: the app loads the whole stylesheets with its own page
 * (Login's NutUI CSS is 50 KB, most of it for components the form does not show). Beasties is made for
 * this (inlining a page's critical CSS); it is given the snapshot alone.
 */
async function usedBy(dom, stylesheets) {
  const beasties = new Beasties({ external: false, reduceInlineStyles: true, logLevel: 'warn' })
  const styled = `<html><head><style>${stylesheets.join('\n')}</style></head><body>${dom}</body></html>`
  const reduced = await beasties.process(styled)
  const kept = reduced.match(/<style>([\s\S]*)<\/style>/)
  if (!kept) throw new Error('beasties returned no stylesheet')
  return kept[1]
}

function replaceOnce(html, marker, replacement) {
  const at = html.indexOf(marker)
  if (at < 0 || html.indexOf(marker, at + 1) >= 0)
    throw new Error(`index.html: one ${marker} expected`)
  return html.slice(0, at) + replacement + html.slice(at + marker.length)
}

const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8')
fs.rmSync(path.join(dir, PRERENDERED_DIR), { recursive: true, force: true })
// Without Chromium a developer's build (and so `npm start`) still works: every URL then gets index.html,
// which is all the prerender adds to. CI installs Chromium and must prerender, so there it fails.
if (!fs.existsSync(chromiumPath()) && !process.env.CI) {
  console.warn(
    `prerender-h5: no Chromium at ${chromiumPath()} (set CHROMIUM_PATH): Home and Login are not prerendered`,
  )
  process.exit(0)
}
const renderer = await buildLevelGoodsRenderer(dir)
console.log(
  `prerender-h5: 创建云机's catalogue renderer → ${path.relative(process.cwd(), renderer)}`,
)
const site = await serveStatic(dir)
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
try {
  // as a phone (the e2e tests' MOBILE context); the rem size follows the width, so others lay out too
  const context = await browser.newContext({
    baseURL: site.url,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
  })
  await context.route('**/vmcloud/api/**', (route) => {
    const { pathname } = new URL(route.request().url())
    apiCalls.push(`${route.request().method()} ${pathname}`)
    if (pathname.endsWith('/CommodityGroup/getGoodsList'))
      return route.fulfill({ json: { code: 200, msg: 'ok', data: SAMPLE_CATALOGUE } })
    return route.fulfill({ status: 503, body: '' })
  })
  for (const page of PAGES) {
    const result = await prerender(context, index, page)
    const needsData = result.apiCalls.filter((call) => !ALLOWED_API.test(call.split(' ')[1]))
    if (needsData.length > 0)
      throw new Error(
        `${page.url} asks the API for data (${needsData.join(', ')}): not prerendered`,
      )
    console.log(
      `prerender-h5: ${page.url} → ${path.relative(process.cwd(), result.file)} (${(result.bytes / 1024).toFixed(1)} KiB)`,
    )
  }
} catch (error) {
  console.error(`prerender-h5 failed: ${error.message}`)
  process.exitCode = 1
} finally {
  await browser.close()
  await site.close()
}
