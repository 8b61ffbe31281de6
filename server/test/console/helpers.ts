import assert from 'node:assert/strict'
import type { InjectOptions } from 'fastify'
import { generateSync } from 'otplib'
import type { OperatorRole } from '#domain/console/operator-roles'
import {
  ADMIN_API_PREFIX,
  ADMIN_SESSION_COOKIE,
  CSRF_HEADER,
  type AdminSession,
  type CreatedOperator,
} from '../../src/console/contract'
import type { Envelope, TestApp } from '../helpers/test-app'

export const OPERATOR_PASSWORD = 'correct-horse-battery'

/** The TOTP code of `secret` at the test clock's time (plus `offsetSeconds`). */
export const totpAt = (ta: TestApp, secret: string, offsetSeconds = 0) =>
  generateSync({ secret, epoch: Math.floor(ta.clock.now().getTime() / 1000) + offsetSeconds })

/** An operator made as admin:create makes one (actor 'cli'). */
export async function createOperator(
  ta: TestApp,
  name: string,
  role: OperatorRole,
  password = OPERATOR_PASSWORD,
): Promise<CreatedOperator> {
  return ta.app.console.operators.create({ operatorId: null, ip: null }, { name, role, password })
}

export interface OperatorSession {
  cookie: string
  csrfToken: string
  session: AdminSession
  setCookie: string
}

export type AdminReply<T> = Envelope<T> & { status: number; headers: Record<string, unknown> }

/** A call on /vmcloud/admin/api with an operator's cookie and (unless told otherwise) CSRF token. */
export async function adminCall<T = unknown>(
  ta: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: {
    as?: OperatorSession | null
    body?: unknown
    query?: Record<string, string>
    headers?: Record<string, string>
    csrf?: string | null
  } = {},
): Promise<AdminReply<T>> {
  const headers: Record<string, string> = {}
  if (options.as) headers.cookie = `${ADMIN_SESSION_COOKIE}=${options.as.cookie}`
  const csrf = options.csrf === undefined ? options.as?.csrfToken : options.csrf
  if (csrf) headers[CSRF_HEADER] = csrf
  const response = await ta.app.inject({
    method,
    url: `${ADMIN_API_PREFIX}${url}`,
    query: options.query,
    payload: options.body as InjectOptions['payload'],
    headers: { ...headers, ...options.headers },
  })
  const body = response.json() as Envelope<T>
  return { ...body, status: response.statusCode, headers: response.headers }
}

/** Signs in with the current TOTP code, then moves the clock a step on (a code is good once). */
export async function signIn(
  ta: TestApp,
  operator: CreatedOperator,
  password = OPERATOR_PASSWORD,
): Promise<OperatorSession> {
  const reply = await adminCall<AdminSession>(ta, 'POST', '/session', {
    body: { name: operator.operator.name, password, totp: totpAt(ta, operator.totpSecret) },
  })
  assert.equal(reply.code, 200, reply.msg)
  ta.clock.advance(30_000)
  const setCookie = String(reply.headers['set-cookie'])
  const match = new RegExp(`${ADMIN_SESSION_COOKIE}=([^;]+)`).exec(setCookie)
  assert.ok(match, 'the session cookie is set')
  return { cookie: match[1], csrfToken: reply.data.csrfToken, session: reply.data, setCookie }
}
