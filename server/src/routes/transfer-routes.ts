import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, Paged } from '../contract/common'
import {
  TransferDevicesBody,
  TransferListQuery,
  TransferRecord,
  TransferResult,
} from '../contract/transfer'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

/** /device/transfer*: moving phones to another account, and the history of moves. */
const transferRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { transfers } = app.services
  const tags = ['转移']
  const security = bearer

  app.post(
    '/device/transfer',
    {
      schema: {
        tags,
        security,
        description:
          '1330 with data { devices: {deviceId, name, reason}[] }; 1331 without a password',
        body: TransferDevicesBody,
        response: { 200: Envelope(TransferResult) },
      },
    },
    async (request) => ok(await transfers.transfer(currentUser(request).userId, request.body)),
  )

  app.get(
    '/device/transfer/list',
    {
      schema: {
        tags,
        security,
        querystring: TransferListQuery,
        response: { 200: Envelope(Paged(TransferRecord)) },
      },
    },
    async (request) =>
      ok(await transfers.list(currentUser(request).userId, request.query.direction, request.query)),
  )
}

export default transferRoutes
