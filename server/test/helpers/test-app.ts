import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestContext } from 'node:test'
import type { InjectOptions } from 'fastify'
import assert from 'node:assert/strict'
import { buildApp, type App, type AppOverrides } from '../../src/app'
import type { ServerConfig } from '../../src/config'
import type { Database } from '../../src/db/client'
import type { Clock } from '../../src/clock'
import type { LoginResult, SandboxLastSms } from '../../src/contract/auth'
import { checkRouteCodes } from './route-codes-check'
import { testConfig } from './test-config'
import { createTestDatabase } from './test-database'

// The control page (adapters/supplier/control-page.ts) is served from its build, dist/control; a
// checkout that has not built it yet serves the page's source document (control/index.html: the same
// document and data mark, without the built files), so server tests never need a build.
const REPO_ROOT = path.resolve(__dirname, '../../..')
if (!process.env.CONTROL_DIST && !fs.existsSync(path.join(REPO_ROOT, 'dist/control/index.html'))) {
  process.env.CONTROL_DIST = path.join(REPO_ROOT, 'control')
}

export class FakeClock implements Clock {
  private current: number

  constructor(start = '2026-03-02T02:00:00.000Z') {
    this.current = new Date(start).getTime()
  }

  now() {
    return new Date(this.current)
  }

  advance(ms: number) {
    this.current += ms
  }
}

export interface TestApp {
  app: App
  clock: FakeClock
  database: Database
  filesDir: string
}

/** The adapters a test replaces (the clock is always a FakeClock), its database and its settings. */
export interface TestAppOptions extends Omit<AppOverrides, 'clock'> {
  /** Default: a fresh database. Either is closed after the test. */
  database?: Database
  /** Settings over testConfig's (which turns rate limiting off: set rateLimitPerMinute to test it). */
  config?: Partial<Omit<ServerConfig, 'filesDir' | 'privateFilesDir'>>
}

/** A fresh app on a fresh database and files folder, closed after the test. */
export async function buildTestApp(t: TestContext, options: TestAppOptions = {}): Promise<TestApp> {
  const { database: given, config: settings, ...overrides } = options
  const database = given ?? (await createTestDatabase())
  const clock = new FakeClock()
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-files-'))
  const privateFilesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-private-'))
  const app = await buildApp({
    config: testConfig({ ...settings, filesDir, privateFilesDir }),
    database,
    overrides: { ...overrides, clock },
  })
  t.after(async () => {
    await app.close()
    await database.close()
    fs.rmSync(filesDir, { recursive: true, force: true })
    fs.rmSync(privateFilesDir, { recursive: true, force: true })
  })
  checkRouteCodes(t, app)
  await app.ready()
  return { app, clock, database, filesDir }
}

/**
 * SPEC 8's envelope as a test reads it. `data` has the type the call names from the contract
 * (`post<LoginResult>(…)`), unknown when it names none; on an error answer it is null, which a test
 * asserting the code first never reads.
 */
export interface Envelope<T = unknown> {
  code: number
  msg: string
  data: T
  ts: number
}

export interface Session {
  token: string
  userId: number
}

export const authHeaders = (session: Session) => ({
  token: session.token,
  userid: String(session.userId),
})

export async function call<T = unknown>(
  app: App,
  method: 'GET' | 'POST',
  url: string,
  options: {
    body?: unknown
    session?: Session
    query?: Record<string, string>
    headers?: Record<string, string>
  } = {},
): Promise<Envelope<T> & { status: number }> {
  const response = await app.inject({
    method,
    url: `/vmcloud/api${url}`,
    query: options.query,
    payload: options.body as InjectOptions['payload'],
    headers: { ...(options.session ? authHeaders(options.session) : {}), ...options.headers },
  })
  const body = response.json() as Envelope<T>
  assert.equal(typeof body.ts, 'number', 'every response carries ts')
  return { ...body, status: response.statusCode }
}

export const post = <T = unknown>(app: App, url: string, body?: unknown, session?: Session) =>
  call<T>(app, 'POST', url, { body: body ?? {}, session })

export const get = <T = unknown>(
  app: App,
  url: string,
  session?: Session,
  query?: Record<string, string>,
) => call<T>(app, 'GET', url, { session, query })

export async function lastSmsCode(app: App, mobilePhone: string): Promise<string> {
  const reply = await get<SandboxLastSms>(app, '/sandbox/sms/last', undefined, { mobilePhone })
  assert.equal(reply.code, 200)
  assert.ok(reply.data, `an SMS was sent to ${mobilePhone}`)
  return reply.data!.code
}

export async function sendCode(app: App, mobilePhone: string, type = 'login', session?: Session) {
  const reply = await post(app, '/sms/sendSmsCode', { mobilePhone, type }, session)
  assert.equal(reply.code, 200, reply.msg)
  return lastSmsCode(app, mobilePhone)
}

/** Logs a number in with an SMS code (registering it on first use). Moves the clock past the resend wait. */
export async function loginWithSms(
  t: TestApp,
  mobilePhone: string,
  extra: Record<string, unknown> = {},
) {
  t.clock.advance(61_000)
  const code = await sendCode(t.app, mobilePhone)
  const reply = await post<LoginResult>(t.app, '/common/userLogin/confirm', {
    mobilePhone,
    code,
    ...extra,
  })
  assert.equal(reply.code, 200, reply.msg)
  return { ...reply.data }
}
