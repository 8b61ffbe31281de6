import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { OPERATOR_PERMISSIONS } from '#domain/operator-roles'
import { AdminOverview } from '../contract/admin-overview'
import { Envelope } from '../contract/common'
import { ok } from '../plugins/envelope'
import type { AdminApiOptions } from './admin-routes'

/** /overview: the console's 概览 (every role reads it; reading only, so no audit row). */
const adminOverviewRoutes: FastifyPluginAsyncTypebox<AdminApiOptions> = async (admin) => {
  const { adminOverview } = admin.services

  admin.get(
    '/overview',
    {
      schema: { tags: ['运营后台'], response: { 200: Envelope(AdminOverview) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.view },
    },
    async () => ok(await adminOverview.read()),
  )
}

export default adminOverviewRoutes
