import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { APK_MAX_BYTES, APK_QUOTA } from '#domain/apps'
import {
  AppItem,
  AppList,
  DeleteAppBody,
  InstallAppBody,
  InstalledApp,
  InstalledAppsQuery,
  InstallProgress,
  InstallQuery,
  InstallResult,
  InstallResultsQuery,
  LaunchAppBody,
} from '../contract/app'
import { Type } from '@sinclair/typebox'
import { Envelope, Paged } from '../contract/common'
import { tip } from '../domain/biz-error'
import { currentUser } from '../plugins/auth'
import { readApkUpload } from '../plugins/apk-upload'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const MB = 1024 * 1024

/** /app/*: the caller's app library (应用管理): uploads and the operators' catalogue. */
const appRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { apps, appInstalls } = app.services
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
      return ok(await apps.upload(userId, await readApkUpload(request)))
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

  app.post(
    '/app/install',
    {
      schema: {
        tags,
        security,
        description:
          'One app onto phones as one batch: deviceIds (at most 10,000), groupId, or all (全选), exactly one. Phones not yours, view-only, expired or not running are skipped at once; the rest install in the background (progress, results).',
        body: InstallAppBody,
        response: { 200: Envelope(InstallProgress) },
      },
    },
    async (request) => {
      const { appId, deviceIds, groupId, all } = request.body
      const given = [deviceIds !== undefined, groupId !== undefined, all === true]
      if (given.filter(Boolean).length !== 1) throw tip('请选择云手机')
      const selection = deviceIds
        ? { deviceIds }
        : groupId !== undefined
          ? { groupId }
          : { all: true as const }
      return ok(await appInstalls.start(currentUser(request).userId, appId, selection))
    },
  )

  app.get(
    '/app/install/progress',
    {
      schema: {
        tags,
        security,
        querystring: InstallQuery,
        response: { 200: Envelope(InstallProgress) },
      },
    },
    async (request) =>
      ok(await appInstalls.progress(currentUser(request).userId, request.query.installId)),
  )

  app.get(
    '/app/install/latest',
    {
      schema: {
        tags,
        security,
        description:
          "The caller's newest batch install while it runs and for an hour after it ended, else null (应用管理 opened during a batch).",
        response: { 200: Envelope(InstallProgress) },
      },
    },
    async (request) => ok(await appInstalls.latest(currentUser(request).userId)),
  )

  app.get(
    '/app/install/results',
    {
      schema: {
        tags,
        security,
        description: "Each phone's result, failed and skipped first.",
        querystring: InstallResultsQuery,
        response: { 200: Envelope(Paged(InstallResult)) },
      },
    },
    async (request) => {
      const { installId, page = 1, rows = 20 } = request.query
      return ok(await appInstalls.results(currentUser(request).userId, installId, page, rows))
    },
  )

  app.get(
    '/app/installed',
    {
      schema: {
        tags,
        security,
        description: "A phone's installed apps (the owner's, or a grantee's with control).",
        querystring: InstalledAppsQuery,
        response: { 200: Envelope(Type.Array(InstalledApp)) },
      },
    },
    async (request) =>
      ok(await appInstalls.installed(currentUser(request).userId, request.query.deviceId)),
  )

  app.post(
    '/app/launch',
    { schema: { tags, security, body: LaunchAppBody, response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      const { deviceId, packageName } = request.body
      await appInstalls.launch(currentUser(request).userId, deviceId, packageName)
      return ok(null)
    },
  )
}

export default appRoutes
