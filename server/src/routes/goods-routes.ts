import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  Goods,
  GoodsDetailQuery,
  GoodsLevelGroup,
  GoodsListQuery,
  Quote,
  QuoteBody,
  ZoneStock,
  ZonesQuery,
} from '../contract/goods'
import { Envelope } from '../contract/common'
import { ok, sendOkJson } from '../plugins/envelope'
import type { ApiRouteOptions } from './route-options'

/** The catalogue is public (Home/create and buyGoods do not force a login); quotes use the login when present. */
const goodsRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { goodsList, orders } = app.services
  const tags = ['商品']

  app.get(
    '/CommodityGroup/getGoodsList',
    {
      config: { public: true },
      schema: {
        tags,
        querystring: GoodsListQuery,
        response: { 200: Envelope(Type.Array(GoodsLevelGroup)) },
      },
    },
    async (request, reply) =>
      sendOkJson(request, reply, await goodsList.listLevelsJson(request.query)),
  )

  app.get(
    '/CommodityGroup/getGoodsDetail',
    {
      config: { public: true },
      schema: { tags, querystring: GoodsDetailQuery, response: { 200: Envelope(Goods) } },
    },
    async (request) => ok(await goodsList.goodsDetail(request.query.goodId)),
  )

  app.get(
    '/CommodityGroup/getZones',
    {
      config: { public: true },
      schema: { tags, querystring: ZonesQuery, response: { 200: Envelope(Type.Array(ZoneStock)) } },
    },
    async (request) => ok(await goodsList.listZones(request.query.goodId)),
  )

  app.post(
    '/CommodityGroup/getGoodPrice',
    {
      config: { public: true, optionalAuth: true },
      schema: {
        tags,
        description:
          'The price the server will charge. new/activationCode need no login (a visitor sees the first-purchase price); renew/upgrade/video quote the caller’s own phones.',
        body: QuoteBody,
        response: { 200: Envelope(Quote) },
      },
    },
    async (request) => ok(await orders.quote(request.auth?.userId ?? null, request.body)),
  )
}

export default goodsRoutes
