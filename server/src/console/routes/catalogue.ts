import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
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
  SupplierMapping,
  SupplierMappingBody,
  SupplierMappingParams,
  SupplierMappingRow,
  ZoneIdParams,
} from '../contract/catalogue'
import { Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { ConsoleApiOptions } from './options'

const actor = (request: FastifyRequest): Actor => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/**
 * /catalogue: 商品与价格 — read (every role); prices, goods and zones on sale, stock (editCatalogue);
 * the supplier mapping, read (every role) and set or cleared (editCatalogue).
 */
const adminCatalogueRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { catalogue: adminCatalogue } = admin.console
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

  admin.get(
    '/catalogue/supplier-mapping',
    {
      schema: { tags, response: { 200: Envelope(SupplierMapping) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.view },
    },
    async () => ok(await adminCatalogue.readMapping()),
  )

  admin.post(
    '/catalogue/supplier-mapping/:kind/:id',
    {
      schema: {
        tags,
        params: SupplierMappingParams,
        body: SupplierMappingBody,
        response: { 200: Envelope(SupplierMappingRow) },
      },
      config: edit,
    },
    async (request) =>
      ok(
        await adminCatalogue.setMapping(
          actor(request),
          request.params.kind,
          request.params.id,
          request.body.remoteId,
        ),
      ),
  )
}

export default adminCatalogueRoutes
