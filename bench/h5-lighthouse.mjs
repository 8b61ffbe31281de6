/**
 * H5 load: Lighthouse mobile (default simulated throttling) in Debian Chromium, median of 3
 * runs, on Home, Login and Create of our build, against an empty Taro app built in the same run with
 * the same config and served the same way (our H5 static plugin: precompressed brotli/gzip, long
 * cache headers for hashed files). Our pages are served by the real server (API included), as a
 * visitor who is not signed in sees them.
 *
 *   npm run build:h5 && node --import tsx bench/h5-lighthouse.mjs
 *
 * Targets: performance ≥ 90 and LCP no more than 10% above the empty app's. ~6 minutes here.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import lighthouse from 'lighthouse'
import * as chromeLauncher from 'chrome-launcher'
import { startServer } from '../e2e/harness.ts'
import { buildEmptyH5, PAGES, serveBuild } from './lib/empty-h5.mjs'
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/lib/chromium.mjs'

/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): one Lighthouse run per page instead of the median of 3. */
const SHORT = process.env.BENCH_SHORT === '1'
const RUNS = SHORT ? 1 : 3

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function audit(chrome, url) {
  const scores = []
  const lcps = []
  for (let run = 0; run < RUNS; run++) {
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      logLevel: 'error',
    })
    scores.push(Math.round(result.lhr.categories.performance.score * 100))
    lcps.push(result.lhr.audits['largest-contentful-paint'].numericValue)
  }
  return { score: median(scores), lcp: median(lcps), scores, lcps }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'h5-lighthouse-'))
const ours = await startServer({ name: 'h5-lighthouse' })
let empty
let chrome
try {
  empty = await serveBuild(buildEmptyH5(work))
  chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: CHROMIUM_ARGS.map((flag) => (flag === '--headless' ? '--headless=new' : flag)),
  })
  const rows = []
  for (const [name, ourPath, emptyPath] of PAGES) {
    const base = await audit(chrome, empty.url + emptyPath)
    const page = await audit(chrome, ours.url + ourPath)
    rows.push([name, page, base])
    console.log(
      `${name}: ours ${page.scores.join('/')} LCP ${page.lcps.map((v) => Math.round(v)).join('/')} ms;` +
        ` empty ${base.scores.join('/')} LCP ${base.lcps.map((v) => Math.round(v)).join('/')} ms`,
    )
  }
  console.log(
    `\n${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, median of ${RUNS}\n`,
  )
  console.log('| page | performance | LCP | empty app: performance | LCP | LCP ratio |')
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
  for (const [name, page, base] of rows) {
    console.log(
      `| ${name} | ${page.score} | ${(page.lcp / 1000).toFixed(2)} s | ${base.score} | ` +
        `${(base.lcp / 1000).toFixed(2)} s | ${(page.lcp / base.lcp).toFixed(2)}× |`,
    )
  }
} finally {
  if (chrome) chrome.kill()
  if (empty) await empty.close()
  await ours.stop()
  fs.rmSync(work, { recursive: true, force: true })
}
