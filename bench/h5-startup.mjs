/**
 * H5 startup (to explain and follow the Lighthouse LCP gap): how much main-thread work our
 * pages do before they show, against the empty Taro app, in real Chromium with the CPU slowed down 4×
 * as Lighthouse's mobile preset simulates it (but no network throttling: everything is on 127.0.0.1).
 * Alternating runs, ours and the empty app's page of the same kind; prints the medians and ratios of
 * the observed first and largest contentful paint and of the main thread's busy time (tasks, and the
 * part of it that is script) until the network is idle.
 *
 *   npm run build:h5 && node --import tsx bench/h5-startup.mjs      # RUNS=7 by default
 *
 * Lighthouse's simulated LCP adds the network it models (slow 4G) to this CPU time, so a page whose
 * main thread works twice as long before it paints shows it there, whatever the bytes.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { startServer } from '../e2e/harness.ts'
import { buildEmptyH5, PAGES, serveBuild } from './lib/empty-h5.mjs'
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/lib/chromium.mjs'

/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): one run per page instead of the median of 7. */
const SHORT = process.env.BENCH_SHORT === '1'
const RUNS = Number(process.env.RUNS ?? (SHORT ? 1 : 7))
const CPU_SLOWDOWN = 4

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** One cold load of `url` in a fresh context: paints and main-thread time, in ms. */
async function load(browser, url) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
  await cdp.send('Performance.enable')
  await page.goto(url, { waitUntil: 'networkidle' })
  const paints = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN
        new PerformanceObserver((list) => {
          const entries = list.getEntries()
          resolve({ fcp, lcp: entries[entries.length - 1].startTime })
        }).observe({ type: 'largest-contentful-paint', buffered: true })
      }),
  )
  const { metrics } = await cdp.send('Performance.getMetrics')
  const metric = (name) => metrics.find((m) => m.name === name).value * 1000
  await context.close()
  return { ...paints, tasks: metric('TaskDuration'), script: metric('ScriptDuration') }
}

const KEYS = ['fcp', 'lcp', 'tasks', 'script']

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'h5-startup-'))
const ours = await startServer({ name: 'h5-startup' })
let empty
let browser
try {
  empty = await serveBuild(buildEmptyH5(work))
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  console.log(
    `\n${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, CPU ${CPU_SLOWDOWN}× slower, median of ${RUNS}, ms (ours / empty app = ratio)\n`,
  )
  console.log('| page | FCP | LCP | main-thread tasks | of which script |')
  console.log('| --- | ---: | ---: | ---: | ---: |')
  for (const [name, ourPath, emptyPath] of PAGES) {
    const runs = { ours: [], empty: [] }
    for (let run = 0; run < RUNS; run++) {
      runs.empty.push(await load(browser, empty.url + emptyPath))
      runs.ours.push(await load(browser, ours.url + ourPath))
    }
    const cells = KEYS.map((key) => {
      const mine = median(runs.ours.map((r) => r[key]))
      const base = median(runs.empty.map((r) => r[key]))
      return `${mine.toFixed(0)} / ${base.toFixed(0)} = ${(mine / base).toFixed(2)}×`
    })
    console.log(`| ${name} | ${cells.join(' | ')} |`)
  }
} finally {
  if (browser) await browser.close()
  if (empty) await empty.close()
  await ours.stop()
  fs.rmSync(work, { recursive: true, force: true })
}
