/**
 * End-to-end harness: the real server (child process, fresh embedded database, serving dist/h5) and
 * Debian Chromium (playwright-core) with a phone-sized context. One server and one browser per test
 * file; every file runs in its own process (`npm run test:e2e` = node:test over e2e/**\/*.e2e.ts).
 *
 * Needs `npm run build:h5` first, and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 *
 *   import { test } from 'node:test'
 *   import assert from 'node:assert/strict'
 *   import { setupE2E, apiLogin, seedSession, screenshot } from './harness'
 *
 *   const e2e = setupE2E()                        // before(): server + browser; after(): both stopped
 *
 *   test('a logged-in user sees their profile', async () => {
 *     const { context, page } = await e2e.newPage()   // fresh 390×844 zh-CN context, closed after the test
 *     await seedSession(context, await apiLogin('13800000001'))
 *     await e2e.open(page, '/pages/Home/user')         // goto + wait for the Taro page to render
 *     await page.getByText('我的').first().waitFor()
 *     await screenshot(page, 'mine-logged-in')         // e2e/artifacts/screenshots/mine-logged-in.png
 *   })
 *
 * Helpers talk to the current file's server: `api(path, init)` (JSON envelope), `smsCode(mobile)`
 * (sandbox SMS), `apiLogin(mobile)` (SMS login through the API), `seedSession(context, session)`
 * (puts token/userId into localStorage the way Taro H5 stores them). Set E2E_SERVER_LOG=1 to stream
 * the server's log; it is always written to e2e/artifacts/<file>.server.log.
 *
 * The server looks for due jobs every 5 s (JOB_POLL_MS). A file that reads only what a delivery,
 * provisioning or backup ends in sets JOB_POLL_MS: '500' in its env; a file that loads a page while a
 * change runs (follow-state, buy, apps, studio-renew) keeps the 5 s, whose gaps it needs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, afterEach, before } from 'node:test'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { STORAGE_KEYS } from '../src/runtime/storage-keys'
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/lib/chromium.mjs'

export const REPO_ROOT = path.resolve(__dirname, '..')
export const H5_DIST = path.resolve(REPO_ROOT, process.env.H5_DIST || 'dist/h5')
export const ARTIFACT_DIR = path.join(REPO_ROOT, 'e2e/artifacts')
/** every run's screenshots (ignored); `npm run screenshots:docs` copies the ones the docs show */
export const SCREENSHOT_DIR = path.join(ARTIFACT_DIR, 'screenshots')
export const API_PREFIX = '/vmcloud/api'

export const MOBILE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
}

/** A desktop browser window, for the operator console at /admin. */
export const DESKTOP = {
  viewport: { width: 1440, height: 900 },
  deviceScaleFactor: 1,
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
}

/** The session the client keeps: what the login response gives and the stores persist. */
export interface Session {
  token: string
  userId: number | string
}

/** The API's response envelope (SPEC 8). */
export interface Envelope<T = unknown> {
  code: number
  msg: string
  data: T
  ts: number
}

// ---------------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------------

export interface ServerHandle {
  /** http://127.0.0.1:<port> */
  url: string
  port: number
  pid: number
  dataDir: string
  /** Everything the server printed so far. */
  log(): string
  /** Stops it; its DATA_DIR goes too unless `keepDataDir` (for a restart on the same data). */
  stop(options?: { keepDataDir?: boolean }): Promise<void>
}

let currentServer: ServerHandle | null = null

