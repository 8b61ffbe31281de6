import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import {
  ActivityEditBody,
  AdminActivityRow,
  AdminCommonConfig,
  AdminSeckillItem,
  AdminSettings,
  CommonConfigBody,
  SeckillItemEditBody,
  SettingsIdParams,
} from '../contract/settings'
import { Envelope } from '../../contract/common'
import { currentOperator } from '../plugins/auth'
import { ok } from '../../plugins/envelope'
import type { Actor } from '../services/operator-accounts'
import type { ConsoleApiOptions } from './options'

const actor = (request: FastifyRequest): Actor => ({
  operatorId: currentOperator(request).operator.id,
  ip: request.ip,
})

/** /settings: 设置 — read (every role); common config, activities, flash-sale items (editSettings). */
const adminSettingsRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { settings: adminSettings } = admin.console
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
