import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import fastifyCookie from '@fastify/cookie'
import { addAdminAuthHook } from '../plugins/admin-auth'
import adminCatalogueRoutes from './admin-catalogue-routes'
import adminOrderRoutes from './admin-order-routes'
import adminCouponRoutes from './admin-coupon-routes'
import adminDeviceRoutes from './admin-device-routes'
import adminMessageRoutes from './admin-message-routes'
import adminOperatorRoutes from './admin-operator-routes'
import adminOverviewRoutes from './admin-overview-routes'
import adminUserRoutes from './admin-user-routes'
import adminSessionRoutes from './admin-session-routes'
import adminSettingsRoutes from './admin-settings-routes'

/** Sign-in attempts allowed per IP per minute, and per name from one IP per 15 minutes. */
export interface SignInLimits {
  perIpPerMinute: number
  perNameAndIpPer15Minutes: number
}

export interface AdminApiOptions {
  /** The session cookie is Secure (production: the console is served over HTTPS). */
  secureCookie: boolean
  /** null: no limit (tests). */
  signInLimits: SignInLimits | null
}

/**
 * Every /vmcloud/admin/api route (registered with that prefix in app.ts): the operator console's API,
 * behind its own hook (plugins/admin-auth.ts). Cookies are parsed here only, not for the user API.
 */
const adminRoutes: FastifyPluginAsyncTypebox<AdminApiOptions> = async (admin, options) => {
  // only this plugin's own options: the prefix it was registered with must not prefix them again
  const { secureCookie, signInLimits } = options
  await admin.register(fastifyCookie)
  addAdminAuthHook(admin)
  await admin.register(adminSessionRoutes, { secureCookie, signInLimits })
  await admin.register(adminOperatorRoutes, { secureCookie, signInLimits })
  await admin.register(adminOverviewRoutes, { secureCookie, signInLimits })
  await admin.register(adminCatalogueRoutes, { secureCookie, signInLimits })
  await admin.register(adminUserRoutes, { secureCookie, signInLimits })
  await admin.register(adminOrderRoutes, { secureCookie, signInLimits })
  await admin.register(adminDeviceRoutes, { secureCookie, signInLimits })
  await admin.register(adminCouponRoutes, { secureCookie, signInLimits })
  await admin.register(adminMessageRoutes, { secureCookie, signInLimits })
  await admin.register(adminSettingsRoutes, { secureCookie, signInLimits })
}

export default adminRoutes
