import type { FastifyRequest } from 'fastify'
import type { LoginContext } from '../services/accounts'

export interface ApiRouteOptions {
  /** Per-IP limit for SMS and login routes; null when rate limiting is off. */
  sensitivePerMinute: number | null
}

/** Route config for calls that cost money or guess secrets (SMS, logins). */
export function sensitiveConfig(options: ApiRouteOptions) {
  return options.sensitivePerMinute
    ? { rateLimit: { max: options.sensitivePerMinute, timeWindow: '1 minute' } }
    : {}
}

const headerValue = (request: FastifyRequest, name: string) => {
  const value = request.headers[name]
  return typeof value === 'string' && value.length <= 32 ? value : null
}

/** Login body fields plus the channel/clientType headers every request carries (SPEC 7). */
export function loginContext(
  request: FastifyRequest,
  body: Omit<LoginContext, 'channel' | 'clientType'>,
): LoginContext {
  return {
    ...body,
    channel: headerValue(request, 'channel'),
    clientType: headerValue(request, 'clienttype'),
  }
}

export const bearer = [{ token: [], userId: [] }]
