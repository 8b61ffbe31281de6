import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, PageQuery, Paged } from '../contract/common'
import {
  FloatingBallSettings,
  Invitee,
  NewUserGuideConfig,
  PlayTrialConfig,
  SaveFloatingBallBody,
  TrialPhone,
} from '../contract/engagement'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const engagementRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { engagement } = app.services
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
