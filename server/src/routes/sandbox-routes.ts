import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ResultCode } from '#domain/result-codes'
import { SandboxSmsAdapter } from '../adapters/sms/sandbox-sms'
import { SANDBOX_PREFIX, SandboxSupplier } from '../adapters/supplier/sandbox/sandbox-supplier'
import { SandboxLastSms, SandboxLastSmsQuery } from '../contract/auth'
import { Envelope } from '../contract/common'
import { ControlSessionQuery, FloatingBallSettings } from '../contract/engagement'
import { BizError } from '../domain/biz-error'
import { ok } from '../plugins/envelope'
import { API_PREFIX } from '../plugins/errors'
import { floatingBallScript } from './floating-ball-script'
import type { ApiRouteOptions } from './route-options'
import sandboxPayRoutes from './sandbox-pay-routes'
import sandboxSupplierRoutes from './sandbox-supplier-routes'
import sandboxWechatRoutes from './sandbox-wechat-routes'

/** Where every sandbox route lives, and only sandbox routes. */
export const SANDBOX_PATH = `${API_PREFIX}/sandbox`

const SANDBOX_ROUTE = new RegExp(`^${SANDBOX_PATH}(/|$)`, 'i')

/** True for a path under SANDBOX_PATH, in any letter case. */
export const isSandboxPath = (url: string) => SANDBOX_ROUTE.test(url)

/** Sandbox SMS only: the last code sent to a number, for tests and demos. */
const sandboxSmsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sms = app.services.ctx.sms
  if (!(sms instanceof SandboxSmsAdapter)) return
  app.get(
    '/sandbox/sms/last',
    {
      config: { public: true },
      schema: {
        tags: ['sandbox'],
        description: 'Sandbox SMS only: the last code sent to a number (for tests and demos).',
        querystring: SandboxLastSmsQuery,
        response: { 200: Envelope(SandboxLastSms) },
      },
    },
    async (request) => ok(sms.lastSent(request.query.mobilePhone)),
  )
}

/** The floating ball on the sandbox supplier's control page (its session, not the app token). */
const sandboxFloatingBallRoutes: FastifyPluginAsyncTypebox = async (app) => {
  if (!(app.services.ctx.supplier instanceof SandboxSupplier)) return
  const { engagement, deviceAuth } = app.services
  app.get(
    '/sandbox/supplier/control/floatingBall',
    {
      config: { public: true },
      schema: {
        tags: ['sandbox'],
        querystring: ControlSessionQuery,
        response: { 200: Envelope(FloatingBallSettings) },
      },
    },
    async (request) => {
      const session = await deviceAuth.session(request.query.session)
      if (!session) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID, '控制会话已失效')
      return ok(await engagement.floatingBall(session.userId))
    },
  )

  const script = floatingBallScript(SANDBOX_PREFIX)
  app.get(
    '/sandbox/supplier/control/floatingBall.js',
    {
      config: { public: true },
      schema: {
        tags: ['sandbox'],
        description: 'Script drawing the floating ball on the control page.',
      },
    },
    async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(script),
  )
}

/**
 * Every route a sandbox adapter hosts: the pages a real provider would serve from its own site
 * (checkout, control page, screens) and the last-SMS peek for tests. All are public, and some hand out
 * what a login or a payment needs, so production never registers them — not even when it is allowed
 * to run on a sandbox adapter (routes/index.ts). Each adapter's routes exist only while its sandbox runs.
 */
const sandboxRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app, options) => {
  await app.register(sandboxSmsRoutes)
  await app.register(sandboxPayRoutes, options)
  await app.register(sandboxSupplierRoutes, options)
  await app.register(sandboxFloatingBallRoutes)
  await app.register(sandboxWechatRoutes)
}

export default sandboxRoutes
