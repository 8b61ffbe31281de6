import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static, TSchema } from '@sinclair/typebox'
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

  /** An order-creating call: its body schema and the service method that prices and creates. */
  const creator = <Body extends TSchema>(
    url: string,
    body: Body,
    create: (userId: number, body: Static<Body>) => Promise<OrderInfo>,
    description?: string,
  ) =>
    app.post(url, { schema: { tags, security, description, body, response } }, async (request) =>
      ok(await create(currentUser(request).userId, request.body)),
    )

  creator('/order/createCloudOrder', CreateCloudOrderBody, orders.createCloudOrder.bind(orders))
  creator('/order/createCloudOrderNew', CreateCloudOrderBody, orders.createCloudOrder.bind(orders))
  creator(
    '/order/createBigUserLinkOrder',
    CreateBigUserLinkOrderBody,
    orders.createBigUserLinkOrder.bind(orders),
    'Company users only (userType 2): an unpaid order whose payLink anyone logged in can pay.',
  )
  creator('/order/createRenewOrder', CreateRenewOrderBody, orders.createRenewOrder.bind(orders))
  creator(
    '/order/createUpOrDownOrder',
    CreateUpOrDownOrderBody,
    orders.createUpOrDownOrder.bind(orders),
    'A downgrade costs nothing and is applied at once (the order comes back completed).',
  )
  creator('/order/createVideoOrder', CreateVideoOrderBody, orders.createVideoOrder.bind(orders))
  creator(
    '/order/purchaseActivationCode',
    PurchaseActivationCodeBody,
    orders.purchaseActivationCode.bind(orders),
  )

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
