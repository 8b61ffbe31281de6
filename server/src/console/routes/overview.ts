import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import { AdminOverview } from '../contract/overview'
import { Envelope } from '../../contract/common'
import { ok } from '../../plugins/envelope'
import type { ConsoleApiOptions } from './options'

/** /overview: the console's 概览 (every role reads it; reading only, so no audit row). */
const adminOverviewRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { overview: adminOverview } = admin.console

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
