import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/operator-roles'
import {
  AdminCatalogue,
  AdminPriceRow,
  AdminStockRow,
  GoodsIdParams,
  OnSaleBody,
  OnSaleRow,
  PriceEditBody,
  PriceIdParams,
  StockEditBody,
  StockParams,
  ZoneIdParams,
} from '../contract/admin-catalogue'
import { Envelope } from '../contract/common'
import { currentOperator } from '../plugins/admin-auth'
import { ok } from '../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { AdminApiOptions } from './admin-routes'

const actor = (request: FastifyRequest): Actor => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/** /catalogue: 商品与价格 — read (every role); prices, goods and zones on sale, stock (editCatalogue). */
const adminCatalogueRoutes: FastifyPluginAsyncTypebox<AdminApiOptions> = async (admin) => {
  const { adminCatalogue } = admin.services
  const tags = ['运营后台']
  const edit = { operatorRoles: OPERATOR_PERMISSIONS.editCatalogue }

  admin.get(
    '/catalogue',
    {
      schema: { tags, response: { 200: Envelope(AdminCatalogue) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.view },
    },
    async () => ok(await adminCatalogue.read()),
  )

  admin.post(
    '/catalogue/prices/:id',
    {
      schema: {
        tags,
        params: PriceIdParams,
        body: PriceEditBody,
        response: { 200: Envelope(AdminPriceRow) },
      },
      config: edit,
    },
    async (request) =>
      ok(await adminCatalogue.editPrice(actor(request), request.params.id, request.body)),
  )

  admin.post(
    '/catalogue/goods/:id/on-sale',
    {
      schema: {
        tags,
        params: GoodsIdParams,
        body: OnSaleBody,
        response: { 200: Envelope(OnSaleRow) },
      },
      config: edit,
    },
    async (request) =>
      ok(await adminCatalogue.setOnSale(actor(request), request.params.id, request.body)),
  )

  admin.post(
    '/catalogue/zones/:id/on-sale',
    {
      schema: {
        tags,
        params: ZoneIdParams,
        body: OnSaleBody,
        response: { 200: Envelope(OnSaleRow) },
      },
      config: edit,
    },
    async (request) =>
      ok(await adminCatalogue.setZoneOnSale(actor(request), request.params.id, request.body)),
  )

  admin.post(
    '/catalogue/stock/:goodId/:zoneId',
    {
      schema: {
        tags,
        params: StockParams,
        body: StockEditBody,
        response: { 200: Envelope(AdminStockRow) },
      },
      config: edit,
    },
    async (request) =>
      ok(
        await adminCatalogue.setStock(
          actor(request),
          request.params.goodId,
          request.params.zoneId,
          request.body,
        ),
      ),
  )
}

export default adminCatalogueRoutes
