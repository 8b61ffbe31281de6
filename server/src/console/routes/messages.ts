import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import {
  OperatorMessagePage,
  OperatorMessageQuery,
  OperatorMessageRow,
  SendMessageBody,
} from '../contract/messages'
import { Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { ConsoleApiOptions } from './options'

/** /messages: what operators sent (every role); send to one user or broadcast (sendMessages). */
const adminMessageRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { messages: adminMessages } = admin.console
  const tags = ['运营后台']

  admin.get(
    '/messages',
    {
      schema: {
        tags,
        querystring: OperatorMessageQuery,
        response: { 200: Envelope(OperatorMessagePage) },
      },
      config: { operatorRoles: OPERATOR_PERMISSIONS.view },
    },
    async (request) => ok(await adminMessages.list(request.query)),
  )

  admin.post(
    '/messages',
    {
      schema: { tags, body: SendMessageBody, response: { 200: Envelope(OperatorMessageRow) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.sendMessages },
    },
    async (request) =>
      ok(
        await adminMessages.send(
          { operatorId: currentOperator(request).operator.id, ip: request.ip },
          request.body,
        ),
      ),
  )
}

export default adminMessageRoutes
