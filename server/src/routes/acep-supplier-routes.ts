import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import { AcepSupplier } from '../adapters/supplier/acep/acep-supplier'
import { CONTROL_KEYS } from '#domain/control-page'
import { Envelope } from '../contract/common'
import { BizError } from '../domain/biz-error'
import { ok } from '../plugins/envelope'
import type { ApiRouteOptions } from './route-options'
import {
  registerControlRoutes,
  SessionQuery,
  plainText,
  StreamKeys,
  streamingPhone,
} from './supplier-control-routes'

/** A screen URL's frame time and its pass (services/devices/screen-access.ts). */
const CoverQuery = Type.Object({
  t: Type.Optional(Type.String({ maxLength: 20 })),
  d: Type.Optional(Type.String({ maxLength: 20 })),
  v: Type.Optional(Type.String({ maxLength: 20 })),
  e: Type.Optional(Type.String({ maxLength: 20 })),
  s: Type.Optional(Type.String({ maxLength: 64 })),
})

/** The biggest screenshot we relay. */
const MAX_SCREEN_BYTES = 4 * 1024 * 1024

/** Stream keys a page session may ask for within STREAM_KEYS_WINDOW_MS (a start and a few restarts). */
export const STREAM_KEYS_PER_WINDOW = 5
export const STREAM_KEYS_WINDOW_MS = 10 * 60_000

/**
 * Our own routes for the ACEP supplier (registered only when it runs): the control page and its calls
 * (supplier-control-routes.ts), with ACEP's live stream when the operator gave its web SDK (the SDK file
 * and the stream's short-lived keys); ACEP's callback service, which is verified before anything is
 * read; and the screen relay, which admits a viewer's pass before it fetches the pod's last screenshot
 * from ACEP's storage (the storage address never reaches a browser).
 * Public: ACEP, the image tags and the control page arrive without our login headers.
 */
const acepSupplierRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const supplier = app.services.ctx.supplier
  if (!(supplier instanceof AcepSupplier)) return
  const acep: AcepSupplier = supplier
  const { screens, apps, files } = app.services
  const { clock } = app.services.ctx
  const { stream } = acep
  const tags = ['supplier']

  // The page shows the pod's screen: ACEP's live stream when its SDK is here, else a fresh screenshot
  // every 3 s (relayed behind the viewer's pass) and says so.
  registerControlRoutes(app, {
    prefix: '/supplier/acep',
    tags,
    stream: stream ? { sdkUrl: stream.sdk.path, profiles: stream.settings.profiles } : null,
    pageConfig: { connectSrc: stream?.settings.connectSrc ?? [] },
    // Each poll asks ACEP for a new screenshot; the relay shows the last one it reported.
    screenUrl: async ({ device, instanceId, screenPass }) =>
      device.status === DeviceStatus.running && instanceId && screenPass
        ? (await acep.cover(instanceId, screenPass)).url
        : null,
    pressKey: ({ instanceId }, key) =>
      acep.pressKey(instanceId!, CONTROL_KEYS[key].keycode, `已按下${CONTROL_KEYS[key].label}`),
  })

  if (stream) {
    // The operator's copy of Volcengine's SDK, named by its hash: cached for good, replaced by a restart.
    app.get(
      stream.sdk.path.slice('/vmcloud/api'.length),
      {
        config: { public: true },
        schema: { tags, description: "Volcengine's vePhoneSDK-Web.js, as the operator gave it." },
      },
      async (_request, reply) =>
        reply
          .type('application/javascript; charset=utf-8')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(stream.sdk.bytes),
    )

    // Per page session, in this process: each answer costs an STS call.
    const asked = new Map<string, number[]>()
    app.get(
      '/supplier/acep/control/stream',
      {
        config: { public: true },
        schema: {
          tags,
          description:
            "Short-lived STS keys for the live stream of the session's phone (15 min, this pod only).",
          querystring: SessionQuery,
          response: { 200: Envelope(StreamKeys) },
        },
      },
      async (request) => {
        const { session, instanceId } = await streamingPhone(app, request.query.session)
        const now = clock.now().getTime()
        const key = request.query.session
        const recent = (asked.get(key) ?? []).filter((at) => at > now - STREAM_KEYS_WINDOW_MS)
        if (recent.length >= STREAM_KEYS_PER_WINDOW) {
          throw new BizError(ResultCode.SHOW_ERROR_TIPS, '操作太频繁，请稍后再试')
        }
        asked.set(key, [...recent, now])
        for (const [other, times] of asked) {
          if (times.every((at) => at <= now - STREAM_KEYS_WINDOW_MS)) asked.delete(other)
        }
        const keys = await stream
          .keys(instanceId, `cp-u${session.userId}-d${session.deviceId}`)
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'ACEP stream keys: STS AssumeRole failed')
            throw new BizError(ResultCode.SHOW_ERROR_TIPS, '实时画面暂不可用，请稍后再试')
          })
        return ok({ ...keys, userId: `u${session.userId}` })
      },
    )
  }

  await app.register(async (callback) => {
    // The signature covers the exact bytes ACEP sent: keep the body as a string here.
    callback.removeContentTypeParser('application/json')
    callback.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    )
    callback.post(
      '/supplier/acep/callback',
      {
        config: { public: true },
        schema: {
          tags,
          description:
            "ACEP's callback service (回调服务): task events (a task ACEP reports is asked about at once), instance status and the console's Ping.",
        },
      },
      async (request, reply) => {
        const raw = typeof request.body === 'string' ? request.body : ''
        const check = await acep.acceptCallback(request.headers, raw)
        if (!check.ok) {
          // Why, never the header's signature or our keys: docs/deploy.md says how to read it.
          request.log.warn(
            { reason: check.reason, skewSeconds: check.skewSeconds, bodyBytes: raw.length },
            'ACEP callback refused',
          )
          return reply.code(401).send({ code: 401, msg: 'unauthorized' })
        }
        // A code, as the guide asks of a Ping (连通性测试); every accepted event gets the same answer.
        return reply.send({ code: 0, msg: 'success' })
      },
    )
  })

  // ACEP's app centre fetches an APK here (UploadApp's DownloadUrl, acep-apps.ts): the address is
  // signed for one app and expires; the APK itself is never public.
  app.get(
    '/supplier/acep/apk/:appId',
    {
      config: { public: true },
      schema: {
        tags,
        description:
          "An app's APK for ACEP's UploadApp, behind the short-lived signature we gave it.",
        params: Type.Object({ appId: Type.Integer({ minimum: 1 }) }),
        querystring: Type.Object({
          e: Type.Optional(Type.String({ maxLength: 20 })),
          s: Type.Optional(Type.String({ maxLength: 64 })),
        }),
      },
    },
    async (request, reply) => {
      const { appId } = request.params
      if (!acep.apps.apkDownloadAllowed(appId, request.query.e, request.query.s)) {
        return plainText(reply, 403, 'forbidden')
      }
      const apk = await apps.apkOf(appId)
      if (!apk) return plainText(reply, 404, 'not found')
      return reply
        .type('application/vnd.android.package-archive')
        .header('cache-control', 'no-store')
        .send(await files.readApk(apk))
    },
  )

  app.get(
    '/supplier/acep/cover/:podId',
    {
      config: { public: true },
      schema: {
        tags,
        description:
          "A pod's last screenshot, for the viewer its signed pass names, while they may see the phone.",
        params: Type.Object({ podId: Type.String({ pattern: '^[0-9A-Za-z_-]{1,40}$' }) }),
        querystring: CoverQuery,
      },
    },
    async (request, reply) => {
      const plain = (code: number, text: string) => plainText(reply, code, text)
      if (!(await screens.admits(request.params.podId, request.query)))
        return plain(403, 'forbidden')
      const address = await acep.screenAddress(request.params.podId)
      if (!address) return plain(404, 'not found')
      const upstream = await fetch(address, { signal: AbortSignal.timeout(10_000) }).catch(
        () => null,
      )
      const type = upstream?.headers.get('content-type') ?? ''
      if (!upstream?.ok || !/^image\/(png|jpeg|webp)$/.test(type)) return plain(502, 'unavailable')
      const bytes = Buffer.from(await upstream.arrayBuffer())
      if (bytes.length > MAX_SCREEN_BYTES) return plain(502, 'unavailable')
      return reply.type(type).header('cache-control', 'private, max-age=5').send(bytes)
    },
  )
}

export default acepSupplierRoutes
