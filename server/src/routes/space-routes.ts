import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyData, Envelope, Paged } from '../contract/common'
import { OrderInfo } from '../contract/order'
import {
  BackupBody,
  CreateSpaceOrderBody,
  DeleteBackupBody,
  DeviceIdQuery,
  DeviceSpace,
  RestoreBody,
  SpaceHistoryQuery,
  SpaceInfo,
  SpacePackages,
  SpaceTask,
  SpaceTaskQuery,
} from '../contract/space'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const spaceRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { space } = app.services
  const tags = ['云空间']
  const security = bearer

  app.get(
    '/space/info',
    { schema: { tags, security, response: { 200: Envelope(SpaceInfo) } } },
    async (request) => ok(await space.info(currentUser(request).userId)),
  )

  app.get(
    '/space/packages',
    { schema: { tags, security, response: { 200: Envelope(SpacePackages) } } },
    async () => ok(space.packages()),
  )

  app.post(
    '/order/createOrder',
    {
      schema: {
        tags,
        security,
        description:
          "An unpaid cloud-space order (business type 4); paying it adds the package's space once, until it expires.",
        body: CreateSpaceOrderBody,
        response: { 200: Envelope(OrderInfo) },
      },
    },
    async (request) => ok(await space.createSpaceOrder(currentUser(request).userId, request.body)),
  )

  app.get(
    '/space/device',
    {
      schema: {
        tags,
        security,
        querystring: DeviceIdQuery,
        response: { 200: Envelope(DeviceSpace) },
      },
    },
    async (request) =>
      ok(await space.deviceSpace(currentUser(request).userId, request.query.deviceId)),
  )

  app.post(
    '/space/backup',
    { schema: { tags, security, body: BackupBody, response: { 200: Envelope(SpaceTask) } } },
    async (request) => ok(await space.backup(currentUser(request).userId, request.body.deviceId)),
  )

  app.post(
    '/space/restore',
    { schema: { tags, security, body: RestoreBody, response: { 200: Envelope(SpaceTask) } } },
    async (request) =>
      ok(
        await space.restore(
          currentUser(request).userId,
          request.body.backupId,
          request.body.deviceId,
        ),
      ),
  )

  app.post(
    '/space/deleteBackup',
    { schema: { tags, security, body: DeleteBackupBody, response: { 200: Envelope(EmptyData) } } },
    async (request) => {
      await space.deleteBackup(currentUser(request).userId, request.body.backupId)
      return ok(null)
    },
  )

  app.get(
    '/space/task',
    {
      schema: {
        tags,
        security,
        querystring: SpaceTaskQuery,
        response: { 200: Envelope(SpaceTask) },
      },
    },
    async (request) => ok(await space.task(currentUser(request).userId, request.query.id)),
  )

  app.get(
    '/space/history',
    {
      schema: {
        tags,
        security,
        querystring: SpaceHistoryQuery,
        response: { 200: Envelope(Paged(SpaceTask)) },
      },
    },
    async (request) => ok(await space.history(currentUser(request).userId, request.query)),
  )
}

export default spaceRoutes
