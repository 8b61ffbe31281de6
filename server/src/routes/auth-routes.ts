import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  CodeLoginBody,
  LoginResult,
  PasswordLoginBody,
  SandboxLastSms,
  SandboxLastSmsQuery,
  SendSmsCodeBody,
  SendSmsCodeResult,
  WxAppletsLoginBody,
  WxBindLoginBody,
  WxLoginResult,
  WxOfficialAccountLoginBody,
} from '../contract/auth'
import { Envelope } from '../contract/common'
import { SandboxSmsAdapter } from '../adapters/sms/sandbox-sms'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, loginContext, sensitiveConfig, type ApiRouteOptions } from './route-options'

const authRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app, options) => {
  const { accounts, sessions } = app.services
  const tags = ['登录']

  app.post(
    '/sms/sendSmsCode',
    {
      config: { public: true, optionalAuth: true, ...sensitiveConfig(options) },
      schema: { tags, body: SendSmsCodeBody, response: { 200: Envelope(SendSmsCodeResult) } },
    },
    async (request) =>
      ok(
        await accounts.sendSmsCode(
          request.body.type,
          request.body.mobilePhone,
          request.auth?.userId ?? null,
        ),
      ),
  )

  const sms = app.services.ctx.sms
  if (sms instanceof SandboxSmsAdapter) {
    app.get(
      '/sandbox/sms/last',
      {
        config: { public: true },
        schema: {
          tags: ['sandbox'],
          description: 'Sandbox SMS only: the last code sent to a number (for tests and demos).',
          querystring: SandboxLastSmsQuery,
          response: { 200: Envelope(SandboxLastSms) },
        },
      },
      async (request) => ok(sms.lastSent(request.query.mobilePhone)),
    )
  }

  app.post(
    '/common/userLogin/confirm',
    {
      config: { public: true, ...sensitiveConfig(options) },
      schema: { tags, body: CodeLoginBody, response: { 200: Envelope(LoginResult) } },
    },
    async (request) => {
      const { mobilePhone, code, ...context } = request.body
      return ok(await accounts.loginWithCode(mobilePhone, code, loginContext(request, context)))
    },
  )

  app.post(
    '/user/login',
    {
      config: { public: true, ...sensitiveConfig(options) },
      schema: { tags, body: PasswordLoginBody, response: { 200: Envelope(LoginResult) } },
    },
    async (request) => {
      const { mobilePhone, password, ...context } = request.body
      return ok(
        await accounts.loginWithPassword(mobilePhone, password, loginContext(request, context)),
      )
    },
  )

  app.post(
    '/user/wxAppletsLogin',
    {
      config: { public: true, ...sensitiveConfig(options) },
      schema: { tags, body: WxAppletsLoginBody, response: { 200: Envelope(WxLoginResult) } },
    },
    async (request) =>
      ok(await accounts.loginWithWechat('applet', request.body.jsCode, loginContext(request, {}))),
  )

  app.post(
    '/user/wxOfficialAccountLogin',
    {
      config: { public: true, ...sensitiveConfig(options) },
      schema: {
        tags,
        body: WxOfficialAccountLoginBody,
        response: { 200: Envelope(WxLoginResult) },
      },
    },
    async (request) =>
      ok(
        await accounts.loginWithWechat(
          'officialAccount',
          request.body.jsCode,
          loginContext(request, {}),
        ),
      ),
  )

  app.post(
    '/user/wxOfficialAccountLoginPro',
    {
      config: { public: true, ...sensitiveConfig(options) },
      schema: { tags, body: WxBindLoginBody, response: { 200: Envelope(LoginResult) } },
    },
    async (request) => {
      const { openid, mobilePhone, code, ...context } = request.body
      return ok(
        await accounts.bindWechatAndLogin(
          openid,
          mobilePhone,
          code,
          loginContext(request, context),
        ),
      )
    },
  )

  app.post(
    '/user/exitLogin',
    { schema: { tags, security: bearer, response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      await sessions.revoke(currentUser(request).tokenId)
      return ok(null)
    },
  )
}

export default authRoutes
