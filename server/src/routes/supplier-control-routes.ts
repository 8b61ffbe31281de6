import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import path from 'node:path'
import type { FastifyContextConfig, FastifyReply } from 'fastify'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import {
  CONTROL_BUTTONS,
  CONTROL_KEYS,
  type ControlKey,
  type ControlPageData,
} from '#domain/control-page'
import {
  controlIdle,
  loadControlBuild,
  notBuiltPage,
  refusedPage,
  renderControlPage,
  type ControlBuild,
} from '../adapters/supplier/control-page'
import type { CommandOutcome } from '../adapters/supplier/supplier-adapter'
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
const ControlKeyBody = Type.Object({
  session: Type.String({ maxLength: 200 }),
  key: Type.Union(Object.keys(CONTROL_KEYS).map((k) => Type.Literal(k))),
})
/**
 * What the SDK's start() takes besides the DOM element: the pod, the account, the viewer, the keys
 * (each supplier's `/control/stream`: ACEP's STS keys, the sandbox's signed token).
 */
export const StreamKeys = Type.Object({
  productId: Type.String(),
  podId: Type.String(),
  accountId: Type.String(),
  userId: Type.String(),
  token: Type.Object({
    AccessKeyID: Type.String(),
    SecretAccessKey: Type.String(),
    SessionToken: Type.String(),
    CurrentTime: Type.String(),
    ExpiredTime: Type.String(),
  }),
  /** When the keys stop working (epoch ms). */
  expiresAt: Type.Number(),
})
const AssetParams = Type.Object({ file: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,80}$' }) })
const ControlState = Type.Intersect([
  Device,
  Type.Object({ screenUrl: Type.Union([Type.String(), Type.Null()]) }),
])
const SESSION_EXPIRED = '页面已过期，请返回重新进入'
const VIEW_ONLY = '该云手机仅授权您查看，无法操作'

/** The built control page (dist/control, or CONTROL_DIST), read once per process. */
let build: ControlBuild | null | undefined
export function controlBuild(): ControlBuild | null {
  if (build === undefined) {
    build = loadControlBuild(path.resolve(process.env.CONTROL_DIST || 'dist/control'))
  }
  return build
}

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

/** A short plain-text answer that is never cached (a refused image or file). */
export const plainText = (reply: FastifyReply, code: number, text: string) =>
  reply.code(code).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(text)

/**
 * The session and its phone for stream keys: refused as the state call refuses, and for an expired or
 * non-running phone (the page ends the session on 云手机已到期，请续费后使用, control/src/main.ts).
 */
export async function streamingPhone(app: RouteApp, secret: string) {
  const session = await controlSessionOf(app, secret)
  const { device, instanceId } = await controlledPhone(app, session)
  if (device.status === DeviceStatus.expired) {
    throw new BizError(ResultCode.SHOW_ERROR_TIPS, '云手机已到期，请续费后使用')
  }
  if (device.status !== DeviceStatus.running || !instanceId) {
    throw new BizError(ResultCode.SHOW_ERROR_TIPS, '云手机未在运行，暂不能查看实时画面')
  }
  return { session, instanceId }
}

export interface ControlRoutes {
  /** Where the supplier's control routes live: `${prefix}/control`, `/control/state`, `/control/command`. */
  prefix: string
  tags: string[]
  /** The page's screen: the supplier's live stream SDK and profiles (null: screenshots). */
  stream: ControlPageData['stream']
  /** A script the page also loads (the sandbox's floating ball), for a session. */
  extraScript?: (session: string) => string
  /** Extra route config of the page (its Content-Security-Policy sources, plugins/security-headers.ts). */
  pageConfig?: FastifyContextConfig
  /** The screen image the state call shows (null: none). */
  screenUrl: (phone: Awaited<ReturnType<typeof controlledPhone>>) => Promise<string | null>
  /** Presses an Android key on the phone (no SDK call does: src/domain/control-page.ts). */
  pressKey: (
    phone: Awaited<ReturnType<typeof controlledPhone>>,
    key: ControlKey,
  ) => Promise<CommandOutcome>
  /** The built page (tests give their own); default controlBuild(). */
  build?: () => ControlBuild | null
}

/**
 * The control page web_instance opens and its calls, the same for every supplier that hosts the page
 * on our server: the page exchanges the one-time token (query) for a page session; the state, command
 * and key calls carry that session, which is asked again at every call (device-auth-service.ts). The
 * page is the built front-end (control/, adapters/supplier/control-page.ts) with the session and
 * settings as data; its files are under `${prefix}/assets/`. A 仅查看 grantee's page gets no controls
 * and their commands and keys are refused. Public: the browser arrives without our login headers.
 */
export function registerControlRoutes(app: RouteApp, routes: ControlRoutes) {
  const { prefix, tags } = routes
  const { deviceAuth, devices } = app.services
  const built = routes.build ?? controlBuild

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
      const page = built()
      if (!page) {
        request.log.error('control page: dist/control is not built (npm run build:control)')
        return reply.code(503).send(notBuiltPage())
      }
      try {
        const { session } = await deviceAuth.consume(
          first(request.query.token) ?? '',
          userId,
          deviceId,
        )
        const seen = await deviceAuth.session(session)
        const { device } = await devices.controlState(userId, deviceId)
        return reply.send(
          renderControlPage(page, {
            session,
            userId,
            deviceId,
            deviceName: device.name,
            base: `/vmcloud/api${prefix}`,
            canControl: seen?.canControl ?? false,
            stream: routes.stream,
            idle: controlIdle(),
            extraScript: routes.extraScript?.(session) ?? null,
          }),
        )
      } catch (error) {
        if (error instanceof ControlRefusal) return reply.code(error.httpStatus).send(refusedPage())
        throw error
      }
    },
  )

  app.get(
    `${prefix}/assets/:file`,
    {
      config: { public: true },
      schema: { tags, description: "The control page's built files.", params: AssetParams },
    },
    async (request, reply) => {
      const asset = built()?.assets.get(request.params.file)
      if (!asset) return plainText(reply, 404, 'not found')
      // named by their content hash: cached for good
      return reply
        .type(asset.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(asset.bytes)
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
      if (!session.canControl) throw new BizError(ResultCode.SHOW_ERROR_TIPS, VIEW_ONLY)
      return ok(
        await devices.command(session.userId, {
          deviceId: session.deviceId,
          command: request.body.command,
        }),
      )
    },
  )

  app.post(
    `${prefix}/control/key`,
    {
      config: { public: true },
      schema: {
        tags,
        description:
          '返回 / 主页 / 多任务 (and the volume keys without a stream): an Android key event.',
        body: ControlKeyBody,
        response: { 200: Envelope(CommandResult) },
      },
    },
    async (request) => {
      const session = await controlSessionOf(app, request.body.session)
      if (!session.canControl) throw new BizError(ResultCode.SHOW_ERROR_TIPS, VIEW_ONLY)
      const phone = await controlledPhone(app, session)
      if (phone.device.busy) {
        throw new BizError(
          ResultCode.SHOW_ERROR_TIPS,
          phone.device.busyText || '云手机正忙，请稍后',
        )
      }
      if (phone.device.status !== DeviceStatus.running || !phone.instanceId) {
        throw new BizError(ResultCode.SHOW_ERROR_TIPS, `云手机${phone.device.statusName}，请稍后`)
      }
      const outcome = await routes.pressKey(phone, request.body.key as ControlKey)
      if (!outcome.ok) throw new BizError(ResultCode.SHOW_ERROR_TIPS, outcome.msg)
      return ok({ deviceId: session.deviceId, ok: true, msg: outcome.msg })
    },
  )
}
