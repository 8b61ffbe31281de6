/**
 * Client side of the fleet scale check: Home/index multi view in Chromium (390×844) for a
 * studio with 20 and with 10,000 phones. Measures the time from the first /device/list answer to the
 * first card on screen, the DOM size after the first render and after scrolling to the end, long
 * tasks while scrolling, and the most cover requests in flight at once; 全选; and in the dense mode
 * (紧凑) the first render, the phones wholly on screen, and 按状态 → 7天内到期 (the rest of the fleet
 * loaded, then the expiring phones ticked).
 *
 * The real server runs (login, config, user info); /device/list, /group/list and /device/cover are
 * answered in the browser from a synthetic fleet of N phones (with 100 ms of latency per cover), so
 * the figures are about rendering, not the database — bench/device-list-server.ts covers the server.
 *
 *   npm run build:h5 && node --import tsx bench/fleet-render.mjs
 */
import {
  apiLogin,
  launchBrowser,
  newMobileContext,
  openPage,
  seedSession,
  startServer,
} from '../e2e/harness.ts'

/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): 20 vs 100 phones, the first render once. */
const SHORT = process.env.BENCH_SHORT === '1'
const SIZES = (process.env.SIZES ?? (SHORT ? '20,100' : '20,10000')).split(',').map(Number)
/**
 * The first render is a ~100 ms figure on a shared machine: it is measured RENDER_RUNS times per size,
 * the sizes taking turns, and the median is printed (the scroll through the whole fleet runs once).
 */
const RENDER_RUNS = Number(process.env.RENDER_RUNS ?? (SHORT ? 1 : 7))
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
const STARTED = performance.now()
const COVER_LATENCY_MS = 100
const SCROLL_STEP_PX = 700
const SCROLL_PAUSE_MS = 40

function fleet(size) {
  const now = Date.now()
  return Array.from({ length: size }, (_, i) => ({
    deviceId: i + 1,
    name: `云手机-${String(i + 1).padStart(4, '0')}`,
    level: (i % 5) + 1,
    levelName: '畅享版',
    goodId: 1,
    goodsName: '畅享版 4核4G',
    configName: '4核 4G 64G',
    zoneId: 1,
    zoneName: '华东-上海',
    status: i % 10 === 9 ? 0 : 1,
    statusName: i % 10 === 9 ? '创建中' : '运行中',
    androidVersion: 'B',
    imageType: 1,
    expireAt: now + ((i % 30) + 1) * 86_400_000,
    groupId: null,
    groupName: null,
    coverUrl: null,
    coverUpdatedAt: null,
    permissions: ['upOrDownConfig'],
    videoEdition: false,
    model: null,
    modelName: null,
    imageVersion: '10.0.2',
    busy: false,
    busyOp: null,
    busyText: null,
    failReason: null,
    createdAt: now,
  }))
}

const envelope = (data) => ({ code: 200, msg: 'success', data, ts: Date.now() })

function coverSvg(id) {
  const hue = (id * 47) % 360
  return `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="320"><rect width="180" height="320" fill="hsl(${hue},60%,45%)"/><text x="90" y="160" font-size="20" text-anchor="middle" fill="#fff">${id}</text></svg>`
}

/** 按状态's 7天内到期 (src/domain/fleet-range.ts): live phones with at most seven days left. */
const expiringWithinAWeek = (devices, now) =>
  devices.filter(
    (d) =>
      (d.status === 1 || d.status === 4) && d.expireAt > now && d.expireAt - now <= 7 * 86_400_000,
  ).length

/** A dense tile, or a card by its screenshot. */
const TILE = '[role="button"][aria-label^="云手机-"]'
const CARD = '[aria-label$="的画面"]'

