import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Envelope } from '../contract/common'
import {
  ScanLoginIdBody,
  ScanLoginRequest,
  ScanLoginSession,
  ScanLoginState,
  ScanLoginStatusQuery,
} from '../contract/scan-login'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, loginContext, sensitiveConfig, type ApiRouteOptions } from './route-options'

/** /user/scanLogin/*: log a browser in by scanning its QR with a logged-in phone. */
const scanLoginRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app, options) => {
  const { scanLogin } = app.services
  const tags = ['扫码登录']
  const me = (request: Parameters<typeof currentUser>[0]) => currentUser(request).userId

  app.post(
    '/user/scanLogin/create',
    {
      config: { public: true, ...sensitiveConfig(options) },
      schema: { tags, response: { 200: Envelope(ScanLoginSession) } },
    },
    async (request) => ok(await scanLogin.create(request.headers['user-agent'], request.ip)),
  )

  app.get(
    '/user/scanLogin/status',
    {
      config: { public: true },
      schema: {
        tags,
        querystring: ScanLoginStatusQuery,
        response: { 200: Envelope(ScanLoginState) },
      },
    },
    async (request) => ok(await scanLogin.status(request.query.pollKey, loginContext(request, {}))),
  )

  app.post(
    '/user/scanLogin/scan',
    {
      schema: {
        tags,
        security: bearer,
        body: ScanLoginIdBody,
        response: { 200: Envelope(ScanLoginRequest) },
      },
    },
    async (request) => ok(await scanLogin.scan(me(request), request.body.sessionId)),
  )

  for (const [path, status] of [
    ['confirm', 'confirmed'],
    ['refuse', 'refused'],
  ] as const) {
    app.post(
      `/user/scanLogin/${path}`,
      {
        schema: {
          tags,
          security: bearer,
          body: ScanLoginIdBody,
          response: { 200: Envelope(Type.Object({ status: Type.Literal(status) })) },
        },
      },
      async (request) => ok(await scanLogin[path](me(request), request.body.sessionId)),
    )
  }
}

export default scanLoginRoutes
