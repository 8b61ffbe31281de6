import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, Paged } from '../contract/common'
import {
  CancelOrderBody,
  CreateBigUserLinkOrderBody,
  CreateCloudOrderBody,
  CreateRenewOrderBody,
  CreateUpOrDownOrderBody,
  CreateVideoOrderBody,
  OrderInfo,
  OrderInfoQuery,
  OrderListQuery,
  PurchaseActivationCodeBody,
} from '../contract/order'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const orderRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { orders, orderReads } = app.services
  const tags = ['订单']
  const security = bearer
  const response = { 200: Envelope(OrderInfo) }

  /** The order-creating calls: each a body schema and the service method that prices and creates. */
  const creators = [
    { url: '/order/createCloudOrder', body: CreateCloudOrderBody, create: orders.createCloudOrder },
    {
      url: '/order/createCloudOrderNew',
      body: CreateCloudOrderBody,
      create: orders.createCloudOrder,
    },
    {
      url: '/order/createBigUserLinkOrder',
      body: CreateBigUserLinkOrderBody,
      create: orders.createBigUserLinkOrder,
      description:
        'Company users only (userType 2): an unpaid order whose payLink anyone logged in can pay.',
    },
    { url: '/order/createRenewOrder', body: CreateRenewOrderBody, create: orders.createRenewOrder },
    {
      url: '/order/createUpOrDownOrder',
      body: CreateUpOrDownOrderBody,
      create: orders.createUpOrDownOrder,
      description:
        'A downgrade costs nothing and is applied at once (the order comes back completed).',
    },
    { url: '/order/createVideoOrder', body: CreateVideoOrderBody, create: orders.createVideoOrder },
    {
      url: '/order/purchaseActivationCode',
      body: PurchaseActivationCodeBody,
      create: orders.purchaseActivationCode,
    },
  ] as const
  for (const route of creators) {
    const create = route.create.bind(orders) as (
      userId: number,
      body: unknown,
    ) => Promise<OrderInfo>
    app.post(
      route.url,
      {
        schema: {
          tags,
          security,
          description: 'description' in route ? route.description : undefined,
          body: route.body,
          response,
        },
      },
      async (request) => ok(await create(currentUser(request).userId, request.body)),
    )
  }

  app.get(
    '/order/getOrderInfo',
    { schema: { tags, security, querystring: OrderInfoQuery, response } },
    async (request) =>
      ok(await orderReads.getOrderInfo(currentUser(request).userId, request.query)),
  )

  app.get(
    '/order/list',
    {
      schema: {
        tags,
        security,
        querystring: OrderListQuery,
        response: { 200: Envelope(Paged(OrderInfo)) },
      },
    },
    async (request) => ok(await orderReads.list(currentUser(request).userId, request.query)),
  )

  app.post(
    '/order/cancel',
    { schema: { tags, security, body: CancelOrderBody, response } },
    async (request) => ok(await orders.cancel(currentUser(request).userId, request.body.orderNo)),
  )
}

export default orderRoutes
