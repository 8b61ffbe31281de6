import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import authRoutes from './auth-routes'
import configRoutes from './config-routes'
import messageRoutes from './message-routes'
import type { ApiRouteOptions } from './route-options'
import userRoutes from './user-routes'

/** Every /vmcloud/api route, grouped by area. */
const apiRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app, options) => {
  await app.register(authRoutes, options)
  await app.register(userRoutes, options)
  await app.register(configRoutes, options)
  await app.register(messageRoutes, options)
}

export default apiRoutes
