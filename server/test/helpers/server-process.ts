/**
 * The real server (server/src/main.ts) as a child process on an embedded database in a data directory,
 * for the tests that kill it, restart it or start two on one directory (app/crash-restart.slow.test.ts,
 * db/data-dir-lock.slow.test.ts). Everything goes over HTTP, as a client would.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { TestContext } from 'node:test'
import type { Session } from './test-app'

const REPO_ROOT = path.resolve(__dirname, '../../..')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface ServerProcess {
  child: ChildProcess
  /** the API's base, `http://127.0.0.1:<port>/vmcloud/api` */
  url: string
  /** everything the process has printed so far, for failure messages */
  output: () => string
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer()
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Spawns main.ts in development mode on a free port, serving `dataDir` (embedded database, no
 * DATABASE_URL) and a placeholder H5 site, with `env` over the defaults. Resolves once spawned: whether it
 * came up is `serverHealthy`'s to say. Killed after the test (SIGCONT first, so a stopped one dies too).
 */
export async function launchServerProcess(
  t: TestContext,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort()
  const h5Dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-server-h5-'))
  fs.writeFileSync(path.join(h5Dist, 'index.html'), '<!doctype html><title>h5</title>')
  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      H5_DIST: h5Dist,
      SKIP_H5_BUILD: '1',
      NODE_ENV: 'development',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  t.after(() => {
    child.kill('SIGCONT')
    child.kill('SIGKILL')
    fs.rmSync(h5Dist, { recursive: true, force: true })
  })
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  return { child, url: `http://127.0.0.1:${port}/vmcloud/api`, output: () => output }
}

/**
 * Resolves true once the server answers /health, false if it exits first; throws if it does neither
 * within `ms` (a fresh directory is migrated and seeded first: about a minute on a busy machine).
 */
export async function serverHealthy(server: ServerProcess, ms = 120_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) return false
    const ok = await fetch(`${server.url}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return true
    await sleep(250)
  }
  throw new Error(`server neither started nor exited:\n${server.output()}`)
}

/** `launchServerProcess`, then waits until it serves; fails the test if it exits instead. */
export async function startServerProcess(
  t: TestContext,
  dataDir: string,
  env: Record<string, string> = {},
  ms?: number,
): Promise<ServerProcess> {
  const server = await launchServerProcess(t, dataDir, env)
  assert.ok(await serverHealthy(server, ms), `server did not start:\n${server.output()}`)
  return server
}

/** One API call over HTTP as the H5 client makes it: POST with a JSON body, GET without. */
export async function callServer<T = unknown>(
  server: ServerProcess,
  apiPath: string,
  options: { json?: unknown; session?: Session } = {},
): Promise<{ code: number; msg: string; data: T }> {
  const headers: Record<string, string> = { clientType: 'h5' }
  if (options.session) {
    headers.token = options.session.token
    headers.userId = String(options.session.userId)
  }
  if (options.json !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${server.url}${apiPath}`, {
    method: options.json !== undefined ? 'POST' : 'GET',
    headers,
    body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
  })
  return (await res.json()) as { code: number; msg: string; data: T }
}

/** Signs `mobilePhone` in with an SMS code read from the sandbox (registering it on first use). */
export async function loginOnServer(server: ServerProcess, mobilePhone: string): Promise<Session> {
  const ok = <T>(what: string, reply: { code: number; msg: string; data: T }) => {
    assert.equal(reply.code, 200, `${what}: ${reply.msg}`)
    return reply.data
  }
  ok('sms', await callServer(server, '/sms/sendSmsCode', { json: { mobilePhone, type: 'login' } }))
  const sms = ok(
    'code',
    await callServer<{ code: string }>(server, `/sandbox/sms/last?mobilePhone=${mobilePhone}`),
  )
  return ok(
    'login',
    await callServer<Session>(server, '/common/userLogin/confirm', {
      json: { mobilePhone, code: sms.code },
    }),
  )
}
