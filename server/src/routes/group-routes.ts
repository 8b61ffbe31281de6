import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope } from '../contract/common'
import {
  CreateGroupBody,
  DeleteGroupBody,
  DeleteGroupResult,
  DeviceGroup,
  GroupList,
  MoveDevicesBody,
  MoveDevicesResult,
  RenameGroupBody,
  SortGroupsBody,
} from '../contract/group'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

/** /group/*: the caller's device groups. */
const groupRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { groups } = app.services
  const tags = ['分组']
  const security = bearer

  app.get(
    '/group/list',
    { schema: { tags, security, response: { 200: Envelope(GroupList) } } },
    async (request) => ok(await groups.list(currentUser(request).userId)),
  )

  app.post(
    '/group/create',
    { schema: { tags, security, body: CreateGroupBody, response: { 200: Envelope(DeviceGroup) } } },
    async (request) =>
      ok(
        await groups.create(currentUser(request).userId, request.body.name, request.body.deviceIds),
      ),
  )

  app.post(
    '/group/rename',
    { schema: { tags, security, body: RenameGroupBody, response: { 200: Envelope(DeviceGroup) } } },
    async (request) =>
      ok(await groups.rename(currentUser(request).userId, request.body.groupId, request.body.name)),
  )

  app.post(
    '/group/delete',
    {
      schema: {
        tags,
        security,
        body: DeleteGroupBody,
        response: { 200: Envelope(DeleteGroupResult) },
      },
    },
    async (request) => ok(await groups.delete(currentUser(request).userId, request.body.groupId)),
  )

  app.post(
    '/group/sort',
    { schema: { tags, security, body: SortGroupsBody, response: { 200: Envelope(GroupList) } } },
    async (request) => ok(await groups.sort(currentUser(request).userId, request.body.groupIds)),
  )

  app.post(
    '/group/moveDevices',
    {
      schema: {
        tags,
        security,
        body: MoveDevicesBody,
        response: { 200: Envelope(MoveDevicesResult) },
      },
    },
    async (request) =>
      ok(
        await groups.moveDevices(
          currentUser(request).userId,
          request.body.deviceIds,
          request.body.groupId,
        ),
      ),
  )
}

export default groupRoutes
