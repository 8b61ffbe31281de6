import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyContextConfig } from 'fastify'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import { CONTROL_BUTTONS, refusedPage } from '../adapters/supplier/sandbox/control-page'
import { Envelope } from '../contract/common'
import { CommandResult, Device } from '../contract/device'
import { BizError } from '../domain/biz-error'
import { ok } from '../plugins/envelope'
import { ControlRefusal, type ControlSession } from '../services/sharing'
import type { ApiRouteOptions } from './route-options'

type RouteApp = Parameters<FastifyPluginAsyncTypebox<ApiRouteOptions>>[0]

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
export const SessionQuery = Type.Object({ session: Type.String({ maxLength: 200 }) })
/** `screen=0`: the page plays a live stream and needs no screenshot. */
const StateQuery = Type.Object({
  session: Type.String({ maxLength: 200 }),
  screen: Type.Optional(Type.Literal('0')),
})
const ControlCommandBody = Type.Object({
  session: Type.String({ maxLength: 200 }),
  command: Type.Union(CONTROL_BUTTONS.map((b) => Type.Literal(b.command))),
})
const ControlState = Type.Intersect([
  Device,
  Type.Object({ screenUrl: Type.Union([Type.String(), Type.Null()]) }),
])
const SESSION_EXPIRED = '页面已过期，请返回重新进入'

/** The page session a control call carries, or 2017 once it has ended (device-auth-service.ts). */
export async function controlSessionOf(app: RouteApp, secret: string): Promise<ControlSession> {
  const session = await app.services.deviceAuth.session(secret)
  if (!session) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID, SESSION_EXPIRED)
  return session
}

/** The phone a page session may see now: refused once released (as the state call refuses it). */
export async function controlledPhone(app: RouteApp, session: ControlSession) {
  const state = await app.services.devices.controlState(session.userId, session.deviceId)
  if (state.device.status === DeviceStatus.released) {
    throw new BizError(ResultCode.SHOW_ERROR_TIPS, '云手机已释放')
  }
  return state
}

export interface ControlRoutes {
  /** Where the supplier's control routes live: `${prefix}/control`, `/control/state`, `/control/command`. */
  prefix: string
  tags: string[]
  /** The page's HTML for a session just exchanged for the one-time token. */
  page: (view: { session: string; deviceName: string }) => string
  /** Extra route config of the page (its Content-Security-Policy sources, plugins/security-headers.ts). */
  pageConfig?: FastifyContextConfig
  /** The screen image the state call shows (null: none). */
  screenUrl: (phone: Awaited<ReturnType<typeof controlledPhone>>) => Promise<string | null>
}

/**
 * The control page web_instance opens and its two calls, the same for every supplier that hosts the
 * page on our server: the page exchanges the one-time token (query) for a page session; the state and
 * command calls carry that session, which is asked again at every call (device-auth-service.ts).
 * Public: the browser arrives without our login headers.
 */
export function registerControlRoutes(app: RouteApp, routes: ControlRoutes) {
  const { prefix, tags } = routes
  const { deviceAuth, devices } = app.services

  app.get(
    `${prefix}/control`,
    {
      // the H5 app shows it in an iframe (web_instance)
      config: { ...routes.pageConfig, public: true, framedBySelf: true },
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
        return reply.send(routes.page({ session, deviceName: device.name }))
      } catch (error) {
        if (error instanceof ControlRefusal) return reply.code(error.httpStatus).send(refusedPage())
        throw error
      }
    },
  )

  app.get(
    `${prefix}/control/state`,
    {
      config: { public: true },
      schema: { tags, querystring: StateQuery, response: { 200: Envelope(ControlState) } },
    },
    async (request) => {
      const phone = await controlledPhone(app, await controlSessionOf(app, request.query.session))
      const screenUrl = request.query.screen === '0' ? null : await routes.screenUrl(phone)
      return ok({ ...phone.device, screenUrl })
    },
  )

  app.post(
    `${prefix}/control/command`,
    {
      config: { public: true },
      schema: { tags, body: ControlCommandBody, response: { 200: Envelope(CommandResult) } },
    },
    async (request) => {
      const session = await controlSessionOf(app, request.body.session)
      return ok(
        await devices.command(session.userId, {
          deviceId: session.deviceId,
          command: request.body.command,
        }),
      )
    },
  )
}
