import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import {
  AdminDeviceDetail,
  AdminDevicePage,
  AdminDeviceRow,
  AdminJobPage,
  AdminJobRow,
  DeviceIdParams,
  DeviceSearchQuery,
  JobIdParams,
  JobSearchQuery,
  ReleaseDeviceBody,
  ResetDeviceBody,
} from '../contract/devices'
import { Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { ConsoleApiOptions } from './options'

const actor = (request: FastifyRequest): Actor => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/**
 * /devices and /jobs: find and read (every role), retry a failed provisioning or job, reset or release a
 * phone.
 */
const adminDeviceRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { devices: adminDevices } = admin.console
  const tags = ['运营后台']
  const view = { operatorRoles: OPERATOR_PERMISSIONS.view }
  const retry = { operatorRoles: OPERATOR_PERMISSIONS.retryJobs }
  const release = { operatorRoles: OPERATOR_PERMISSIONS.releasePhones }
  const reset = { operatorRoles: OPERATOR_PERMISSIONS.resetPhones }
  const deviceRow = { 200: Envelope(AdminDeviceRow) }

  admin.get(
    '/devices',
    {
      schema: {
        tags,
        querystring: DeviceSearchQuery,
        response: { 200: Envelope(AdminDevicePage) },
      },
      config: view,
    },
    async (request) => ok(await adminDevices.search(request.query)),
  )

  admin.get(
    '/devices/:id',
    {
      schema: { tags, params: DeviceIdParams, response: { 200: Envelope(AdminDeviceDetail) } },
      config: view,
    },
    async (request) => ok(await adminDevices.detail(request.params.id)),
  )

  admin.post(
    '/devices/:id/retry-provision',
    { schema: { tags, params: DeviceIdParams, response: deviceRow }, config: retry },
    async (request) => ok(await adminDevices.retryProvision(actor(request), request.params.id)),
  )

  admin.post(
    '/devices/:id/release',
    {
      schema: { tags, params: DeviceIdParams, body: ReleaseDeviceBody, response: deviceRow },
      config: release,
    },
    async (request) =>
      ok(await adminDevices.release(actor(request), request.params.id, request.body.reason)),
  )

  admin.post(
    '/devices/:id/reset',
    {
      schema: { tags, params: DeviceIdParams, body: ResetDeviceBody, response: deviceRow },
      config: reset,
    },
    async (request) =>
      ok(await adminDevices.reset(actor(request), request.params.id, request.body.reason)),
  )

  admin.get(
    '/jobs',
    {
      schema: { tags, querystring: JobSearchQuery, response: { 200: Envelope(AdminJobPage) } },
      config: view,
    },
    async (request) => ok(await adminDevices.jobs(request.query)),
  )

  admin.post(
    '/jobs/:id/retry',
    {
      schema: { tags, params: JobIdParams, response: { 200: Envelope(AdminJobRow) } },
      config: retry,
    },
    async (request) => ok(await adminDevices.retryJob(actor(request), request.params.id)),
  )
}

export default adminDeviceRoutes
