/**
 * The 10,000-phone studio's batch renewal driven in H5: a studio of 20 phones (the
 * baseline) and one of 10,000, in the same run, each renewed the way its owner does it in Chromium
 * (390×844): 我的云机 in the multi view → 多选 → 全选 → 续费 → the renewal page with its quote →
 * 确认续费 (one order) → the pay page → 立即支付 with the default method (支付宝, the sandbox checkout
 * page → 确认支付) → back on the pay page: 支付成功, 续费中 n/N while the fulfilment job and the supplier
 * sync run, then 续费成功. Everything is real: the server (e2e/harness.ts startServer) on its own
 * PostgreSQL database, its /device/list, its order, its payment and its jobs. Only the phones and their
 * sandbox-supplier instances are written directly (e2e/fixtures/studio-phones.ts, as
 * bench/batch-renew.ts does). Prints the time of each step for both sizes and the ratio, and checks
 * the end through the database: one renewal order, every phone's expiry moved.
 *
 *   npm run build:h5 && node --import tsx bench/studio-renew-h5.mjs
 *
 * PG_URL (default postgres://postgres@127.0.0.1:55432/postgres) is the PostgreSQL server: the bench
 * makes the database studio_renew_h5 on it and drops it afterwards. SIZES=20,10000 by default (the
 * first is the baseline). SANDBOX_SUPPLIER_DELAY_MS=0 as in batch-renew.ts. Screenshots go to a tmp
 * folder, printed at the end.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import {
  apiLogin,
  launchBrowser,
  newMobileContext,
  seedSession,
  startServer,
} from '../e2e/harness.ts'
import { button } from '../e2e/journeys.ts'
import { writeStudioPhones } from '../e2e/fixtures/studio-phones.ts'
import { openPostgres } from '../server/src/db/client.ts'

/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): 20 vs 100 phones. */
const SHORT = process.env.BENCH_SHORT === '1'
const SIZES = (process.env.SIZES ?? (SHORT ? '20,100' : '20,10000')).split(',').map(Number)
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres'
const DB_NAME = 'studio_renew_h5'
const DB_URL = (() => {
  const url = new URL(PG_URL)
  url.pathname = `/${DB_NAME}`
  return url.toString()
})()
const LONG = 600_000
const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-renew-h5-'))

/** The first three and the last two of a long list. */
const shorten = (items) =>
  items.length <= 6 ? items : [...items.slice(0, 3), '…', ...items.slice(-2)]

async function admin(sql) {
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** In the page: long tasks, and every 续费中 n/N the pay page shows (a MutationObserver there only). */
function watchPage() {
  window.__longTasks = []
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration)
  }).observe({ type: 'longtask', buffered: true })
  window.__progress = []
  const seen = () => {
    if (!location.pathname.includes('/pages/pay/pay')) return
    const match = /续费中 (\d+)\/(\d+)/.exec(document.body?.innerText ?? '')
    if (match && window.__progress.at(-1)?.text !== match[0]) {
      window.__progress.push({ text: match[0], at: performance.now() })
    }
  }
  new MutationObserver(seen).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
  })
}