async function measure(
  browser,
  session,
  size,
  { scroll: scrolling = true, selectAll = false, dense = false, byStatus = false } = {},
) {
  // progress on stderr, so that a run killed at its time limit says where it was
  const mode = byStatus
    ? '按状态'
    : selectAll
      ? '全选'
      : `${scrolling ? 'scroll' : 'first render'}${dense ? ', dense' : ''}`
  console.error(
    `-- ${size} phones, ${mode}: ${((performance.now() - STARTED) / 1000).toFixed(1)} s`,
  )
  const devices = fleet(size)
  const first = dense || byStatus ? TILE : CARD
  const context = await newMobileContext(browser)
  await seedSession(context, session, {
    homeViewType: 1,
    ...(dense || byStatus ? { homeFleetDense: 1 } : {}),
  })
  let coversInFlight = 0
  let maxCoversInFlight = 0
  let coverRequests = 0
  await context.route('**/vmcloud/api/device/list**', async (route) => {
    const url = new URL(route.request().url())
    const page = Number(url.searchParams.get('page') || 1)
    const rows = Number(url.searchParams.get('rows') || 10)
    const records = devices.slice((page - 1) * rows, page * rows)
    const totalPage = Math.ceil(devices.length / rows)
    await route.fulfill({ json: envelope({ records, page, totalPage, total: devices.length }) })
  })
  await context.route('**/vmcloud/api/group/list**', (route) =>
    route.fulfill({ json: envelope({ groups: [], ungroupedCount: size, totalCount: size }) }),
  )
  await context.route('**/vmcloud/api/device/cover**', async (route) => {
    const id = Number(new URL(route.request().url()).searchParams.get('deviceId'))
    coverRequests += 1
    coversInFlight += 1
    maxCoversInFlight = Math.max(maxCoversInFlight, coversInFlight)
    await new Promise((resolve) => setTimeout(resolve, COVER_LATENCY_MS))
    coversInFlight -= 1
    await route.fulfill({
      json: envelope({ url: `/bench-cover/${id}.svg?t=${Date.now()}`, updatedAt: Date.now() }),
    })
  })
  await context.route('**/bench-cover/**', (route) => {
    const id = Number(new URL(route.request().url()).pathname.match(/(\d+)\.svg$/)[1])
    return route.fulfill({ contentType: 'image/svg+xml', body: coverSvg(id) })
  })
  await context.addInitScript((selector) => {
    window.__longTasks = []
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration)
    }).observe({ type: 'longtask', buffered: true })
    // when the first card is in the DOM (a MutationObserver, not a poll from outside)
    new MutationObserver((_, observer) => {
      if (document.querySelector(selector)) {
        window.__firstCardAt = performance.now()
        observer.disconnect()
      }
    }).observe(document, { childList: true, subtree: true })
  }, first)

  const page = await context.newPage()
  await openPage(page, '/pages/Home/index')
  await page.waitForSelector(first, { timeout: 30_000 }).catch(async (error) => {
    await page.screenshot({ path: `/tmp/fleet-render-first-${size}.png` })
    throw new Error(
      `${mode} of ${size}: no ${first} (/tmp/fleet-render-first-${size}.png) (${error.message.split('\n')[0]})`,
    )
  })
  const shown = await page.evaluate((selector) => {
    const list = performance
      .getEntriesByType('resource')
      // the first answer: the fleet reads its list again while phones are 创建中
      .find((e) => e.name.includes('/device/list'))
    // the tiles wholly inside the list's visible part (above the tab bar)
    const all = [...document.querySelectorAll(selector)]
    const scroller = all[0]?.closest('taro-scroll-view-core')?.getBoundingClientRect()
    const onScreen = scroller
      ? all.filter((el) => {
          const box = el.getBoundingClientRect()
          return box.top >= scroller.top - 1 && box.bottom <= scroller.bottom + 1
        }).length
      : 0
    return {
      firstCardAt: window.__firstCardAt,
      listAnsweredAt: list ? list.responseEnd : NaN,
      nodes: document.getElementsByTagName('*').length,
      cards: all.length,
      onScreen,
    }
  }, first)
  const renderMs = shown.firstCardAt - shown.listAnsweredAt
  if (byStatus) {
    // 多选 → 按状态 → 7天内到期: the rest of the fleet loads (pages of 100), the expiring phones ticked
    const expected = expiringWithinAWeek(devices, Date.now())
    await page.getByText('多选', { exact: true }).click()
    await page.getByRole('button', { name: '按状态' }).click()
    const choice = page
      .getByRole('dialog', { name: '按状态全选' })
      .getByRole('button', { name: '7天内到期' })
    // once the sheet has slid in: the time is the app's, not the sheet's animation
    await choice.click({ trial: true })
    await page.evaluate(() => (window.__longTasks = []))
    const started = await page.evaluate(() => performance.now())
    await choice.click()
    await page
      .getByText(`已选${expected}台`, { exact: true })
      .waitFor({ timeout: SHORT ? 30_000 : 300_000 })
      .catch(async (error) => {
        const said = await page.getByText(/^已选\d+台$/).allTextContents()
        await page.screenshot({ path: `/tmp/fleet-render-by-status-${size}.png` })
        throw new Error(
          `按状态 of ${size}: the page shows ${said.join(', ') || 'no 已选N台'}, not 已选${expected}台 (${error.message.split('\n')[0]})`,
        )
      })
    const done = await page.evaluate(() => ({
      at: performance.now(),
      longestMs: Math.max(0, ...window.__longTasks),
    }))
    await context.close()
    return {
      size,
      byStatusSelected: expected,
      byStatusMs: done.at - started,
      byStatusLongestMs: done.longestMs,
    }
  }
  if (selectAll) {
    // 多选 → 全选: the rest of the fleet loads (pages of 100) and every phone is ticked
    await page.getByText('多选', { exact: true }).click()
    await page.evaluate(() => (window.__longTasks = []))
    const started = await page.evaluate(() => performance.now())
    await page.getByRole('checkbox', { name: '全选' }).click()
    await page
      .getByText(`已选${size}台`, { exact: true })
      .waitFor({ timeout: SHORT ? 30_000 : 300_000 })
      .catch(async (error) => {
        const shown = await page.getByText(/^已选\d+台$/).allTextContents()
        await page.screenshot({ path: `/tmp/fleet-render-select-${size}.png` })
        throw new Error(
          `全选 of ${size}: the page shows ${shown.join(', ') || 'no 已选N台'} (${error.message.split('\n')[0]})`,
        )
      })
    const done = await page.evaluate(() => ({
      at: performance.now(),
      longestMs: Math.max(0, ...window.__longTasks),
      longTasks: window.__longTasks.length,
      nodes: document.getElementsByTagName('*').length,
    }))
    await context.close()
    return {
      size,
      selectAllMs: done.at - started,
      selectAllLongestMs: done.longestMs,
      selectAllLongTasks: done.longTasks,
      selectAllNodes: done.nodes,
    }
  }
  if (!scrolling) {
    await context.close()
    return { size, renderMs, nodesFirst: shown.nodes, onScreen: shown.onScreen }
  }

  await page.evaluate(() => (window.__longTasks = []))
  const scroll = await page.evaluate(
    async ({ step, pause }) => {
      const scroller = [...document.querySelectorAll('taro-scroll-view-core')].find(
        (el) => el.scrollHeight > el.clientHeight,
      )
      if (!scroller) return { steps: 0, maxNodes: 0, end: 0 }
      let maxNodes = 0
      let steps = 0
      let still = 0
      const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
      while (still < 25 && steps < 20_000) {
        const before = scroller.scrollTop
        scroller.scrollTop = before + step
        await sleep(pause)
        maxNodes = Math.max(maxNodes, document.getElementsByTagName('*').length)
        steps += 1
        // at the bottom: wait a little for a next page before giving up
        still = scroller.scrollTop === before ? still + 1 : 0
      }
      return { steps, maxNodes, end: scroller.scrollTop }
    },
    { step: SCROLL_STEP_PX, pause: SCROLL_PAUSE_MS },
  )
  const after = await page.evaluate(() => ({
    nodes: document.getElementsByTagName('*').length,
    longTasks: window.__longTasks.length,
    longTaskMs: window.__longTasks.reduce((a, b) => a + b, 0),
    longestMs: Math.max(0, ...window.__longTasks),
    lastCard: document.querySelectorAll('[aria-label$="的画面"]').length,
    lastName: [...document.querySelectorAll('[role="button"][aria-label^="云手机-"]')]
      .at(-1)
      ?.getAttribute('aria-label'),
  }))
  await context.close()
  return {
    size,
    renderMs,
    nodesFirst: shown.nodes,
    cardsFirst: shown.cards,
    nodesMaxScrolling: scroll.maxNodes,
    nodesAtEnd: after.nodes,
    reachedLast: after.lastName,
    scrollSteps: scroll.steps,
    longTasks: after.longTasks,
    longTaskMs: after.longTaskMs,
    longestMs: after.longestMs,
    coverRequests,
    maxCoversInFlight,
  }
}