/** The server started by this file's setupE2E()/startServer(). */
export function server(): ServerHandle {
  if (!currentServer)
    throw new Error('e2e: no server running — call setupE2E() or startServer() first')
  return currentServer
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.unref()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts `node --import tsx server/src/main.ts` on a free port with a fresh DATA_DIR, serving dist/h5,
 * and waits until GET /vmcloud/api/health answers. Extra env (e.g. CUSTOMER_SERVICE_URL) via `env`.
 * The fresh DATA_DIR is a copy of a migrated, seeded template (built once per schema in the OS temp
 * dir; a fresh PGlite init costs 5–30 s); E2E_FRESH_DB=1 skips the template.
 */
export async function startServer(
  options: { env?: Record<string, string>; name?: string } = {},
): Promise<ServerHandle> {
  if (!fs.existsSync(path.join(H5_DIST, 'index.html'))) {
    throw new Error(
      `e2e: ${path.relative(REPO_ROOT, H5_DIST)}/index.html is missing — run \`npm run build:h5\` ` +
        'before `npm run test:e2e`.',
    )
  }
  const name = options.name ?? testFileName()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-e2e-'))
  const template = process.env.E2E_FRESH_DB === '1' ? null : await dataTemplate(name)
  if (template) {
    fs.cpSync(template, dataDir, {
      recursive: true,
      filter: (src) => path.basename(src) !== '.ready',
    })
  }
  const handle = await launchServer({ dataDir, env: options.env, name })
  currentServer = handle
  return handle
}

async function launchServer(options: {
  dataDir: string
  env?: Record<string, string>
  name: string
  keepDataDir?: boolean
  port?: number
  /** What an earlier server on this data printed, kept in log(). */
  earlierLog?: string
}): Promise<ServerHandle> {
  const { dataDir, name } = options
  const port = options.port ?? (await freePort())
  fs.mkdirSync(ARTIFACT_DIR, { recursive: true })
  const logStream = fs.createWriteStream(path.join(ARTIFACT_DIR, `${name}.server.log`))
  let output = options.earlierLog ?? ''

  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'server/src/main.ts')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SKIP_H5_BUILD: '1',
        H5_DIST,
        DATABASE_URL: '',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const pid = child.pid
  if (pid === undefined) throw new Error('e2e: could not start the server process')
  const onData = (chunk: Buffer) => {
    output += chunk.toString()
    logStream.write(chunk)
    if (process.env.E2E_SERVER_LOG === '1') process.stderr.write(chunk)
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null
  const exitPromise = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal }
      resolve()
    })
  })
  // Last resort if the test process dies without running after(): never leave a server behind.
  const killOnExit = () => {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  process.on('exit', killOnExit)

  const stop = async (stopOptions: { keepDataDir?: boolean } = {}) => {
    if (!exited) {
      try {
        process.kill(pid, 'SIGTERM')
      } catch {
        // already gone
      }
      const timer = setTimeout(killOnExit, 10_000)
      await exitPromise
      clearTimeout(timer)
    }
    process.off('exit', killOnExit)
    logStream.end()
    if (!options.keepDataDir && !stopOptions.keepDataDir) {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
    if (currentServer === handle) currentServer = null
  }

  const url = `http://127.0.0.1:${port}`
  const handle: ServerHandle = { url, port, pid, dataDir, log: () => output, stop }

  const deadline = Date.now() + 120_000
  for (;;) {
    if (exited) {
      await stop()
      throw new Error(
        `e2e: server exited (${JSON.stringify(exited)}) before it was healthy:\n${tail(output)}`,
      )
    }
    try {
      const res = await fetch(`${url}${API_PREFIX}/health`, { signal: AbortSignal.timeout(2_000) })
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`e2e: server not healthy after 120 s:\n${tail(output)}`)
    }
    await sleep(250)
  }
  return handle
}

/** A migrated + seeded, cleanly closed data directory, keyed by the database code and PGlite version. */
async function dataTemplate(name: string): Promise<string> {
  const hash = crypto.createHash('sha256')
  const dbDir = path.join(REPO_ROOT, 'server/src/db')
  for (const file of listFiles(dbDir)) {
    hash.update(path.relative(dbDir, file)).update(fs.readFileSync(file))
  }
  hash.update(
    fs.readFileSync(path.join(REPO_ROOT, 'node_modules/@electric-sql/pglite/package.json')),
  )
  const dir = path.join(os.tmpdir(), `cloud-phone-e2e-template-${hash.digest('hex').slice(0, 16)}`)
  if (fs.existsSync(path.join(dir, '.ready'))) return dir

  const building = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-e2e-template-building-'))
  const srv = await launchServer({ dataDir: building, name: `${name}.template`, keepDataDir: true })
  await srv.stop() // SIGTERM: the server closes PGlite cleanly and releases its lock
  fs.rmSync(path.join(building, 'pglite.lock'), { recursive: true, force: true })
  fs.writeFileSync(path.join(building, '.ready'), new Date().toISOString())
  try {
    fs.renameSync(building, dir)
  } catch {
    fs.rmSync(building, { recursive: true, force: true }) // another run made it first
  }
  // Templates of older schemas are dead weight (~40 MB each).
  for (const entry of fs.readdirSync(os.tmpdir())) {
    const full = path.join(os.tmpdir(), entry)
    if (/^cloud-phone-e2e-template-[0-9a-f]{16}$/.test(entry) && full !== dir) {
      fs.rmSync(full, { recursive: true, force: true })
    }
  }
  return dir
}

