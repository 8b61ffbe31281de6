import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import { ACEP_PREFIX, AcepSupplier } from '../adapters/supplier/acep/acep-supplier'
import {
  CONTROL_BUTTONS,
  controlPage,
  refusedPage,
} from '../adapters/supplier/sandbox/control-page'
import { Envelope } from '../contract/common'
import { CommandResult, Device } from '../contract/device'
import { BizError } from '../domain/biz-error'
import { ok } from '../plugins/envelope'
import { ControlRefusal } from '../services/device-auth-service'
import type { ApiRouteOptions } from './route-options'

/** A parameter may come twice (a hand-off appended to an address that had it): the first counts. */
const QueryValue = Type.Optional(
  Type.Union([
    Type.String({ maxLength: 200 }),
    Type.Array(Type.String({ maxLength: 200 }), { maxItems: 4 }),
  ]),
)
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
const toId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : 0)

const ControlQuery = Type.Object({
  token: QueryValue,
  userId: QueryValue,
  userType: QueryValue,
  isWeb: QueryValue,
  deviceId: QueryValue,
})
const SessionQuery = Type.Object({ session: Type.String({ maxLength: 200 }) })
const ControlCommandBody = Type.Object({
  session: Type.String({ maxLength: 200 }),
  command: Type.Union(CONTROL_BUTTONS.map((b) => Type.Literal(b.command))),
})
const ControlState = Type.Intersect([
  Device,
  Type.Object({ screenUrl: Type.Union([Type.String(), Type.Null()]) }),
])
const SESSION_EXPIRED = '页面已过期，请返回重新进入'

/** A screen URL's frame time and its pass (services/screen-access.ts). */
const CoverQuery = Type.Object({
  t: Type.Optional(Type.String({ maxLength: 20 })),
  d: Type.Optional(Type.String({ maxLength: 20 })),
  v: Type.Optional(Type.String({ maxLength: 20 })),
  e: Type.Optional(Type.String({ maxLength: 20 })),
  s: Type.Optional(Type.String({ maxLength: 64 })),
})

/** The biggest screenshot we relay. */
const MAX_SCREEN_BYTES = 4 * 1024 * 1024

/**
 * Our own routes for the ACEP supplier (registered only when it runs): ACEP's callback service, which
 * is verified before anything is read, and the screen relay, which admits a viewer's pass before it
 * fetches the pod's last screenshot from ACEP's storage (the storage address never reaches a browser).
 * Public: ACEP and the image tags arrive without our login headers.
 */
const acepSupplierRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const supplier = app.services.ctx.supplier
  if (!(supplier instanceof AcepSupplier)) return
  const acep: AcepSupplier = supplier
  const { screens, deviceAuth, devices } = app.services
  const tags = ['supplier']

  async function sessionOf(secret: string) {
    const session = await deviceAuth.session(secret)
    if (!session) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID, SESSION_EXPIRED)
    return session
  }

  /**
   * The control page web_instance opens: the one-time token is exchanged for a page session, as on the
   * sandbox's page. It shows the pod's screen (a fresh ACEP screenshot every 3 s, relayed behind the
   * viewer's pass) and the command buttons; ACEP's live stream (its web SDK) is not wired yet.
   */
  app.get(
    '/supplier/acep/control',
    {
      config: { public: true, framedBySelf: true },
      schema: { tags, description: 'Control page of one phone (HTML).', querystring: ControlQuery },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store')
      const userId = toId(first(request.query.userId))
      const deviceId = toId(first(request.query.deviceId))
      try {
        const { session } = await deviceAuth.consume(
          first(request.query.token) ?? '',
          userId,
          deviceId,
        )
        const { device } = await devices.controlState(userId, deviceId)
        return reply.send(controlPage({ session, deviceName: device.name, base: ACEP_PREFIX }))
      } catch (error) {
        if (error instanceof ControlRefusal) return reply.code(error.httpStatus).send(refusedPage())
        throw error
      }
    },
  )

  app.get(
    '/supplier/acep/control/state',
    {
      config: { public: true },
      schema: { tags, querystring: SessionQuery, response: { 200: Envelope(ControlState) } },
    },
    async (request) => {
      const session = await sessionOf(request.query.session)
      const { device, instanceId, screenPass } = await devices.controlState(
        session.userId,
        session.deviceId,
      )
      if (device.status === DeviceStatus.released) {
        throw new BizError(ResultCode.SHOW_ERROR_TIPS, '云手机已释放')
      }
      // Each poll asks ACEP for a new screenshot; the relay shows the last one it reported.
      const running = device.status === DeviceStatus.running && instanceId && screenPass
      return ok({
        ...device,
        screenUrl: running ? (await acep.cover(instanceId, screenPass)).url : null,
      })
    },
  )

  app.post(
    '/supplier/acep/control/command',
    {
      config: { public: true },
      schema: { tags, body: ControlCommandBody, response: { 200: Envelope(CommandResult) } },
    },
    async (request) => {
      const session = await sessionOf(request.body.session)
      return ok(
        await devices.command(session.userId, {
          deviceId: session.deviceId,
          command: request.body.command,
        }),
      )
    },
  )

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
          description: "ACEP's callback service (回调服务): task and screenshot events.",
        },
      },
      async (request, reply) => {
        const raw = typeof request.body === 'string' ? request.body : ''
        if (!(await acep.acceptCallback(request.headers, raw))) {
          request.log.warn('ACEP callback refused: bad or missing iPaaS-Auth')
          return reply.code(401).send({ code: 401, msg: 'unauthorized' })
        }
        // What ACEP's Ping (连通性测试) expects back.
        return reply.send({ code: 0, msg: 'success' })
      },
    )
  })

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
      const plain = (code: number, text: string) =>
        reply
          .code(code)
          .type('text/plain; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(text)
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
