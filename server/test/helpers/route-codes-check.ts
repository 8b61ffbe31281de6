import fs from 'node:fs'
import path from 'node:path'
import type { TestContext } from 'node:test'
import type { App } from '../../src/app'
import { API_PREFIX } from '../../src/plugins/errors'
import { declaredCodes, isResultCode, routeKey } from '../../src/contract/route-codes'

/**
 * Set ROUTE_CODES_RECORD=<file> to append every "route code" a test run sees to the file (how
 * route-codes.ts was seeded) instead of failing on undeclared codes.
 */
const recordTo = process.env.ROUTE_CODES_RECORD

function answeredCode(payload: unknown): number | null {
  // the code is the envelope's first field; reading only its head keeps big lists cheap
  const head =
    typeof payload === 'string'
      ? payload.slice(0, 24)
      : Buffer.isBuffer(payload)
        ? payload.subarray(0, 24).toString()
        : ''
  const match = /^\{"code":(\d+)/.exec(head)
  return match ? Number(match[1]) : null
}

/**
 * Every answer of the app's API routes must carry a code its route declares in route-codes.ts (the
 * table the client's error matrix reads), so the table stays truthful: the test fails after it ends
 * with the route and code it did not declare. Called by buildTestApp before the app is ready.
 */
export function checkRouteCodes(t: TestContext, app: App) {
  const undeclared = new Set<string>()
  app.addHook('onSend', async (request, _reply, payload) => {
    const url = request.routeOptions.url
    if (!url?.startsWith(API_PREFIX) || request.is404) return payload
    const code = answeredCode(payload)
    if (code === null || !isResultCode(code)) return payload
    const key = routeKey(request.method, url.slice(API_PREFIX.length))
    if (recordTo) fs.appendFileSync(path.resolve(recordTo), `${key}\t${code}\n`)
    else if (!declaredCodes(key)?.includes(code)) undeclared.add(`${key} answered ${code}`)
    return payload
  })
  t.after(() => {
    if (undeclared.size > 0) {
      throw new Error(
        `routes answered codes server/src/contract/route-codes.ts does not declare:\n  ${[...undeclared].join('\n  ')}`,
      )
    }
  })
}
