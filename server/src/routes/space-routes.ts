import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyData, Envelope, Paged } from '../contract/common'
import {
  BackupBody,
  DeleteBackupBody,
  DeviceIdQuery,
  DeviceSpace,
  RestoreBody,
  SpaceHistoryQuery,
  SpaceInfo,
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