async function measure(browser, db, size, mobile) {
  const session = await apiLogin(mobile)
  const written = performance.now()
  const ids = await writeStudioPhones(db.db, Number(session.userId), size)
  const writeMs = performance.now() - written
  const context = await newMobileContext(browser)
  await seedSession(context, session, { homeViewType: 1 })
  await context.addInitScript(watchPage)
  const page = await context.newPage()
  const errors = []
  page.on('pageerror', (error) => errors.push(error.stack || error.message))
  const longest = () =>
    page.evaluate(() => {
      const worst = Math.max(0, ...window.__longTasks)
      window.__longTasks = []
      return worst
    })
  const steps = {}
  const longTasks = {}
  let mark = performance.now()
  const step = async (name) => {
    const now = performance.now()
    steps[name] = now - mark
    longTasks[name] = await longest().catch(() => NaN)
    mark = performance.now()
  }

  await page.goto('/pages/Home/index', { waitUntil: 'domcontentloaded' })
  await page.waitForSelector('[aria-label$="的画面"]', { timeout: LONG })
  await step('home')
  await page.getByText('多选', { exact: true }).click()
  await page.getByRole('checkbox', { name: '全选' }).click()
  await page.getByText(`已选${size}台`, { exact: true }).waitFor({ timeout: LONG })
  await step('selectAll')
  await button(page, '续费').click()
  await page.waitForURL(/pages\/Renew\/index/, { timeout: LONG })
  await page.getByText(`续费云手机（${size}台）`).waitFor({ timeout: LONG })
  await page.getByLabel('合计金额').filter({ hasText: '¥' }).waitFor({ timeout: LONG })
  const total = await page.getByLabel('合计金额').textContent()
  await step('quote')
  await page.screenshot({ path: path.join(shots, `${size}-1-renew.png`) })
  await button(page, '确认续费').click()
  await page.waitForURL(/pages\/pay\/pay\?orderNo=/, { timeout: LONG })
  const orderNo = new URL(page.url()).searchParams.get('orderNo')
  await button(page, '立即支付').waitFor({ timeout: LONG })
  await step('order')
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/, { timeout: LONG })
  await page.getByRole('button', { name: '确认支付' }).waitFor({ timeout: LONG })
  await step('checkout')
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/, { timeout: LONG })
  await page.getByText('支付成功', { exact: true }).first().waitFor({ timeout: LONG })
  await step('pay')
  const payShown = await page.evaluate(() => performance.now())
  let progressShot = false
  const done = page.getByText('续费成功，新的到期时间已生效')
  while (!(await done.isVisible())) {
    // the bar part filled: the first 续费中 n/N with n > 0
    if (!progressShot && (await page.getByText(/续费中 [1-9]\d*\/\d+/).isVisible())) {
      await page.screenshot({ path: path.join(shots, `${size}-2-progress.png`) })
      progressShot = true
    }
    await page.waitForTimeout(200)
    if (performance.now() - mark > LONG) throw new Error(`${size}: no 续费成功 in 10 minutes`)
  }
  await step('fulfil')
  await page.screenshot({ path: path.join(shots, `${size}-3-success.png`) })
  const progress = await page.evaluate(() => window.__progress)
  await context.close()

  // the end, from the database: one renewal order, every phone's expiry past the first 30 days
  const client = db.pool
  const orders = await client.query(
    "select count(*)::int as n from orders where user_id = $1 and kind = 'renew'",
    [session.userId],
  )
  const renewed = await client.query(
    "select count(*)::int as n from devices where user_id = $1 and expire_at > now() + interval '30 days'",
    [session.userId],
  )
  if (orders.rows[0].n !== 1) throw new Error(`${size}: ${orders.rows[0].n} renewal orders`)
  if (renewed.rows[0].n !== ids.length) {
    throw new Error(`${size}: ${renewed.rows[0].n} of ${ids.length} phones renewed`)
  }
  if (errors.length > 0) throw new Error(`${size}: page errors\n${errors.join('\n')}`)
  return {
    size,
    writeMs,
    total,
    orderNo,
    steps,
    longTasks,
    progress: progress.map((p) => `${p.text} +${((p.at - payShown) / 1000).toFixed(1)}s`),
  }
}

await admin(`create database ${DB_NAME}`)
let server = null
let browser = null
let db = null
try {
  server = await startServer({
    name: 'studio-renew-h5',
    env: { DATABASE_URL: DB_URL, RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '0' },
  })
  browser = await launchBrowser()
  db = openPostgres(DB_URL, 2)
  const results = []
  for (const [i, size] of SIZES.entries()) {
    results.push(await measure(browser, db, size, `139123901${i}1`))
  }
  const base = results[0]
  const last = results.at(-1)
  const rows = [
    ['我的云机 multi view: first card', 'home'],
    ['多选 → 全选 → 已选N台', 'selectAll'],
    ['续费 → renewal page with its quote', 'quote'],
    ['确认续费 → pay page (one order)', 'order'],
    ['立即支付 → the sandbox checkout page', 'checkout'],
    ['确认支付 → back on the pay page: 支付成功', 'pay'],
    ['支付成功 → 续费中 n/N → 续费成功', 'fulfil'],
  ]
  const sum = (r) => Object.values(r.steps).reduce((a, b) => a + b, 0)
  console.log(
    `\nStudio batch renewal in H5, Chromium 390×844, server on PostgreSQL ` +
      `(${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})\n`,
  )
  const head = results.map((r) => String(r.size).padStart(10)).join('')
  console.log(`${'phones'.padEnd(42)}${head}   ratio   longest task (ms)`)
  for (const [label, key] of rows) {
    console.log(
      `${label.padEnd(42)}${results.map((r) => (r.steps[key] / 1000).toFixed(1).padStart(10)).join('')}` +
        // a step the baseline does not wait for at all (20 phones are renewed before the pay page
        // is back) has no ratio
        (base.steps[key] < 50
          ? '  —'
          : `  ×${(last.steps[key] / base.steps[key]).toFixed(1)}`
        ).padEnd(10) +
        results.map((r) => r.longTasks[key].toFixed(0).padStart(7)).join(''),
    )
  }
  console.log(
    `${'whole journey (s)'.padEnd(42)}${results.map((r) => (sum(r) / 1000).toFixed(1).padStart(10)).join('')}` +
      `  ×${(sum(last) / sum(base)).toFixed(1)}`,
  )
  for (const r of results) {
    console.log(
      `\n${r.size} phones: quote ${r.total}, order ${r.orderNo}, phones written in ` +
        `${(r.writeMs / 1000).toFixed(1)} s; the pay page showed ${r.progress.length} progress ` +
        `texts (s after 支付成功): ${shorten(r.progress).join(', ') || 'none'}`,
    )
  }
  console.log(`\nscreenshots: ${shots}`)
} finally {
  await browser?.close()
  await db?.close()
  await server?.stop()
  await admin(`drop database if exists ${DB_NAME}`)
}
