import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import {
  AuditPage,
  AuditQuery,
  ChangeOperatorPasswordBody,
  CreatedOperator,
  CreateOperatorBody,
  OperatorIdParams,
  OperatorList,
  OperatorRow,
} from '../contract'
import { EmptyData, Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { ConsoleApiOptions } from './options'

const actor = (request: FastifyRequest): Actor & { operatorId: number } => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/** /operators and /audit: operator accounts (admin), one's own password (anyone), the audit log (admin). */
const adminOperatorRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { operators, audit: operatorAudit } = admin.console
  const tags = ['运营后台']
  const manage = { operatorRoles: OPERATOR_PERMISSIONS.manageOperators }

  admin.get(
    '/operators',
    { schema: { tags, response: { 200: Envelope(OperatorList) } }, config: manage },
    async () => ok(await operators.list()),
  )

  admin.post(
    '/operators',
    {
      schema: { tags, body: CreateOperatorBody, response: { 200: Envelope(CreatedOperator) } },
      config: manage,
    },
    async (request) => ok(await operators.create(actor(request), request.body)),
  )

  admin.post(
    '/operators/:id/disable',
    {
      schema: { tags, params: OperatorIdParams, response: { 200: Envelope(OperatorRow) } },
      config: manage,
    },
    async (request) => ok(await operators.setDisabled(actor(request), request.params.id, true)),
  )

  admin.post(
    '/operators/:id/enable',
    {
      schema: { tags, params: OperatorIdParams, response: { 200: Envelope(OperatorRow) } },
      config: manage,
    },
    async (request) => ok(await operators.setDisabled(actor(request), request.params.id, false)),
  )

  admin.post(
    '/operators/me/password',
    {
      schema: { tags, body: ChangeOperatorPasswordBody, response: { 200: Envelope(EmptyData) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.ownAccount },
    },
    async (request) => {
      await operators.changePassword(
        actor(request),
        currentOperator(request).tokenHash,
        request.body,
      )
      return ok(null)
    },
  )

  admin.get(
    '/audit',
    {
      schema: { tags, querystring: AuditQuery, response: { 200: Envelope(AuditPage) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.readAudit },
    },
    async (request) => ok(await operatorAudit.page(request.query)),
  )
}

export default adminOperatorRoutes
