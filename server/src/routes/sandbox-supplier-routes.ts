import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { CONTROL_KEYS } from '#domain/control-page'
import { renderScreen } from '../adapters/supplier/sandbox/screen'
import { SANDBOX_PREFIX, SandboxSupplier } from '../adapters/supplier/sandbox/sandbox-supplier'
import { Envelope } from '../contract/common'
import { ok } from '../plugins/envelope'
import type { ApiRouteOptions } from './route-options'
import {
  controlBuild,
  registerControlRoutes,
  SessionQuery,
  plainText,
  StreamKeys,
  streamingPhone,
} from './supplier-control-routes'

/** The sandbox's stream keys last as ACEP's do (acep/stream.ts STREAM_KEY_TTL_S). */
const STREAM_KEY_TTL_MS = 15 * 60_000
/** The sandbox's 清晰度档位 ids (its stream has one picture; the SDK stand-in checks the id). */
const SANDBOX_PROFILES = { auto: 1, hd: 2, sd: 3, smooth: 4 }

/** A screen URL's frame time and its pass (services/devices/screen-access.ts). */
const CoverQuery = Type.Object({
  t: Type.Optional(Type.String({ maxLength: 20 })),
  d: Type.Optional(Type.String({ maxLength: 20 })),
  v: Type.Optional(Type.String({ maxLength: 20 })),
  e: Type.Optional(Type.String({ maxLength: 20 })),
  s: Type.Optional(Type.String({ maxLength: 64 })),
})

/**
 * The sandbox supplier's own pages, as a real supplier would host them: the control page web_instance
 * opens with its state and command calls (supplier-control-routes.ts), and the screen images.
 * Public: the browser arrives without our login headers.
 */
const sandboxSupplierRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const supplier = app.services.ctx.supplier
  if (!(supplier instanceof SandboxSupplier)) return
  const sandbox: SandboxSupplier = supplier
  const { screens } = app.services
  const { clock } = app.services.ctx
  const tags = ['sandbox']
  const config = { public: true }

  // The stream's keys: a pod and a signed, short-lived token for it, checked when the SDK stand-in
  // starts the stream and at every frame (a per-process key: a restart drops open streams, as a
  // supplier's restart would).
  const streamSecret = randomBytes(32)
  const sign = (podId: string, expiresAt: number) =>
    createHmac('sha256', streamSecret).update(`${podId}.${expiresAt}`).digest('base64url')
  const streamToken = (podId: string, expiresAt: number) => `${expiresAt}.${sign(podId, expiresAt)}`
  const tokenAdmits = (podId: string, token: string) => {
    const [at, mac] = token.split('.')
    const expiresAt = Number(at)
    if (!Number.isFinite(expiresAt) || expiresAt <= clock.now().getTime() || !mac) return false
    const want = Buffer.from(sign(podId, expiresAt))
    const got = Buffer.from(mac)
    return want.length === got.length && timingSafeEqual(want, got)
  }

  registerControlRoutes(app, {
    prefix: '/sandbox/supplier',
    tags,
    stream: (() => {
      const sdk = controlBuild()?.sandboxSdk
      return sdk ? { sdkUrl: `${SANDBOX_PREFIX}/assets/${sdk}`, profiles: SANDBOX_PROFILES } : null
    })(),
    extraScript: (session) =>
      `${SANDBOX_PREFIX}/control/floatingBall.js?session=${encodeURIComponent(session)}`,
    screenUrl: async ({ instanceId, screenPass }) =>
      instanceId && screenPass ? sandbox.coverUrl(instanceId, clock.now(), screenPass) : null,
    pressKey: ({ instanceId }, key) => sandbox.pressKey(instanceId!, CONTROL_KEYS[key].label),
  })

  app.get(
    '/sandbox/supplier/control/stream',
    {
      config,
      schema: {
        tags,
        description: "The sandbox stream's keys for the session's phone (the shape of ACEP's).",
        querystring: SessionQuery,
        response: { 200: Envelope(StreamKeys) },
      },
    },
    async (request) => {
      const { session, instanceId } = await streamingPhone(app, request.query.session)
      const now = clock.now().getTime()
      const expiresAt = now + STREAM_KEY_TTL_MS
      return ok({
        productId: 'sandbox',
        podId: instanceId,
        accountId: 'sandbox',
        userId: `u${session.userId}`,
        token: {
          AccessKeyID: 'sandbox',
          SecretAccessKey: 'sandbox',
          SessionToken: streamToken(instanceId, expiresAt),
          CurrentTime: new Date(now).toISOString(),
          ExpiredTime: new Date(expiresAt).toISOString(),
        },
        expiresAt,
      })
    },
  )

  // The SDK stand-in's service: start admits the keys for a running phone, as the real service
  // refuses keys it did not issue (StartErrorCode shape, docs 6394/1158619).
  app.post(
    '/sandbox/supplier/stream/start',
    {
      config,
      schema: {
        tags,
        body: Type.Object({
          podId: Type.String({ pattern: '^sbx_[0-9a-f]{20}$' }),
          token: Type.String({ maxLength: 200 }),
        }),
      },
    },
    async (request, reply) => {
      const { podId, token } = request.body
      if (!tokenAdmits(podId, token)) {
        return reply.code(403).send({ errorCode: 10006, errorMessage: 'token invalid or expired' })
      }
      const state = await sandbox.state(podId)
      if (state?.status !== 'running') {
        return reply.code(409).send({ errorCode: 10004, errorMessage: 'pod not running' })
      }
      return {
        podId,
        frameUrl: `${SANDBOX_PREFIX}/stream/frame/${podId}?token=${encodeURIComponent(token)}`,
      }
    },
  )

  app.get(
    '/sandbox/supplier/stream/frame/:podId',
    {
      config,
      schema: {
        tags,
        description:
          "A frame of the sandbox stream: the phone's screen while it runs (else 409: the stream drops).",
        params: Type.Object({ podId: Type.String({ pattern: '^sbx_[0-9a-f]{20}$' }) }),
        querystring: Type.Object({
          token: Type.String({ maxLength: 200 }),
          f: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
    },
    async (request, reply) => {
      const plain = (code: number, text: string) => plainText(reply, code, text)
      if (!tokenAdmits(request.params.podId, request.query.token)) return plain(403, 'forbidden')
      const state = await sandbox.state(request.params.podId)
      if (state?.status !== 'running') return plain(409, 'not running')
      const snapshot = await sandbox.snapshot(request.params.podId)
      if (!snapshot) return plain(404, 'not found')
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderScreen(snapshot, clock.now().getTime()))
    },
  )

  app.get(
    '/sandbox/supplier/cover/:instanceId',
    {
      config,
      schema: {
        tags,
        description:
          'Screen image of an instance (SVG), for the viewer its signed pass names, while they may see the phone.',
        params: Type.Object({ instanceId: Type.String({ pattern: '^sbx_[0-9a-f]{20}$' }) }),
        querystring: CoverQuery,
      },
    },
    async (request, reply) => {
      // the instance id is no credential: only a live pass of someone who may see the phone now
      if (!(await screens.admits(request.params.instanceId, request.query))) {
        return reply
          .code(403)
          .type('text/plain; charset=utf-8')
          .header('cache-control', 'no-store')
          .send('forbidden')
      }
      const snapshot = await sandbox.snapshot(request.params.instanceId)
      if (!snapshot) return reply.code(404).type('text/plain; charset=utf-8').send('not found')
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', 'private, max-age=5')
        .send(renderScreen(snapshot, clock.now().getTime()))
    },
  )
}

export default sandboxSupplierRoutes