function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) =>
      e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)],
    )
}

// ---------------------------------------------------------------------------------------------------
// API helpers (against the current server)
// ---------------------------------------------------------------------------------------------------

/** Calls /vmcloud/api<path> and returns the envelope; `json` is sent as the body. */
export async function api<T = unknown>(
  apiPath: string,
  init: {
    method?: string
    json?: unknown
    session?: Session
    headers?: Record<string, string>
  } = {},
): Promise<Envelope<T>> {
  const headers: Record<string, string> = {
    requestSource: 'e2e',
    clientType: 'h5',
    ...init.headers,
  }
  if (init.session) {
    headers.token = init.session.token
    headers.userId = String(init.session.userId)
  }
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${server().url}${API_PREFIX}${apiPath}`, {
    method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  })
  const text = await res.text()
  noteUrlSecrets(apiPath)
  try {
    const envelope = JSON.parse(text) as Envelope<T>
    noteSecrets(envelope)
    return envelope
  } catch {
    throw new Error(
      `e2e: ${apiPath} answered HTTP ${res.status} with non-JSON: ${text.slice(0, 200)}`,
    )
  }
}

function expectOk<T>(what: string, envelope: Envelope<T>): T {
  if (envelope.code !== 200)
    throw new Error(`e2e: ${what} failed: ${envelope.code} ${envelope.msg}`)
  return envelope.data
}

/** The last sandbox SMS code sent to `mobile` (GET /sandbox/sms/last; sandbox SMS adapter only). */
export async function smsCode(mobile: string): Promise<string> {
  const data = expectOk(
    `sandbox SMS for ${mobile}`,
    await api<{ code?: string } | null>(
      `/sandbox/sms/last?mobilePhone=${encodeURIComponent(mobile)}`,
    ),
  )
  if (!data?.code) throw new Error(`e2e: no sandbox SMS was sent to ${mobile}`)
  smsCodes.add(data.code)
  return data.code
}

/** Logs in (registering on first use) through the API: send a login code, then confirm it. */
export async function apiLogin(mobile: string): Promise<Session & { firstLogin: number }> {
  expectOk(
    'sendSmsCode',
    await api('/sms/sendSmsCode', { json: { mobilePhone: mobile, type: 'login' } }),
  )
  const code = await smsCode(mobile)
  const result = expectOk(
    'userLogin/confirm',
    await api<{ token: string; userId: number; firstLogin: number }>('/common/userLogin/confirm', {
      json: { mobilePhone: mobile, code },
    }),
  )
  return { token: result.token, userId: result.userId, firstLogin: result.firstLogin }
}

// ---------------------------------------------------------------------------------------------------
// Browser
// ---------------------------------------------------------------------------------------------------

export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath()
  if (!fs.existsSync(executablePath)) {
    throw new Error(
      `e2e: Chromium not found at ${executablePath} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
    )
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS })
}

/**
 * A phone-sized context (390×844 @2x, touch, zh-CN) whose relative URLs go to the current server.
 * `uaSuffix` ends its user agent (e.g. WeChat's in-app browser: MicroMessenger/…).
 */
export async function newMobileContext(
  browser: Browser,
  options: { uaSuffix?: string } = {},
): Promise<BrowserContext> {
  const major = browser.version().split('.')[0]
  const context = await browser.newContext({
    ...MOBILE,
    baseURL: server().url,
    userAgent:
      `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ` +
      `Chrome/${major}.0.0.0 Mobile Safari/537.36${options.uaSuffix ? ` ${options.uaSuffix}` : ''}`,
  })
  await watchContext(context)
  return context
}

