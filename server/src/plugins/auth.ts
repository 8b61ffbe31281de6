import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ResultCode } from '#domain/result-codes'
import { BizError } from '../domain/biz-error'
import type { AuthenticatedUser } from '../services/accounts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No login needed. */
    public?: boolean
    /** No login needed, but a valid token attaches the user (usage logs). */
    optionalAuth?: boolean
  }
  interface FastifyRequest {
    auth: AuthenticatedUser | null
  }
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name]
  return typeof value === 'string' ? value.trim() : ''
}

/** One hook for the whole API prefix: every route needs a live token unless it says otherwise. */
export function addAuthHook(api: FastifyInstance) {
  api.decorateRequest('auth', null)
  api.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config ?? {}
    if (request.is404 || (config.public && !config.optionalAuth)) return
    const token = header(request, 'token')
    const userId = header(request, 'userid')
    const auth = token && userId ? await api.services.sessions.authenticate(token, userId) : null
    if (config.optionalAuth) {
      request.auth = auth && !auth.frozen ? auth : null
      return
    }
    if (!auth) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
    if (auth.frozen) throw new BizError(ResultCode.ACCOUNT_HAS_BEEN_FROZEN)
    request.auth = auth
  })
}

/** For handlers of authenticated routes: the hook guarantees a user. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.auth) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
  return request.auth
}
