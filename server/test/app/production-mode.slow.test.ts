/**
 * Production is production. The app built for production registers none of the sandbox adapters' own
 * routes — not even while it runs on those sandboxes, as these apps do — and has no /docs unless asked.
 * Every route of the production app is listed (printRoutes, which no schema option can hide from), and
 * every /sandbox route a development app has is called on the production app: each answers our 404.
 * Last, the real server (main.ts) is started with NODE_ENV=PRODUCTION to see the wiring end to end.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import Fastify from 'fastify'
import type { App } from '../../src/app'
import { refuseSandboxRoute } from '../../src/routes'
import { isSandboxPath } from '../../src/routes/sandbox-routes'
import { buildTestApp } from '../helpers/test-app'

const REPO_ROOT = path.resolve(__dirname, '../../..')
const NOT_FOUND = { code: 404, msg: 'Not Found', data: null }

/** "METHOD /full/path" of every route, read from printRoutes' tree (a child line holds its suffix). */
function routesOf(app: App): string[] {
  const routes: string[] = []
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match) continue
    stack.length = match[1].length / 4
    stack.push(match[2])
    for (const method of match[3]?.split(', ') ?? []) routes.push(`${method} ${stack.join('')}`)
  }
  return routes
}

/** A value each path parameter accepts (the cover route checks its id's shape). */
const concrete = (route: string) => route.replace(/:instanceId/, `sbx_${'0'.repeat(20)}`)

const inject = (app: App, route: string) => {
  const [method, url] = route.split(' ')
  return app.inject({ method: method as 'GET' | 'HEAD' | 'POST', url: concrete(url) })
}

test('a production app has no sandbox route and no /docs, though it runs on every sandbox', async (t) => {
  const development = await buildTestApp(t)
  const production = await buildTestApp(t, { config: { production: true } })

  const sandboxRoutes = routesOf(development.app).filter((route) =>
    isSandboxPath(route.split(' ')[1]),
  )
  // the listing is real: the routes the review used are in it
  for (const known of [
    'GET /vmcloud/api/sandbox/sms/last',
    'POST /vmcloud/api/sandbox/pay/act',
    'GET /vmcloud/api/sandbox/pay/checkout',
    'GET /vmcloud/api/sandbox/supplier/control',
    'GET /vmcloud/api/sandbox/supplier/cover/:instanceId',
    'GET /vmcloud/api/sandbox/supplier/control/floatingBall.js',
  ]) {
    assert.ok(sandboxRoutes.includes(known), `${known} in ${sandboxRoutes.join(', ')}`)
  }
  // ... and so is every sandbox route the OpenAPI document describes
  const documented = (development.app as unknown as { swagger(): { paths: object } }).swagger()
  for (const [url, operations] of Object.entries(documented.paths)) {
    if (!isSandboxPath(url)) continue
    for (const method of Object.keys(operations as object)) {
      const route = `${method.toUpperCase()} ${url.replace(/\{(\w+)\}/g, ':$1')}`
      assert.ok(sandboxRoutes.includes(route), `${route} listed`)
    }
  }

  const productionRoutes = routesOf(production.app)
  assert.ok(productionRoutes.includes('POST /vmcloud/api/sms/sendSmsCode'), 'the listing is real')
  assert.deepEqual(
    productionRoutes.filter((route) => {
      const url = route.split(' ')[1]
      return isSandboxPath(url) || /^\/(sandbox|docs)(\/|$)/i.test(url)
    }),
    [],
    'no sandbox page and no docs in production',
  )

  for (const route of [
    ...sandboxRoutes,
    'GET /docs',
    'GET /docs/json',
    'GET /docs/static/index.html',
  ]) {
    const reply = await inject(production.app, route)
    assert.equal(reply.statusCode, 404, route)
    if (route.startsWith('HEAD')) continue // no body to a HEAD
    assert.deepEqual(
      { ...(reply.json() as object), ts: undefined },
      { ...NOT_FOUND, ts: undefined },
      route,
    )
  }
  // the development app answers the same calls with its pages
  assert.equal((await inject(development.app, 'GET /docs/json')).statusCode, 200)
  const lastSms = await development.app.inject({
    url: '/vmcloud/api/sandbox/sms/last?mobilePhone=13300000001',
  })
  assert.equal(lastSms.json().code, 200)
})

