import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import {
  CouponTemplateBody,
  CouponTemplateList,
  CouponTemplateRow,
  IssueCouponBody,
  IssueCouponResult,
  TemplateIdParams,
} from '../contract/coupons'
import { Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { ConsoleApiOptions } from './options'

const actor = (request: FastifyRequest): Actor => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/** /coupons: templates with their usage (every role); create, edit and issue (manageCoupons). */
const adminCouponRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { coupons: adminCoupons } = admin.console
  const tags = ['运营后台']
  const view = { operatorRoles: OPERATOR_PERMISSIONS.view }
  const manage = { operatorRoles: OPERATOR_PERMISSIONS.manageCoupons }
  const templateRow = { 200: Envelope(CouponTemplateRow) }

  admin.get(
    '/coupons/templates',
    { schema: { tags, response: { 200: Envelope(CouponTemplateList) } }, config: view },
    async () => ok(await adminCoupons.templates()),
  )

  admin.post(
    '/coupons/templates',
    { schema: { tags, body: CouponTemplateBody, response: templateRow }, config: manage },
    async (request) => ok(await adminCoupons.create(actor(request), request.body)),
  )

  admin.post(
    '/coupons/templates/:id',
    {
      schema: { tags, params: TemplateIdParams, body: CouponTemplateBody, response: templateRow },
      config: manage,
    },
    async (request) => ok(await adminCoupons.edit(actor(request), request.params.id, request.body)),
  )

  admin.post(
    '/coupons/templates/:id/issue',
    {
      schema: {
        tags,
        params: TemplateIdParams,
        body: IssueCouponBody,
        response: { 200: Envelope(IssueCouponResult) },
      },
      config: manage,
    },
    async (request) =>
      ok(await adminCoupons.issue(actor(request), request.params.id, request.body)),
  )
}

export default adminCouponRoutes
