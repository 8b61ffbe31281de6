import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from 'fastify'
import acepSupplierRoutes from './acep-supplier-routes'
import activationRoutes from './activation-routes'
import appRoutes from './app-routes'
import activityRoutes from './activity-routes'
import authRoutes from './auth-routes'
import autoRenewRoutes from './auto-renew-routes'
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
import sandboxRoutes, { isSandboxPath } from './sandbox-routes'
import scanLoginRoutes from './scan-login-routes'
import spaceRoutes from './space-routes'
import userRoutes from './user-routes'
import walletRoutes from './wallet-routes'

export interface ApiOptions extends ApiRouteOptions {
  /** Register the sandbox adapters' own routes (sandbox-routes.ts): never in production. */
  sandboxRoutes: boolean
}

/** sandbox-routes.ts is what production leaves out, so no other plugin may add a /sandbox route. */
export function refuseSandboxRoute(route: RouteOptions) {
  if (isSandboxPath(route.url)) {
    throw new Error(`${route.url}: sandbox routes belong in routes/sandbox-routes.ts`)
  }
}

/** Every /vmcloud/api route, grouped by area; the sandbox's own routes only when asked for. */
const apiRoutes: FastifyPluginAsyncTypebox<ApiOptions> = async (
  app,
  { sandboxRoutes: withSandbox, ...options },
) => {
  await app.register(async (product) => {
    product.addHook('onRoute', refuseSandboxRoute)
    await product.register(authRoutes, options)
    await product.register(userRoutes, options)
    await product.register(configRoutes, options)
    await product.register(messageRoutes, options)
    await product.register(goodsRoutes, options)
    await product.register(orderRoutes, options)
    await product.register(couponRoutes, options)
    await product.register(paymentRoutes, options)
    await product.register(activationRoutes, options)
    await product.register(deviceRoutes, options)
    await product.register(autoRenewRoutes, options)
    await product.register(groupRoutes, options)
    await product.register(transferRoutes, options)
    await product.register(grantRoutes, options)
    await product.register(engagementRoutes, options)
    await product.register(spaceRoutes, options)
    await product.register(walletRoutes, options)
    await product.register(activityRoutes, options)
    await product.register(scanLoginRoutes, options)
    await product.register(acepSupplierRoutes, options)
    await product.register(appRoutes, options)
  })
  if (withSandbox) await app.register(sandboxRoutes, options)
}

export default apiRoutes
