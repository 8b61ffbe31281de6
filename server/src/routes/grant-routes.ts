import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Envelope, Paged } from '../contract/common'
import {
  AcceptShareResult,
  CreateGrantBody,
  CreateGrantResult,
  CreateShareBody,
  GrantListQuery,
  GrantView,
  RevokeGrantsBody,
  ShareCode,
  ShareCodeQuery,
  SharePreview,
} from '../contract/grant'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

/** /device/empower*: the authorisation center (grants by number or by QR share, and revoking them). */
const grantRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { grants } = app.services
  const tags = ['授权']
  const security = bearer
  const me = (request: Parameters<typeof currentUser>[0]) => currentUser(request).userId

  app.post(
    '/device/empower',
    {
      schema: {
        tags,
        security,
        body: CreateGrantBody,
        response: { 200: Envelope(CreateGrantResult) },
      },
    },
    async (request) => ok(await grants.grant(me(request), request.body)),
  )

  app.get(
    '/device/empower/list',
    {
      schema: {
        tags,
        security,
        querystring: GrantListQuery,
        response: { 200: Envelope(Paged(GrantView)) },
      },
    },
    async (request) => ok(await grants.list(me(request), request.query.direction, request.query)),
  )

  app.post(
    '/device/empower/revoke',
    {
      schema: {
        tags,
        security,
        body: RevokeGrantsBody,
        response: { 200: Envelope(Type.Object({ count: Type.Integer() })) },
      },
    },
    async (request) => ok(await grants.revoke(me(request), request.body.grantIds)),
  )

  app.post(
    '/device/empower/share',
    { schema: { tags, security, body: CreateShareBody, response: { 200: Envelope(ShareCode) } } },
    async (request) => ok(await grants.createShare(me(request), request.body)),
  )

  app.get(
    '/device/empower/share',
    {
      schema: {
        tags,
        security,
        querystring: ShareCodeQuery,
        response: { 200: Envelope(SharePreview) },
      },
    },
    async (request) => ok(await grants.previewShare(me(request), request.query.code)),
  )

  app.post(
    '/device/empower/acceptShare',
    {
      schema: {
        tags,
        security,
        body: ShareCodeQuery,
        response: { 200: Envelope(AcceptShareResult) },
      },
    },
    async (request) => ok(await grants.acceptShare(me(request), request.body.code)),
  )
}

export default grantRoutes