test('production shows /docs only when asked to', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { production: true, apiDocs: true },
  })
  assert.equal((await app.inject({ url: '/docs/json' })).statusCode, 200)
  assert.equal((await app.inject({ url: '/vmcloud/api/sandbox/sms/last' })).statusCode, 404)
})

test('a /sandbox route added outside sandbox-routes.ts stops the app from starting', async () => {
  for (const url of [
    '/vmcloud/api/sandbox/peek',
    '/vmcloud/api/Sandbox/peek',
    '/vmcloud/api/sandbox',
  ]) {
    const app = Fastify()
    app.register(async (scope) => {
      scope.addHook('onRoute', refuseSandboxRoute)
      scope.get(url, async () => 'leak')
    })
    await assert.rejects(
      async () => await app.ready(),
      /sandbox routes belong in routes\/sandbox-routes\.ts/,
      url,
    )
  }
  // a product route that merely names the sandbox provider is not one of them
  assert.equal(isSandboxPath('/vmcloud/api/pay/notify/sandbox'), false)
})

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer()
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/**
 * main.ts on a free port and its own data directory, with `env` over a clean environment (none of
 * this shell's NODE_ENV or switches); stopped and cleaned up after the test.
 */
async function startServer(t: TestContext, env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-production-'))
  const h5Dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-no-h5-'))
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.homedir(),
      TMPDIR: os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      H5_DIST: h5Dist,
      SKIP_H5_BUILD: '1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
    fs.rmSync(h5Dist, { recursive: true, force: true })
  })
  return { child, exited, base: `http://127.0.0.1:${port}`, output: () => output }
}

test('main.ts: NODE_ENV in any case is production; every missing switch is named at once', async (t) => {
  const server = await startServer(t, {
    NODE_ENV: ' Production ',
    ALLOW_SANDBOX_IN_PRODUCTION: '1',
  })
  const code = await Promise.race([server.exited, sleep(60_000, 'still running')])
  assert.equal(code, 1, server.output())
  for (const named of [
    'ALLOW_SANDBOX_IN_PRODUCTION is retired',
    'ALLOW_SANDBOX_SMS=1',
    'ALLOW_SANDBOX_WECHAT=1',
    'ALLOW_SANDBOX_PAYMENT=1',
    'ALLOW_SANDBOX_SUPPLIER=1',
    'SANDBOX_PAY_SECRET',
    'DATABASE_URL is not set',
  ]) {
    assert.ok(server.output().includes(named), `${named} in:\n${server.output()}`)
  }
})

test('main.ts in production on every sandbox serves the API and no sandbox route', async (t) => {
  const server = await startServer(t, {
    NODE_ENV: 'PRODUCTION',
    ALLOW_SANDBOX_SMS: '1',
    ALLOW_SANDBOX_WECHAT: '1',
    ALLOW_SANDBOX_PAYMENT: '1',
    ALLOW_SANDBOX_SUPPLIER: '1',
    SANDBOX_PAY_SECRET: 'a-long-secret-of-our-own',
    BENEFIT_PEPPER: 'a-pepper-of-our-own',
    // PGlite in DATA_DIR, said out loud (config.ts: production otherwise wants DATABASE_URL)
    ALLOW_EMBEDDED_DATABASE: '1',
  })
  const { base } = server
  let healthy = false
  for (let i = 0; i < 480 && !healthy; i++) {
    assert.equal(server.child.exitCode, null, server.output())
    healthy = await fetch(`${base}/vmcloud/api/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (!healthy) await sleep(250)
  }
  assert.ok(healthy, server.output())

  const sent = await fetch(`${base}/vmcloud/api/sms/sendSmsCode`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mobilePhone: '13300000001', type: 'login' }),
  })
  assert.equal(((await sent.json()) as { code: number }).code, 200, 'the sandbox SMS runs')
  for (const [method, url] of [
    ['GET', '/vmcloud/api/sandbox/sms/last?mobilePhone=13300000001'],
    ['POST', '/vmcloud/api/sandbox/pay/act'],
    ['GET', '/vmcloud/api/sandbox/supplier/control'],
    ['GET', '/docs'],
  ]) {
    const reply = await fetch(`${base}${url}`, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? JSON.stringify({ tradeNo: 'x', action: 'pay' }) : undefined,
    })
    assert.equal(reply.status, 404, url)
    assert.deepEqual({ ...((await reply.json()) as object), ts: 0 }, { ...NOT_FOUND, ts: 0 }, url)
  }
})
