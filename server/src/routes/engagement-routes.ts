import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ResultCode } from '../../../src/domain/result-codes'
import { Envelope, PageQuery, Paged } from '../contract/common'
import {
  ControlSessionQuery,
  FloatingBallSettings,
  Invitee,
  NewUserGuideConfig,
  PlayTrialConfig,
  SaveFloatingBallBody,
  TrialPhone,
} from '../contract/engagement'
import { BizError } from '../domain/biz-error'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { SANDBOX_PREFIX } from '../adapters/supplier/sandbox-supplier'
import { floatingBallScript } from './floating-ball-script'
import { bearer, type ApiRouteOptions } from './route-options'

const engagementRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { engagement, deviceAuth } = app.services
  const security = bearer

  app.get(
    '/newUserGuide/getNewUserGuideConfig_V2',
    {
      schema: {
        tags: ['新用户'],
        security,
        description: 'Steps of the new-user guide and the free trial phone offer for this user.',
        response: { 200: Envelope(NewUserGuideConfig) },
      },
    },
    async (request) => ok(await engagement.guideConfig(currentUser(request).userId)),
  )

  app.get(
    '/newUserGuide/getNewUserReceiveEquipment',
    {
      schema: {
        tags: ['新用户'],
        security,
        description: 'Claims the free trial phone: once per user ever, needs stock.',
        response: { 200: Envelope(TrialPhone) },
      },
    },
    async (request) => ok(await engagement.claimTrialPhone(currentUser(request).userId)),
  )

  app.get(
    '/playTrial/getConfig',
    {
      config: { public: true },
      schema: {
        tags: ['新用户'],
        description: 'The game of the play-trial landing pages and its trial phone.',
        response: { 200: Envelope(PlayTrialConfig) },
      },
    },
    async () => ok(await engagement.playTrialConfig()),
  )

  app.get(
    '/user/getFloatingBall',
    { schema: { tags: ['悬浮球'], security, response: { 200: Envelope(FloatingBallSettings) } } },
    async (request) => ok(await engagement.floatingBall(currentUser(request).userId)),
  )

  app.post(
    '/user/saveFloatingBall',
    {
      schema: {
        tags: ['悬浮球'],
        security,
        body: SaveFloatingBallBody,
        response: { 200: Envelope(FloatingBallSettings) },
      },
    },
    async (request) =>
      ok(await engagement.saveFloatingBall(currentUser(request).userId, request.body)),
  )

  // Read by the sandbox supplier's control page (its session, not the app token) to draw the ball.
  app.get(
    '/sandbox/supplier/control/floatingBall',
    {
      config: { public: true },
      schema: {
        tags: ['sandbox'],
        querystring: ControlSessionQuery,
        response: { 200: Envelope(FloatingBallSettings) },
      },
    },
    async (request) => {
      const session = await deviceAuth.session(request.query.session)
      if (!session) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID, '控制会话已失效')
      return ok(await engagement.floatingBall(session.userId))
    },
  )

  const script = floatingBallScript(SANDBOX_PREFIX)
  app.get(
    '/sandbox/supplier/control/floatingBall.js',
    {
      config: { public: true },
      schema: {
        tags: ['sandbox'],
        description: 'Script drawing the floating ball on the control page.',
      },
    },
    async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(script),
  )

  app.get(
    '/invite/list',
    {
      schema: {
        tags: ['邀请'],
        security,
        description: 'Accounts that registered with my invite code, newest first, numbers masked.',
        querystring: PageQuery,
        response: { 200: Envelope(Paged(Invitee)) },
      },
    },
    async (request) => ok(await engagement.myInvitees(currentUser(request).userId, request.query)),
  )
}

export default engagementRoutes
