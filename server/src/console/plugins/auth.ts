import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import type { OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import { ADMIN_SESSION_COOKIE, CSRF_HEADER } from '../contract'
import { BizError } from '../../domain/biz-error'
import type { OperatorAuth } from '../services/operator-sessions'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Admin routes: the roles allowed (one of OPERATOR_PERMISSIONS' lists, #domain/console/operator-roles). */
    operatorRoles?: readonly OperatorRole[]
    /** Admin routes: no session needed (signing in). */
    operatorPublic?: boolean
  }
  interface FastifyRequest {
    operatorAuth: OperatorAuth | null
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function sameToken(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string') return false
  const a = Buffer.from(sent)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * An admin route that declares neither its roles nor that it is public is a mistake: refuse to start.
 * The OpenAPI document shows the roles as `x-operator-roles` (the authorisation sweep reads them).
 */
function requireRoles(route: RouteOptions) {
  const config = route.config as
    { operatorRoles?: readonly OperatorRole[]; operatorPublic?: boolean } | undefined
  if (!config?.operatorPublic && !config?.operatorRoles) {
    throw new Error(`${route.method} ${route.url}: an admin route declares config.operatorRoles`)
  }
  const schema = route.schema as Record<string, unknown> | undefined
  if (schema) schema['x-operator-roles'] = config?.operatorRoles ?? 'public'
}

/**
 * The one hook of the /vmcloud/admin/api prefix (the user API's hook, plugins/auth.ts, lives on its own
 * prefix and never sees these routes): a live operator session from the cookie, the CSRF header on
 * every unsafe method, and the route's roles. Needs @fastify/cookie registered in the same scope.
 */
export function addAdminAuthHook(admin: FastifyInstance) {
  admin.decorateRequest('operatorAuth', null)
  admin.addHook('onRoute', requireRoles)
  admin.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config ?? {}
    if (request.is404 || config.operatorPublic) return
    const secret = request.cookies[ADMIN_SESSION_COOKIE]
    const auth = secret ? await admin.console.sessions.authenticate(secret) : null
    if (!auth) throw new BizError(OperatorCode.NOT_SIGNED_IN)
    if (
      !SAFE_METHODS.has(request.method) &&
      !sameToken(request.headers[CSRF_HEADER], auth.csrfToken)
    ) {
      throw new BizError(OperatorCode.CSRF_REFUSED)
    }
    if (!config.operatorRoles?.includes(auth.operator.role)) {
      throw new BizError(OperatorCode.FORBIDDEN)
    }
    request.operatorAuth = auth
  })
}

/** For handlers of admin routes: the hook guarantees an operator. */
export function currentOperator(request: FastifyRequest): OperatorAuth {
  if (!request.operatorAuth) throw new BizError(OperatorCode.NOT_SIGNED_IN)
  return request.operatorAuth
}
