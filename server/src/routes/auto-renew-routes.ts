import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { SetAutoRenewBody, SetAutoRenewResult } from '../contract/auto-renew'
import { Envelope } from '../contract/common'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

/** /device/autoRenew: 自动续费 on or off for the caller's phones (one, a group's, or all of them). */
const autoRenewRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { autoRenew } = app.services
  app.post(
    '/device/autoRenew',
    {
      schema: {
        tags: ['云手机'],
        security: bearer,
        body: SetAutoRenewBody,
        response: { 200: Envelope(SetAutoRenewResult) },
      },
    },
    async (request) => ok(await autoRenew.set(currentUser(request).userId, request.body)),
  )
}

export default autoRenewRoutes
