import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import activationRoutes from './activation-routes'
import activityRoutes from './activity-routes'
import authRoutes from './auth-routes'
import configRoutes from './config-routes'
import couponRoutes from './coupon-routes'
import deviceRoutes from './device-routes'
import engagementRoutes from './engagement-routes'
import goodsRoutes from './goods-routes'
import groupRoutes from './group-routes'
import transferRoutes from './transfer-routes'
import grantRoutes from './grant-routes'
import messageRoutes from './message-routes'
import orderRoutes from './order-routes'
import paymentRoutes from './payment-routes'
import type { ApiRouteOptions } from './route-options'
import sandboxPayRoutes from './sandbox-pay-routes'
import scanLoginRoutes from './scan-login-routes'
import sandboxSupplierRoutes from './sandbox-supplier-routes'
import spaceRoutes from './space-routes'
import userRoutes from './user-routes'
import walletRoutes from './wallet-routes'

/** Every /vmcloud/api route, grouped by area. */
const apiRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app, options) => {
  await app.register(authRoutes, options)
  await app.register(userRoutes, options)
  await app.register(configRoutes, options)
  await app.register(messageRoutes, options)
  await app.register(goodsRoutes, options)
  await app.register(orderRoutes, options)
  await app.register(couponRoutes, options)
  await app.register(paymentRoutes, options)
  await app.register(sandboxPayRoutes, options)
  await app.register(activationRoutes, options)
  await app.register(deviceRoutes, options)
  await app.register(groupRoutes, options)
  await app.register(transferRoutes, options)
  await app.register(grantRoutes, options)
  await app.register(sandboxSupplierRoutes, options)
  await app.register(engagementRoutes, options)
  await app.register(spaceRoutes, options)
  await app.register(walletRoutes, options)
  await app.register(activityRoutes, options)
  await app.register(scanLoginRoutes, options)
}

export default apiRoutes
