import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ActivateBody, ActivateResult, MyCode, MyCodesQuery } from '../contract/activation'
import { Envelope, Paged } from '../contract/common'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const activationRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { activation } = app.services
  const tags = ['激活码']
  const security = bearer

  app.post(
    '/activation/activate',
    { schema: { tags, security, body: ActivateBody, response: { 200: Envelope(ActivateResult) } } },
    async (request) => ok(await activation.activate(currentUser(request).userId, request.body)),
  )

  app.get(
    '/activation/myCodes',
    {
      schema: {
        tags,
        security,
        querystring: MyCodesQuery,
        response: { 200: Envelope(Paged(MyCode)) },
      },
    },
    async (request) => ok(await activation.myCodes(currentUser(request).userId, request.query)),
  )
}

export default activationRoutes