// 30-odd page loads a minute, each reading the user and the config: the rate limit would answer them
const server = await startServer({ name: 'fleet-render', env: { RATE_LIMIT_PER_MINUTE: '0' } })
const browser = await launchBrowser()
try {
  const session = await apiLogin('13912370001')
  const results = []
  for (const size of SIZES) results.push(await measure(browser, session, size))
  const renders = new Map(SIZES.map((size) => [size, []]))
  const denseRenders = new Map(SIZES.map((size) => [size, []]))
  const denseFirst = new Map()
  for (let run = 0; run < RENDER_RUNS; run++) {
    for (const size of SIZES) {
      renders.get(size).push((await measure(browser, session, size, { scroll: false })).renderMs)
      const dense = await measure(browser, session, size, { scroll: false, dense: true })
      denseRenders.get(size).push(dense.renderMs)
      if (!denseFirst.has(size)) denseFirst.set(size, dense)
    }
  }
  for (const result of results) {
    Object.assign(result, await measure(browser, session, result.size, { selectAll: true }))
    Object.assign(result, await measure(browser, session, result.size, { byStatus: true }))
    const all = renders.get(result.size)
    result.renderMedianMs = median(all)
    result.renderRange = `${Math.min(...all).toFixed(0)}–${Math.max(...all).toFixed(0)}`
    const dense = denseRenders.get(result.size)
    result.denseRenderMedianMs = median(dense)
    result.denseNodesFirst = denseFirst.get(result.size).nodesFirst
    result.denseOnScreen = denseFirst.get(result.size).onScreen
  }
  const [small, large] = results
  const fmt = (n) =>
    typeof n === 'number' ? (Number.isInteger(n) ? String(n) : n.toFixed(1)) : String(n)
  console.log('\nHome/index multi view, Chromium 390×844 (H5 production build)\n')
  const rows = [
    ['phones', 'size'],
    ['list answer → first card (ms), scroll run', 'renderMs'],
    [`list answer → first card (ms), median of ${RENDER_RUNS}`, 'renderMedianMs'],
    ['  its range', 'renderRange'],
    ['DOM elements after first render', 'nodesFirst'],
    ['cards after first render', 'cardsFirst'],
    ['DOM elements, most while scrolling', 'nodesMaxScrolling'],
    ['DOM elements at the end', 'nodesAtEnd'],
    ['last phone reached', 'reachedLast'],
    ['long tasks while scrolling', 'longTasks'],
    ['long-task time while scrolling (ms)', 'longTaskMs'],
    ['longest task (ms)', 'longestMs'],
    ['全选: click → 已选N台 (ms)', 'selectAllMs'],
    ['全选: long tasks', 'selectAllLongTasks'],
    ['全选: longest task (ms)', 'selectAllLongestMs'],
    ['全选: DOM elements after', 'selectAllNodes'],
    [`紧凑: list answer → first tile (ms), median of ${RENDER_RUNS}`, 'denseRenderMedianMs'],
    ['紧凑: DOM elements after first render', 'denseNodesFirst'],
    ['紧凑: phones wholly on screen', 'denseOnScreen'],
    ['按状态 7天内到期: phones ticked', 'byStatusSelected'],
    ['按状态: 7天内到期 tapped → 已选N台 (ms)', 'byStatusMs'],
    ['按状态: longest task (ms)', 'byStatusLongestMs'],
    ['cover requests', 'coverRequests'],
    ['most cover requests in flight', 'maxCoversInFlight'],
  ]
  for (const [label, key] of rows) {
    const ratio =
      typeof small[key] === 'number' && small[key] > 0 && key !== 'size'
        ? `  ×${(large[key] / small[key]).toFixed(2)}`
        : ''
    console.log(
      `${label.padEnd(44)} ${fmt(small[key]).padStart(10)} ${fmt(large[key]).padStart(12)}${ratio}`,
    )
  }
} finally {
  await browser.close()
  await server.stop()
}
