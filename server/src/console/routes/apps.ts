import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { OPERATOR_PERMISSIONS } from '#domain/console/operator-roles'
import { AppItem } from '../../contract/app'
import { Envelope } from '../../contract/common'
import { readApkUpload } from '../../plugins/apk-upload'
import { ok } from '../../plugins/envelope'
import { CatalogueAppList, HideAppBody } from '../contract/apps'
import { currentOperator } from '../plugins/auth'
import type { ConsoleApiOptions } from './options'

/** /apps: 应用库, the catalogue of apps users pick from (read by every role, kept by the catalogue's). */
const adminAppRoutes: FastifyPluginAsyncTypebox<ConsoleApiOptions> = async (admin) => {
  const { apps } = admin.console
  const tags = ['运营后台']
  const actor = (request: Parameters<typeof currentOperator>[0]) => ({
    operatorId: currentOperator(request).operator.id,
    ip: request.ip,
  })

  admin.get(
    '/apps',
    {
      schema: { tags, response: { 200: Envelope(CatalogueAppList) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.view },
    },
    async () => ok(await apps.list()),
  )

  admin.post(
    '/apps',
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description: 'multipart field `file`: an APK, read as a user upload is (docs/apps.md).',
        response: { 200: Envelope(AppItem) },
      },
      config: { operatorRoles: OPERATOR_PERMISSIONS.editCatalogue },
    },
    async (request) => {
      return ok(await apps.add(actor(request), await readApkUpload(request)))
    },
  )

  admin.post(
    '/apps/hidden',
    {
      schema: { tags, body: HideAppBody, response: { 200: Envelope(AppItem) } },
      config: { operatorRoles: OPERATOR_PERMISSIONS.editCatalogue },
    },
    async (request) =>
      ok(await apps.setHidden(actor(request), request.body.appId, request.body.hidden)),
  )
}

export default adminAppRoutes