/** A 1440×900 desktop context (zh-CN) whose relative URLs go to the current server, watched like a phone's. */
export async function newDesktopContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ ...DESKTOP, baseURL: server().url })
  await watchContext(context)
  return context
}

/**
 * Puts a session into the context's localStorage exactly as the client's storage layer writes it:
 * Taro H5 `setStorageSync(key, value)` stores `JSON.stringify({ data: value })` under `key`
 * (@tarojs/taro-h5 dist/api/storage), with the keys of src/runtime/storage-keys.ts:
 *   accessToken → {"data":"<token>"}, userId → {"data":<userId>}.
 * Written once from a same-origin page (not an init script), so a logout in the test sticks.
 * `extra` writes more keys the same way (e.g. { channel: 'h5' }).
 */
export async function seedSession(
  context: BrowserContext,
  session: Session,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const entries: Record<string, unknown> = {
    [STORAGE_KEYS.token]: session.token,
    [STORAGE_KEYS.userId]: session.userId,
    ...extra,
  }
  const page = await context.newPage()
  try {
    await page.goto(`${server().url}${API_PREFIX}/health`)
    await page.evaluate((items) => {
      for (const [key, value] of Object.entries(items)) {
        localStorage.setItem(key, JSON.stringify({ data: value }))
      }
    }, entries)
  } finally {
    await page.close()
  }
}

/** Reads a Taro-H5-stored value back (undefined when absent). */
export async function readStorage<T = unknown>(page: Page, key: string): Promise<T | undefined> {
  return page.evaluate((k) => {
    const raw = localStorage.getItem(k)
    if (raw === null) return undefined
    try {
      return (JSON.parse(raw) as { data: unknown }).data
    } catch {
      return raw
    }
  }, key) as Promise<T | undefined>
}

/** Navigates to a route (e.g. '/pages/Home/user') and waits until Taro has rendered a page into it. */
export async function openPage(page: Page, route: string): Promise<void> {
  await page.goto(route, { waitUntil: 'domcontentloaded' })
  await page.locator('.taro_page').first().waitFor({ state: 'attached', timeout: 20_000 })
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {})
}

/** Saves a screenshot of the viewport to e2e/artifacts/screenshots/<name>.png (not committed). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const file = path.join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' })
  return file
}

/** Collects uncaught page errors (not console noise); assert it stays empty. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.stack || error.message))
  return errors
}

// ---------------------------------------------------------------------------------------------------
// node:test wiring
// ---------------------------------------------------------------------------------------------------

export interface E2E {
  readonly server: ServerHandle
  readonly browser: Browser
  /** A fresh mobile context + page, closed automatically after the current test. */
  newPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }>
  /** The same in a 1440×900 desktop context (the operator console). */
  newDesktopPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }>
  /** openPage() for a route of the H5 app. */
  open(page: Page, route: string): Promise<void>
  /**
   * An operator's command on this server's data (`node --import tsx <args>`, e.g. a script under
   * scripts/): the server stops, the command runs on its DATA_DIR (PGlite has one owner), and the
   * server starts again on the same data and port. Answers what the command printed. `env` adds to
   * the command's environment (e.g. admin:create's ADMIN_PASSWORD).
   */
  operator(args: string[], env?: Record<string, string>): Promise<string>
}

/**
 * Call once at the top of a *.e2e.ts file: starts the server and Chromium before the first test and
 * stops both (server killed by pid) after the last, also when tests fail. On a failing test, the page
 * is saved to e2e/artifacts/<file>-<n>.png for diagnosis.
 */
