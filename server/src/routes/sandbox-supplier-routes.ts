import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { DeviceStatus } from '#domain/device-lifecycle'
import {
  CONTROL_BUTTONS,
  controlPage,
  refusedPage,
} from '../adapters/supplier/sandbox/control-page'
import { renderScreen } from '../adapters/supplier/sandbox/screen'
import { SandboxSupplier } from '../adapters/supplier/sandbox/sandbox-supplier'
import { Envelope } from '../contract/common'
import { CommandResult, Device } from '../contract/device'
import { ResultCode } from '#domain/result-codes'
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

const ControlQuery = Type.Object({
  token: QueryValue,
  userId: QueryValue,
  userType: QueryValue,
  isWeb: QueryValue,
  deviceId: QueryValue,
})

const SessionQuery = Type.Object({ session: Type.String({ maxLength: 200 }) })

/** A screen URL's frame time and its pass (services/screen-access.ts). */
const CoverQuery = Type.Object({
  t: Type.Optional(Type.String({ maxLength: 20 })),
  d: Type.Optional(Type.String({ maxLength: 20 })),
  v: Type.Optional(Type.String({ maxLength: 20 })),
  e: Type.Optional(Type.String({ maxLength: 20 })),
  s: Type.Optional(Type.String({ maxLength: 64 })),
})

const ControlCommandBody = Type.Object({
  session: Type.String({ maxLength: 200 }),
  command: Type.Union(CONTROL_BUTTONS.map((b) => Type.Literal(b.command))),
})

const ControlState = Type.Intersect([
  Device,
  Type.Object({ screenUrl: Type.Union([Type.String(), Type.Null()]) }),
])

const toId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : 0)

const SESSION_EXPIRED = '页面已过期，请返回重新进入'

/**
 * The sandbox supplier's own pages, as a real supplier would host them: the control page web_instance
 * opens (one-time token in the query), its state and command calls (authorised by the page's session),
 * and the screen images. Public: the browser arrives without our login headers.
 */
const sandboxSupplierRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const supplier = app.services.ctx.supplier
  if (!(supplier instanceof SandboxSupplier)) return
  const sandbox: SandboxSupplier = supplier
  const { deviceAuth, devices, screens } = app.services
  const { clock } = app.services.ctx
  const tags = ['sandbox']
  const config = { public: true }

  async function sessionOf(secret: string) {
    const session = await deviceAuth.session(secret)
    if (!session) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID, SESSION_EXPIRED)
    return session
  }

  app.get(
    '/sandbox/supplier/control',
    {
      // the H5 app shows it in an iframe (web_instance)
      config: { ...config, framedBySelf: true },
      schema: { tags, description: 'Control page of one phone (HTML).', querystring: ControlQuery },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store')
      const token = first(request.query.token)
      const userId = first(request.query.userId)
      const deviceId = first(request.query.deviceId)
      try {
        const { session } = await deviceAuth.consume(token ?? '', toId(userId), toId(deviceId))
        const { device } = await devices.controlState(toId(userId), toId(deviceId))
        return reply.send(controlPage({ session, deviceName: device.name }))
      } catch (error) {
        if (error instanceof ControlRefusal) return reply.code(error.httpStatus).send(refusedPage())
        throw error
      }
    },
  )

  app.get(
    '/sandbox/supplier/control/state',
    {
      config,
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
      return ok({
        ...device,
        screenUrl:
          instanceId && screenPass ? sandbox.coverUrl(instanceId, clock.now(), screenPass) : null,
      })
    },
  )

  app.post(
    '/sandbox/supplier/control/command',
    {
      config,
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
