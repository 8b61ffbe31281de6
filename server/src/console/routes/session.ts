import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { OPERATOR_PERMISSIONS, operatorNameKey } from '#domain/console/operator-roles'
import { ADMIN_COOKIE_PATH, ADMIN_SESSION_COOKIE, AdminSession, SignInBody } from '../contract'
import { EmptyData, Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { ConsoleApiOptions } from './options'

/** /session: an operator signs in (name, password, TOTP), reads who is signed in, signs out. */
const adminSessionRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin, options) => {
  const { sessions: operatorSessions } = admin.console
  const tags = ['运营后台']
  const cookie = (reply: FastifyReply, value: string, expires: Date) =>
    reply.setCookie(ADMIN_SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: options.secureCookie,
      path: ADMIN_COOKIE_PATH,
      expires,
    })
  const limits = options.signInLimits
  // its own counter (the route's per-IP limit has already run for the request, so not app.rateLimit).
  // Per name and IP, never per name alone: that counter anyone could run up for a name (names are
  // guessable) and refuse its operator's right password. Guessing the code once the password is known
  // is limited per operator by the sign-in itself (operator-sessions.ts).
  const limitByNameAndIp =
    limits &&
    admin.createRateLimit({
      max: limits.perNameAndIpPer15Minutes,
      timeWindow: '15 minutes',
      keyGenerator: (request) =>
        `operator-sign-in:${operatorNameKey((request.body as SignInBody).name)}@${request.ip}`,
    })

  admin.post(
    '/session',
    {
      schema: { tags, body: SignInBody, response: { 200: Envelope(AdminSession) } },
      config: {
        operatorPublic: true,
        ...(limits && { rateLimit: { max: limits.perIpPerMinute, timeWindow: '1 minute' } }),
      },
      // per name from this IP too: after the body is parsed, before any argon2 work
      preHandler: async (request) => {
        const byName = await limitByNameAndIp?.(request)
        if (byName && !byName.isAllowed && byName.isExceeded)
          throw Object.assign(new Error('sign-in limit'), { statusCode: 429 })
      },
    },
    async (request, reply) => {
      const { secret, session, expiresAt } = await operatorSessions.signIn(request.body, request.ip)
      cookie(reply, secret, expiresAt)
      return ok(session)
    },
  )

  admin.get(
    '/session',
    {
      schema: { tags, response: { 200: Envelope(AdminSession) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.ownAccount },
    },
    async (request) => {
      const { operator, csrfToken } = currentOperator(request)
      return ok({ operator, csrfToken })
    },
  )

  admin.delete(
    '/session',
    {
      schema: { tags, response: { 200: Envelope(EmptyData) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.ownAccount },
    },
    async (request, reply) => {
      await operatorSessions.signOut(currentOperator(request), request.ip)
      reply.clearCookie(ADMIN_SESSION_COOKIE, { path: ADMIN_COOKIE_PATH })
      return ok(null)
    },
  )
}

export default adminSessionRoutes