export function setupE2E(
  options: {
    /**
     * The server's extra environment, or a function making it (a fake provider to start first) that runs
     * inside this hook: node:test does not wait for one root before() to finish before starting the next.
     */
    env?: Record<string, string> | (() => Promise<Record<string, string>>)
  } = {},
): E2E {
  let srv: ServerHandle | null = null
  let browser: Browser | null = null
  let open: Array<{ context: BrowserContext; page: Page }> = []
  let failureShots = 0
  /** The server's extra environment once made (a restart in operator() starts it with the same). */
  let serverEnv: Record<string, string> | undefined

  before(async () => {
    serverEnv = typeof options.env === 'function' ? await options.env() : options.env
    srv = await startServer({ env: serverEnv })
    browser = await launchBrowser()
  })

  afterEach(async (t) => {
    const ctx = t as unknown as { passed?: boolean }
    for (const { context, page } of open) {
      if (ctx.passed === false && !page.isClosed()) {
        fs.mkdirSync(ARTIFACT_DIR, { recursive: true })
        const file = path.join(ARTIFACT_DIR, `${testFileName()}-${++failureShots}.png`)
        await page.screenshot({ path: file }).catch(() => {})
        console.error(`e2e: failure screenshot ${path.relative(REPO_ROOT, file)}`)
      }
      await context.close().catch(() => {})
    }
    open = []
    assertNoSiteFaults()
  })

  after(async () => {
    await browser?.close().catch(() => {})
    await srv?.stop()
    assertNoSiteFaults()
    if (srv) assertNoLeakedSecrets(srv.log())
  })

  return {
    get server() {
      if (!srv) throw new Error('e2e: server not started yet (use it inside a test)')
      return srv
    },
    get browser() {
      if (!browser) throw new Error('e2e: browser not started yet (use it inside a test)')
      return browser
    },
    async newPage() {
      if (!browser) throw new Error('e2e: browser not started yet (use it inside a test)')
      const context = await newMobileContext(browser)
      const page = await context.newPage()
      const errors = collectPageErrors(page)
      open.push({ context, page })
      return { context, page, errors }
    },
    async newDesktopPage() {
      if (!browser) throw new Error('e2e: browser not started yet (use it inside a test)')
      const context = await newDesktopContext(browser)
      const page = await context.newPage()
      const errors = collectPageErrors(page)
      open.push({ context, page })
      return { context, page, errors }
    },
    open: openPage,
    async operator(args, env = {}) {
      if (!srv) throw new Error('e2e: server not started yet (use it inside a test)')
      const { dataDir, port } = srv
      const earlierLog = srv.log()
      await srv.stop({ keepDataDir: true })
      const ran = spawnSync(process.execPath, ['--import', 'tsx', ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      })
      srv = await launchServer({
        dataDir,
        port,
        env: serverEnv,
        name: `${testFileName()}.restarted`,
        earlierLog,
      })
      currentServer = srv
      if (ran.status !== 0) throw new Error(`e2e: ${args.join(' ')} failed:\n${ran.stderr}`)
      return ran.stdout
    },
  }
}

// ---------------------------------------------------------------------------------------------------

function testFileName(): string {
  const entry = process.argv.find((a) => a.endsWith('.e2e.ts')) ?? process.argv[1] ?? 'e2e'
  return path.basename(entry).replace(/\.e2e\.ts$|\.[cm]?[jt]s$/, '')
}

function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n')
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

// ---------------------------------------------------------------------------------------------------
// What every run checks: no page breaks its Content-Security-Policy, no secret the server
// issued reaches its log
// ---------------------------------------------------------------------------------------------------

/** Names under which a secret travels: in an answer's data or a URL's query. */
const SECRET_NAMES =
  /^(token|authToken|pollKey|session|tradeNo|link|linkToken|ticket|sig|signature|csrfToken|totpSecret|secret)$/i
/** The user API and the operator console's (its CSRF tokens and new operators' TOTP secrets). */
const API_URL = /\/vmcloud\/(admin\/)?api\//
const issuedSecrets = new Set<string>()
const smsCodes = new Set<string>()
const cspViolations: string[] = []
/** Files of the site (not API calls) the browser asked for and got 404: a favicon, an icon, a chunk. */
const missingFiles: string[] = []

/** Secrets in a URL's query (a pay link's link, the control page's token and session…). */
export function noteUrlSecrets(url: string): void {
  const q = url.indexOf('?')
  if (q < 0) return
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    if (SECRET_NAMES.test(name) && value.length >= 8) issuedSecrets.add(value)
  }
}

/** Secrets in an answer: values under a secret's name, and the secrets of the URLs it holds. */
export function noteSecrets(value: unknown, name = ''): void {
  if (typeof value === 'string') {
    if (SECRET_NAMES.test(name) && value.length >= 8) issuedSecrets.add(value)
    noteUrlSecrets(value)
  } else if (Array.isArray(value)) {
    for (const item of value) noteSecrets(item, name)
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) noteSecrets(item, key)
  }
}

