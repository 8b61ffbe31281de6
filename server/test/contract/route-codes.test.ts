/**
 * route-codes.ts is the table the client's error matrix renders every page against: it must name every
 * API route (a route without a declaration fails here), only SPEC 8 codes, the login codes for every
 * route behind the auth hook, and the OpenAPI document must show it. The server suite keeps it truthful
 * (helpers/route-codes-check.ts fails a test whose route answers a code it does not declare); the last
 * test proves that check fails.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { BizError } from '../../src/domain/biz-error'
import {
  ROUTE_CODES,
  SIGNED_IN_CODES,
  isResultCode,
  routeKey,
} from '../../src/contract/route-codes'
import { API_PREFIX } from '../../src/plugins/errors'
import { ResultCode } from '#domain/result-codes'
import { buildApp } from '../../src/app'
import { checkRouteCodes } from '../helpers/route-codes-check'
import { buildTestApp, get } from '../helpers/test-app'
import { testConfig } from '../helpers/test-config'
import { createTestDatabase } from '../helpers/test-database'
import type { UserInfo } from '../../src/contract/user'

interface Operation {
  security?: unknown[]
  'x-result-codes'?: number[]
}

type Route = { key: string; operation: Operation }
let routes: Route[] | null = null

/** The routes of the OpenAPI document (built once: an app takes a while on a busy machine). */
async function operations(t: TestContext): Promise<Route[]> {
  if (routes) return routes
  const { app } = await buildTestApp(t)
  const document = app.swagger() as { paths: Record<string, Record<string, Operation>> }
  // the user API's routes; the operator console's (/vmcloud/admin/api) answer its own codes
  routes = Object.entries(document.paths)
    .filter(([path]) => path.startsWith(`${API_PREFIX}/`))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, operation]) => ({
        key: routeKey(method, path.slice(API_PREFIX.length)),
        operation,
      })),
    )
  return routes
}

test('every API route declares its result codes, and every declaration is a route', async (t) => {
  const routes = await operations(t)
  const keys = routes.map((r) => r.key)
  assert.ok(keys.length > 100, `${keys.length} routes`)
  assert.deepEqual(
    keys.filter((key) => !(key in ROUTE_CODES)),
    [],
    'routes missing from server/src/contract/route-codes.ts',
  )
  assert.deepEqual(
    Object.keys(ROUTE_CODES).filter((key) => !keys.includes(key)),
    [],
    'declarations without a route',
  )
})

test('declarations name SPEC 8 codes once each, and the login codes wherever a login is needed', async (t) => {
  for (const { key, operation } of await operations(t)) {
    const codes = ROUTE_CODES[key]
    assert.deepEqual(
      codes.filter((code) => !isResultCode(code)),
      [],
      `${key}: not SPEC 8 codes besides 200`,
    )
    assert.equal(new Set(codes).size, codes.length, `${key} lists a code twice`)
    const signedIn = (operation.security ?? []).length > 0
    for (const code of SIGNED_IN_CODES) {
      if (signedIn) assert.ok(codes.includes(code), `${key} needs a login: it answers ${code}`)
    }
  }
})

test('the OpenAPI document shows each operation’s codes as x-result-codes', async (t) => {
  for (const { key, operation } of await operations(t)) {
    assert.deepEqual(operation['x-result-codes'], [ResultCode.RESULT_OK, ...ROUTE_CODES[key]], key)
  }
})

test(
  'a route answering a code it does not declare fails the test that made it answer',
  { skip: process.env.ROUTE_CODES_RECORD ? 'recording' : false },
  async (t) => {
    const database = await createTestDatabase()
    const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-codes-'))
    const probe = await buildApp({ config: testConfig({ filesDir }), database })
    t.after(async () => {
      await probe.close()
      await database.close()
      fs.rmSync(filesDir, { recursive: true, force: true })
    })
    // a route no declaration knows, answering 1080
    probe.get(`${API_PREFIX}/probe`, { config: { public: true } }, async () => {
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '探针')
    })
    const checks: (() => void)[] = []
    checkRouteCodes({ after: (fn: () => void) => checks.push(fn) } as unknown as TestContext, probe)
    await probe.ready()
    // a declared code (2017 without a token) passes
    assert.equal(
      (await get<UserInfo>(probe, '/user/getUserInfo')).code,
      ResultCode.LOGIN_TOKEN_INVALID,
    )
    assert.equal(checks.length, 1)
    assert.doesNotThrow(checks[0])
    const reply = await get(probe, '/probe')
    assert.equal(reply.code, ResultCode.SHOW_ERROR_TIPS, 'the answer itself is left alone')
    assert.throws(checks[0], /GET \/probe answered 1080/)
  },
)
