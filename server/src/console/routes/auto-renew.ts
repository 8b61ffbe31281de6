import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import {
  AdminAutoRenewPage,
  AdminDeviceAutoRenew,
  AutoRenewFailureQuery,
} from '../contract/auto-renew'
import { DeviceIdParams } from '../contract/devices'
import { Envelope } from '../../contract/common'
import { ok } from '../../plugins/envelope'
import type { ConsoleApiOptions } from './options'

/** 自动续费 as operators read it (every role): a phone's setting, and the failures of the current cycle. */
const adminAutoRenewRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { autoRenew } = admin.console
  const tags = ['运营后台']
  const view = { operatorRoles: OPERATOR_PERMISSIONS.view }

  admin.get(
    '/auto-renew/failures',
    {
      schema: {
        tags,
        querystring: AutoRenewFailureQuery,
        response: { 200: Envelope(AdminAutoRenewPage) },
      },
      config: view,
    },
    async (request) => ok(await autoRenew.failures(request.query)),
  )

  admin.get(
    '/devices/:id/auto-renew',
    {
      schema: { tags, params: DeviceIdParams, response: { 200: Envelope(AdminDeviceAutoRenew) } },
      config: view,
    },
    async (request) => ok(await autoRenew.ofDevice(request.params.id)),
  )
}

export default adminAutoRenewRoutes
