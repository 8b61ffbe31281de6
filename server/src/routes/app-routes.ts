import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { APK_MAX_BYTES, APK_QUOTA, APK_REFUSALS } from '#domain/apps'
import { ResultCode } from '#domain/result-codes'
import { AppItem, AppList, DeleteAppBody } from '../contract/app'
import { Type } from '@sinclair/typebox'
import { Envelope } from '../contract/common'
import { BizError } from '../domain/biz-error'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const MB = 1024 * 1024

/** /app/*: the caller's app library (应用管理): uploads and the operators' catalogue. */
const appRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { apps } = app.services
  const tags = ['应用管理']
  const security = bearer

  app.get(
    '/app/list',
    { schema: { tags, security, response: { 200: Envelope(AppList) } } },
    async (request) => ok(await apps.list(currentUser(request).userId)),
  )

  app.post(
    '/app/upload',
    {
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        description: `multipart field \`file\`: an APK (a zip with AndroidManifest.xml, read before it is kept), at most ${APK_MAX_BYTES / MB} MB; ${APK_QUOTA.files} files / ${APK_QUOTA.bytes / MB} MB a day. A refusal names itself in data.refusal.`,
        response: { 200: Envelope(AppItem) },
      },
    },
    async (request) => {
      const { userId } = currentUser(request)
      const empty = () =>
        new BizError(ResultCode.FILE_EMPTY, APK_REFUSALS.empty, { refusal: 'empty' })
      if (!request.isMultipart()) throw empty()
      const part = await request.file({
        limits: { fileSize: APK_MAX_BYTES, files: 1 },
        throwFileSizeLimit: false,
      })
      if (!part || part.fieldname !== 'file') throw empty()
      const content = await part.toBuffer()
      if (part.file.truncated) {
        throw new BizError(ResultCode.ILLEGAL_FILE, APK_REFUSALS.tooLarge, { refusal: 'tooLarge' })
      }
      return ok(await apps.upload(userId, content))
    },
  )

  app.post(
    '/app/delete',
    { schema: { tags, security, body: DeleteAppBody, response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      await apps.remove(currentUser(request).userId, request.body.appId)
      return ok(null)
    },
  )
}

export default appRoutes
