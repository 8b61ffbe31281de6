import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import {
  AdminOrderDetail,
  AdminOrderIdParams,
  AdminOrderPage,
  OrderFilter,
  OrderSearchQuery,
  RefundOrderBody,
} from '../contract/orders'
import { Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { ConsoleApiOptions } from './options'

const actor = (request: FastifyRequest): Actor => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/** /orders: search and read (every role), the refund (finance), the CSV export (admin, finance). */
const adminOrderRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { orders: adminOrders } = admin.console
  const tags = ['运营后台']
  const view = { operatorRoles: OPERATOR_PERMISSIONS.view }
  const detail = { 200: Envelope(AdminOrderDetail) }

  admin.get(
    '/orders',
    {
      schema: { tags, querystring: OrderSearchQuery, response: { 200: Envelope(AdminOrderPage) } },
      config: view,
    },
    async (request) => ok(await adminOrders.search(request.query)),
  )

  // Streamed as it is read: an export of every order never sits in memory.
  admin.get(
    '/orders.csv',
    {
      schema: {
        tags,
        querystring: OrderFilter,
        produces: ['text/csv'],
        description: "UTF-8 with BOM; amounts in 元; cells starting = + - @ get a leading '.",
      },
      config: { operatorRoles: OPERATOR_PERMISSIONS.exportOrders },
    },
    async (request, reply) => {
      const lines = await adminOrders.exportCsv(actor(request), request.query)
      const stamp = new Date().toISOString().slice(0, 10).replace(/-/g, '')
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines))
    },
  )

  admin.get(
    '/orders/:id',
    { schema: { tags, params: AdminOrderIdParams, response: detail }, config: view },
    async (request) => ok(await adminOrders.detail(request.params.id)),
  )

  admin.post(
    '/orders/:id/refund',
    {
      schema: { tags, params: AdminOrderIdParams, body: RefundOrderBody, response: detail },
      config: { operatorRoles: OPERATOR_PERMISSIONS.refundOrders },
    },
    async (request) =>
      ok(await adminOrders.refund(actor(request), request.params.id, request.body.reason)),
  )
}

export default adminOrderRoutes
