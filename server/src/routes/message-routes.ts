import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, Paged } from '../contract/common'
import {
  Message,
  MessageListQuery,
  MessageSettings,
  ReadMessagesBody,
  ReadMessagesResult,
  UnreadCount,
  UpdateMessageSettingsBody,
} from '../contract/message'
import { currentUser } from '../plugins/auth'
import { ok, sendOkData } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const messageRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { messages } = app.services
  const tags = ['消息']
  const security = bearer

  app.get(
    '/message/getUnreadCount',
    { schema: { tags, security, response: { 200: Envelope(UnreadCount) } } },
    async (request) => ok(await messages.unreadCount(currentUser(request).userId)),
  )

  app.get(
    '/message/list',
    {
      schema: {
        tags,
        security,
        querystring: MessageListQuery,
        response: { 200: Envelope(Paged(Message)) },
      },
    },
    async (request, reply) =>
      sendOkData(reply, await messages.listJson(currentUser(request).userId, request.query)),
  )

  app.post(
    '/message/read',
    {
      schema: {
        tags,
        security,
        body: ReadMessagesBody,
        response: { 200: Envelope(ReadMessagesResult) },
      },
    },
    async (request) => ok(await messages.markRead(currentUser(request).userId, request.body)),
  )

  app.get(
    '/message/getSettings',
    { schema: { tags, security, response: { 200: Envelope(MessageSettings) } } },
    async (request) =>
      ok(await messages.getSettings(currentUser(request).userId, app.services.ctx.db)),
  )

  app.post(
    '/message/updateSettings',
    {
      schema: {
        tags,
        security,
        body: UpdateMessageSettingsBody,
        response: { 200: Envelope(MessageSettings) },
      },
    },
    async (request) => ok(await messages.updateSettings(currentUser(request).userId, request.body)),
  )
}

export default messageRoutes
