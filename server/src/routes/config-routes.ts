import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { sql } from 'drizzle-orm'
import { Envelope, Paged, PageQuery } from '../contract/common'
import {
  CommonConfig,
  CustomerServiceInfo,
  DeviceStatusEntry,
  DictEntry,
  DictQuery,
  FeedbackBody,
  FeedbackTicket,
  Health,
  SaveUsageLogBody,
} from '../contract/config'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const configRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { commonConfig, usageLogs, customerService } = app.services
  const tags = ['配置']

  app.get(
    '/health',
    { config: { public: true }, schema: { tags, response: { 200: Envelope(Health) } } },
    async () => {
      await app.services.ctx.db.execute(sql`select 1`)
      return ok({ db: 'ok' as const })
    },
  )

  app.get(
    '/configure/getCommonConfig',
    { config: { public: true }, schema: { tags, response: { 200: Envelope(CommonConfig) } } },
    async () => ok(await commonConfig.commonConfig()),
  )

  app.get(
    '/dict/getDictList',
    {
      config: { public: true },
      schema: { tags, querystring: DictQuery, response: { 200: Envelope(Type.Array(DictEntry)) } },
    },
    async (request) => ok(await commonConfig.dictionary(request.query.dictType)),
  )

  app.get(
    '/dict/getDeviceStatusList',
    {
      config: { public: true },
      schema: { tags, response: { 200: Envelope(Type.Array(DeviceStatusEntry)) } },
    },
    async () => ok(await commonConfig.deviceStatuses()),
  )

  app.post(
    '/userUsageLog/saveUserUsageLog',
    {
      config: { public: true, optionalAuth: true },
      schema: { tags, body: SaveUsageLogBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await usageLogs.save(request.auth?.userId ?? null, request.body)
      return ok(null)
    },
  )

  app.get(
    '/customer/customerService/getUrl',
    {
      config: { public: true },
      schema: { tags, response: { 200: Envelope(CustomerServiceInfo) } },
    },
    async () => ok(await customerService.contact()),
  )

  app.post(
    '/customer/feedback',
    {
      schema: {
        tags,
        security: bearer,
        body: FeedbackBody,
        response: { 200: Envelope(FeedbackTicket) },
      },
    },
    async (request) =>
      ok(
        await customerService.submitFeedback(
          currentUser(request).userId,
          request.body.content,
          request.body.contact,
        ),
      ),
  )

  app.get(
    '/customer/feedback/list',
    {
      schema: {
        tags,
        security: bearer,
        querystring: PageQuery,
        response: { 200: Envelope(Paged(FeedbackTicket)) },
      },
    },
    async (request) =>
      ok(await customerService.listFeedback(currentUser(request).userId, request.query)),
  )
}

export default configRoutes
