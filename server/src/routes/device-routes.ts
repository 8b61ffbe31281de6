import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Envelope, Paged } from '../contract/common'
import {
  AuthTokenResult,
  BatchCommandBody,
  ChangeZoneBody,
  CommandResult,
  Device,
  DeviceCommandBody,
  DeviceCover,
  DeviceIdBody,
  DeviceIdQuery,
  DeviceListQuery,
  DeviceModel,
  DeviceSummary,
  RenameDeviceBody,
  SetModelBody,
  SystemUpdateProgress,
} from '../contract/device'
import { currentUser } from '../plugins/auth'
import { ok, sendOkJson } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

/** /device/* and the control-page token (/user/getAuthToken); every call is about the caller's phones. */
const deviceRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { devices, deviceAuth } = app.services
  const tags = ['云手机']
  const security = bearer
  const reply = <T extends Parameters<typeof Envelope>[0]>(data: T) => ({ 200: Envelope(data) })

  app.get(
    '/device/list',
    { schema: { tags, security, querystring: DeviceListQuery, response: reply(Paged(Device)) } },
    async (request, reply) =>
      sendOkJson(
        request,
        reply,
        await devices.listJson(currentUser(request).userId, request.query),
      ),
  )

  app.get(
    '/device/detail',
    { schema: { tags, security, querystring: DeviceIdQuery, response: reply(Device) } },
    async (request) =>
      ok(await devices.detail(currentUser(request).userId, request.query.deviceId)),
  )

  app.get(
    '/device/summary',
    { schema: { tags, security, response: reply(DeviceSummary) } },
    async (request) => ok(await devices.summary(currentUser(request).userId)),
  )

  app.post(
    '/device/rename',
    { schema: { tags, security, body: RenameDeviceBody, response: reply(Device) } },
    async (request) =>
      ok(
        await devices.rename(currentUser(request).userId, request.body.deviceId, request.body.name),
      ),
  )

  app.post(
    '/device/command',
    { schema: { tags, security, body: DeviceCommandBody, response: reply(CommandResult) } },
    async (request) => ok(await devices.command(currentUser(request).userId, request.body)),
  )

  app.post(
    '/device/batchCommand',
    {
      schema: {
        tags,
        security,
        body: BatchCommandBody,
        response: reply(Type.Array(CommandResult)),
      },
    },
    async (request) => ok(await devices.batchCommand(currentUser(request).userId, request.body)),
  )

  app.get(
    '/device/cover',
    { schema: { tags, security, querystring: DeviceIdQuery, response: reply(DeviceCover) } },
    async (request) => ok(await devices.cover(currentUser(request).userId, request.query.deviceId)),
  )

  app.post(
    '/device/changeZone',
    { schema: { tags, security, body: ChangeZoneBody, response: reply(Device) } },
    async (request) =>
      ok(
        await devices.changeZone(
          currentUser(request).userId,
          request.body.deviceId,
          request.body.zoneId,
        ),
      ),
  )

  app.post(
    '/device/replace',
    { schema: { tags, security, body: DeviceIdBody, response: reply(Device) } },
    async (request) =>
      ok(await devices.replace(currentUser(request).userId, request.body.deviceId)),
  )

  app.post(
    '/device/systemUpdate',
    { schema: { tags, security, body: DeviceIdBody, response: reply(SystemUpdateProgress) } },
    async (request) =>
      ok(await devices.systemUpdate(currentUser(request).userId, request.body.deviceId)),
  )

  app.get(
    '/device/systemUpdateProgress',
    {
      schema: { tags, security, querystring: DeviceIdQuery, response: reply(SystemUpdateProgress) },
    },
    async (request) =>
      ok(await devices.systemUpdateProgress(currentUser(request).userId, request.query.deviceId)),
  )

  app.get(
    '/device/models',
    { schema: { tags, security, response: reply(Type.Array(DeviceModel)) } },
    async () => ok(devices.models()),
  )

  app.post(
    '/device/setModel',
    { schema: { tags, security, body: SetModelBody, response: reply(Device) } },
    async (request) =>
      ok(
        await devices.setModel(
          currentUser(request).userId,
          request.body.deviceId,
          request.body.modelId,
        ),
      ),
  )

  app.get(
    '/user/getAuthToken',
    { schema: { tags, security, querystring: DeviceIdQuery, response: reply(AuthTokenResult) } },
    async (request) =>
      ok(await deviceAuth.issue(currentUser(request).userId, request.query.deviceId)),
  )
}

export default deviceRoutes
