import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/operator-roles'
import {
  ActivityEditBody,
  AdminActivityRow,
  AdminCommonConfig,
  AdminSeckillItem,
  AdminSettings,
  CommonConfigBody,
  SeckillItemEditBody,
  SettingsIdParams,
} from '../contract/admin-settings'
import { Envelope } from '../contract/common'
import { currentOperator } from '../plugins/admin-auth'
import { ok } from '../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { AdminApiOptions } from './admin-routes'

const actor = (request: FastifyRequest): Actor => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/** /settings: 设置 — read (every role); common config, activities, flash-sale items (editSettings). */
const adminSettingsRoutes: FastifyPluginAsyncTypebox<AdminApiOptions> = async (admin) => {
  const { adminSettings } = admin.services
  const tags = ['运营后台']
  const edit = { operatorRoles: OPERATOR_PERMISSIONS.editSettings }

  admin.get(
    '/settings',
    {
      schema: { tags, response: { 200: Envelope(AdminSettings) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.view },
    },
    async () => ok(await adminSettings.read()),
  )

  admin.post(
    '/settings/common',
    {
      schema: { tags, body: CommonConfigBody, response: { 200: Envelope(AdminCommonConfig) } },
      config: edit,
    },
    async (request) => ok(await adminSettings.editCommon(actor(request), request.body)),
  )

  admin.post(
    '/settings/activities/:id',
    {
      schema: {
        tags,
        params: SettingsIdParams,
        body: ActivityEditBody,
        response: { 200: Envelope(AdminActivityRow) },
      },
      config: edit,
    },
    async (request) =>
      ok(await adminSettings.editActivity(actor(request), request.params.id, request.body)),
  )

  admin.post(
    '/settings/seckill-items/:id',
    {
      schema: {
        tags,
        params: SettingsIdParams,
        body: SeckillItemEditBody,
        response: { 200: Envelope(AdminSeckillItem) },
      },
      config: edit,
    },
    async (request) =>
      ok(await adminSettings.editSeckillItem(actor(request), request.params.id, request.body)),
  )
}

export default adminSettingsRoutes
