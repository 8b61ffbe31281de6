import type { FastifyRequest, FastifyServerOptions } from 'fastify'
import { DrizzleQueryError } from 'drizzle-orm/errors'

/**
 * What the server log may say about a request and an error. Secrets ride in URLs (a pay link's
 * `?link=`, the scan-login poll key, the control page's one-time `token`, a sandbox trade number, a
 * cover's instance id in the path) and a database error carries its SQL with every value bound to it
 * (a password hash, a phone number, a token). Every log line goes through these serializers, so no
 * route or job can write one of those by logging a request or an error.
 */

export const REDACTED = '***'

/**
 * The URL with every query value and every path parameter replaced: `/pages/pay/pay?link=***`,
 * `/vmcloud/api/sandbox/supplier/cover/:instanceId`. Query names stay (they say what was asked).
 */
export function redactUrl(url: string, routePattern?: string): string {
  const q = url.indexOf('?')
  const pathname = q < 0 ? url : url.slice(0, q)
  const query = q < 0 ? '' : url.slice(q + 1)
  // a matched route with parameters logs its pattern; a wildcard's tail (a file name) stays
  const shownPath = routePattern && /(^|\/):/.test(routePattern) ? routePattern : pathname
  if (q < 0) return shownPath
  const names = query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=')
      return `${eq < 0 ? pair : pair.slice(0, eq)}=${REDACTED}`
    })
  return `${shownPath}?${names.join('&')}`
}

interface LoggedRequest {
  method?: string
  url?: string
  host?: string
  ip?: string
  socket?: { remotePort?: number }
  routeOptions?: { url?: string }
}

function serializeRequest(request: FastifyRequest | LoggedRequest) {
  const r = request as LoggedRequest
  return {
    method: r.method,
    url: redactUrl(r.url ?? '', r.routeOptions?.url),
    host: r.host,
    remoteAddress: r.ip,
    remotePort: r.socket?.remotePort,
  }
}

interface DatabaseErrorFields {
  code?: unknown
  severity?: unknown
  constraint?: unknown
  table?: unknown
  column?: unknown
  routine?: unknown
}

/** node-postgres's and PGlite's DatabaseError: a SQLSTATE and a severity. */
const isDatabaseError = (error: unknown): error is Error & DatabaseErrorFields =>
  error instanceof Error &&
  typeof (error as DatabaseErrorFields).severity === 'string' &&
  typeof (error as DatabaseErrorFields).code === 'string'

/** The stack's frames without its message (the message of a failed query is its SQL and values). */
const framesOf = (error: Error) =>
  (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n')

interface LoggedError {
  type: string
  message: string
  stack: string
  [key: string]: unknown
}

/** An error as pino writes one: type, message, stack, its own fields, and its cause. */
function plainError(error: Error, depth = 0): LoggedError {
  const out: LoggedError = { type: error.name, message: error.message, stack: error.stack ?? '' }
  for (const [key, value] of Object.entries(error))
    if (!(key in out) && key !== 'cause') out[key] = value
  if (error.cause instanceof Error && depth < 10) out.cause = plainError(error.cause, depth + 1)
  return out
}

/**
 * An error for the log. When a database error is anywhere in its cause chain, only what names the
 * failure is kept: the SQLSTATE, the constraint, table and column, and the stack frames; its message,
 * detail, SQL and parameters (the values) are not. Any other error is pino's usual form.
 */
export function serializeError(error: Error): LoggedError {
  let database: (Error & DatabaseErrorFields) | null = null
  let query = false
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 10; depth++) {
    if (e instanceof DrizzleQueryError) query = true
    if (isDatabaseError(e)) {
      database = e
      break
    }
    e = e.cause
  }
  if (!database && !query) return plainError(error)
  return {
    type: error.name,
    message: 'database error (SQL and values not logged)',
    sqlState: database?.code,
    constraint: database?.constraint,
    table: database?.table,
    column: database?.column,
    routine: database?.routine,
    stack: framesOf(error),
  }
}

export const LOG_SERIALIZERS = {
  req: serializeRequest,
  // a string under err (a provider's refusal) stays as it was
  err: (value: unknown) => (value instanceof Error ? serializeError(value) : value),
}

type LoggerOption = FastifyServerOptions['logger']

/** The app's logger options with the serializers above (false stays false). */
export function withLogRedaction(logger: LoggerOption): LoggerOption {
  if (!logger) return false
  const options = logger === true ? {} : logger
  // Fastify types err as always an Error; pino hands it whatever was logged under err
  const serializers = { ...options.serializers, ...LOG_SERIALIZERS } as typeof options.serializers
  return { ...options, serializers }
}
