import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, PageQuery, Paged } from '../contract/common'
import {
  ApplicableCoupons,
  ApplicableCouponsBody,
  CouponListQuery,
  CouponUsage,
  UserCoupon,
} from '../contract/coupon'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const couponRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { coupons, orders } = app.services
  const tags = ['优惠券']
  const security = bearer

  app.get(
    '/coupon/list',
    {
      schema: {
        tags,
        security,
        querystring: CouponListQuery,
        response: { 200: Envelope(Paged(UserCoupon)) },
      },
    },
    async (request) => ok(await coupons.list(currentUser(request).userId, request.query)),
  )

  app.get(
    '/coupon/usage',
    {
      schema: {
        tags,
        security,
        querystring: PageQuery,
        response: { 200: Envelope(Paged(CouponUsage)) },
      },
    },
    async (request) => ok(await coupons.usage(currentUser(request).userId, request.query)),
  )

  app.post(
    '/coupon/applicable',
    {
      schema: {
        tags,
        security,
        description:
          "The caller's usable coupons against a purchase (the /CommodityGroup/getGoodPrice body): usable or why not, and the discount each gives.",
        body: ApplicableCouponsBody,
        response: { 200: Envelope(ApplicableCoupons) },
      },
    },
    async (request) => {
      const { userId } = currentUser(request)
      return ok(await coupons.applicable(userId, await orders.draft(userId, request.body)))
    },
  )
}

export default couponRoutes
