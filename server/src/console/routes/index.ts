import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import fastifyCookie from '@fastify/cookie'
import { addAdminAuthHook } from '../plugins/auth'
import type { ConsoleApiOptions } from './options'
import adminAppRoutes from './apps'
import adminCatalogueRoutes from './catalogue'
import adminOrderRoutes from './orders'
import adminCouponRoutes from './coupons'
import adminDeviceRoutes from './devices'
import adminAutoRenewRoutes from './auto-renew'
import adminMessageRoutes from './messages'
import adminOperatorRoutes from './operators'
import adminOverviewRoutes from './overview'
import adminUserRoutes from './users'
import adminSessionRoutes from './session'
import adminSettingsRoutes from './settings'

/**
 * Every /vmcloud/admin/api route (registered with that prefix by the console's entry, console/index.ts): the operator console's API,
 * behind its own hook (console/plugins/auth.ts). Cookies are parsed here only, not for the user API.
 */
const adminRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin, options) => {
  // only this plugin's own options: the prefix it was registered with must not prefix them again
  const { secureCookie, signInLimits } = options
  await admin.register(fastifyCookie)
  addAdminAuthHook(admin)
  await admin.register(adminSessionRoutes, { secureCookie, signInLimits })
  await admin.register(adminOperatorRoutes, { secureCookie, signInLimits })
  await admin.register(adminOverviewRoutes, { secureCookie, signInLimits })
  await admin.register(adminCatalogueRoutes, { secureCookie, signInLimits })
  await admin.register(adminAppRoutes, { secureCookie, signInLimits })
  await admin.register(adminUserRoutes, { secureCookie, signInLimits })
  await admin.register(adminOrderRoutes, { secureCookie, signInLimits })
  await admin.register(adminDeviceRoutes, { secureCookie, signInLimits })
  await admin.register(adminAutoRenewRoutes, { secureCookie, signInLimits })
  await admin.register(adminCouponRoutes, { secureCookie, signInLimits })
  await admin.register(adminMessageRoutes, { secureCookie, signInLimits })
  await admin.register(adminSettingsRoutes, { secureCookie, signInLimits })
}

export default adminRoutes