/**
 * The secrets the server's log holds. A sandbox SMS code may stand in the sandbox provider's own
 * `[sms-sandbox]` line (that line is the sandbox's delivery, documented; production refuses the
 * sandbox SMS provider), nowhere else.
 */
export function leakedSecrets(log: string): string[] {
  const leaks = [...issuedSecrets].filter((secret) => log.includes(secret))
  const otherLines = log.split('\n').filter((line) => !line.includes('[sms-sandbox]'))
  for (const code of smsCodes) {
    const alone = new RegExp(`(?<![\\d.])${code}(?![\\d.])`)
    if (otherLines.some((line) => alone.test(line))) leaks.push(`SMS code ${code}`)
  }
  return leaks
}

function assertNoLeakedSecrets(log: string) {
  const leaks = leakedSecrets(log)
  console.log(
    `e2e: server log checked for ${issuedSecrets.size} secrets, ${smsCodes.size} SMS codes`,
  )
  if (leaks.length > 0) {
    throw new Error(
      `e2e: the server log holds ${leaks.length} of the ${issuedSecrets.size} secrets issued: ` +
        leaks.map((s) => `${s.slice(0, 6)}…`).join(', '),
    )
  }
}

function assertNoSiteFaults() {
  const missing = missingFiles.splice(0)
  if (missing.length > 0) throw new Error(`e2e: the site lacks ${[...new Set(missing)].join(', ')}`)
  if (cspViolations.length === 0) return
  const found = cspViolations.splice(0)
  throw new Error(`e2e: ${found.length} Content-Security-Policy violation(s):\n${found.join('\n')}`)
}

/**
 * Every page of the context: a CSP violation (the securitypolicyviolation event in any frame, or
 * Chromium's "Refused to …" message) or a file of the site answered 404 fails the test; the secrets in the URLs it asks for and in the
 * API's answers are noted for the log check.
 */
async function watchContext(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} ` +
          `in ${event.documentURI} (${event.sourceFile}:${event.lineNumber})`,
      )
    })
  })
  context.on('console', (message) => {
    const text = message.text()
    if (/^CSP violation:|Refused to /.test(text)) cspViolations.push(text)
  })
  context.on('request', (request) => noteUrlSecrets(request.url()))
  context.on('response', (response) => {
    const url = new URL(response.url())
    const ownSite = url.hostname === '127.0.0.1' && !url.pathname.startsWith(API_PREFIX)
    if (ownSite && response.status() === 404) missingFiles.push(url.pathname)
    const type = response.headers()['content-type'] ?? ''
    if (!API_URL.test(response.url()) || !type.includes('json')) return
    response.json().then(
      (body) => noteSecrets(body),
      () => {},
    )
  })
}

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[]; html: string; any: { data?: unknown }[] }[]
}

/** axe-core's critical and serious findings on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await runScriptFile(page, createRequire(__filename).resolve('axe-core/axe.min.js'))
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: unknown, o: unknown) => Promise<unknown> } }
    ).axe
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: AxeViolation[]
    }
    return result.violations
  })
  return violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
}

/**
 * What axe finds on a console page now, one line each (empty: nothing critical or serious). antd's
 * opening and fading animations end first, so axe reads the final colours; an endless one (a spinning
 * icon) never ends and is not waited for.
 */
export async function consoleAxeReport(page: Page, where: string): Promise<string[]> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity,
      ),
  )
  return (await seriousAxeViolations(page)).map(
    (v) =>
      `${where}: [${v.impact}] ${v.id} — ${v.help}\n      ` +
      v.nodes
        .slice(0, 3)
        .map(
          (n) =>
            `${n.target.join(' ')} ${n.html.slice(0, 120)} ${JSON.stringify(n.any[0]?.data ?? '')}`,
        )
        .join('\n      '),
  )
}

/**
 * Runs a test tool's script file (axe) in the page. Not a <script> tag: the page's CSP rightly
 * refuses an inline script it does not know, and the tool is not part of the page.
 */
export async function runScriptFile(page: Page, file: string): Promise<void> {
  await page.evaluate(fs.readFileSync(file, 'utf8'))
}
