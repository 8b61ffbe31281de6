import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  ActivityDetail,
  ActivityIdQuery,
  ActivitySummary,
  CreateSeckillOrderBody,
} from '../contract/activity'
import { Envelope } from '../contract/common'
import { OrderInfo } from '../contract/order'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

/** Activities are public to read (a visitor may look); buying a seckill unit needs a login. */
const activityRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { activities } = app.services
  const tags = ['活动']

  app.get(
    '/activity/list',
    {
      config: { public: true },
      schema: {
        tags,
        description: 'Enabled activities that have not ended: running first, then upcoming.',
        response: { 200: Envelope(Type.Array(ActivitySummary)) },
      },
    },
    async () => ok(await activities.list()),
  )

  app.get(
    '/activity/detail',
    {
      config: { public: true, optionalAuth: true },
      schema: {
        tags,
        description:
          'Rules, time window and seckill items with the units left; `bought` when logged in.',
        querystring: ActivityIdQuery,
        response: { 200: Envelope(ActivityDetail) },
      },
    },
    async (request) => ok(await activities.detail(request.query.id, request.auth?.userId ?? null)),
  )

  app.post(
    '/order/createSeckillActivityOrder',
    {
      schema: {
        tags: ['订单'],
        security: bearer,
        description:
          'One phone at the seckill price (每人限购1件, 已抢光 when none left); pay it like any order.',
        body: CreateSeckillOrderBody,
        response: { 200: Envelope(OrderInfo) },
      },
    },
    async (request) =>
      ok(await activities.createSeckillOrder(currentUser(request).userId, request.body)),
  )
}

export default activityRoutes
