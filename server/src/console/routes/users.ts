import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import {
  AdminUserDetail,
  AdminUserIdParams,
  AdminUserPage,
  AdminUserRow,
  CompanyDecisionBody,
  UserActionReasonBody,
  UserSearchQuery,
} from '../contract/users'
import { Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { ConsoleApiOptions } from './options'

const actor = (request: FastifyRequest): Actor => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/** /users: search and read (every role), freeze and unfreeze, company-buyer decisions. */
const adminUserRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { users: adminUsers } = admin.console
  const tags = ['运营后台']
  const view = { operatorRoles: OPERATOR_PERMISSIONS.view }
  const freeze = { operatorRoles: OPERATOR_PERMISSIONS.freezeUsers }
  const verify = { operatorRoles: OPERATOR_PERMISSIONS.verifyCompanies }
  const params = AdminUserIdParams
  const userRow = { 200: Envelope(AdminUserRow) }

  admin.get(
    '/users',
    {
      schema: { tags, querystring: UserSearchQuery, response: { 200: Envelope(AdminUserPage) } },
      config: view,
    },
    async (request) => ok(await adminUsers.search(request.query)),
  )

  admin.get(
    '/users/:id',
    { schema: { tags, params, response: { 200: Envelope(AdminUserDetail) } }, config: view },
    async (request) => ok(await adminUsers.detail(request.params.id)),
  )

  admin.post(
    '/users/:id/freeze',
    { schema: { tags, params, body: UserActionReasonBody, response: userRow }, config: freeze },
    async (request) =>
      ok(await adminUsers.setFrozen(actor(request), request.params.id, true, request.body.reason)),
  )

  admin.post(
    '/users/:id/unfreeze',
    { schema: { tags, params, body: UserActionReasonBody, response: userRow }, config: freeze },
    async (request) =>
      ok(await adminUsers.setFrozen(actor(request), request.params.id, false, request.body.reason)),
  )

  admin.post(
    '/users/:id/company/verify',
    { schema: { tags, params, body: CompanyDecisionBody, response: userRow }, config: verify },
    async (request) =>
      ok(
        await adminUsers.decideCompany(
          actor(request),
          request.params.id,
          true,
          request.body.reason,
        ),
      ),
  )

  admin.post(
    '/users/:id/company/reject',
    { schema: { tags, params, body: CompanyDecisionBody, response: userRow }, config: verify },
    async (request) =>
      ok(
        await adminUsers.decideCompany(
          actor(request),
          request.params.id,
          false,
          request.body.reason,
        ),
      ),
  )
}

export default adminUserRoutes
