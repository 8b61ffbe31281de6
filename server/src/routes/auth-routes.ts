import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  CodeLoginBody,
  LoginResult,
  PasswordLoginBody,
  SendSmsCodeBody,
  SendSmsCodeResult,
  WxAppletsLoginBody,
  WxBindLoginBody,
  WxLoginResult,
  WxOfficialAccountLoginBody,
} from '../contract/auth'
import { Envelope } from '../contract/common'
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

  // Binding a WeChat identity takes the bind ticket its own kind of login handed out, never an openid.
  const bindRoutes = [
    ['/user/wxAppletsLoginPro', 'applet'],
    ['/user/wxOfficialAccountLoginPro', 'officialAccount'],
  ] as const
  for (const [path, source] of bindRoutes) {
    app.post(
      path,
      {
        config: { public: true, ...sensitiveConfig(options) },
        schema: { tags, body: WxBindLoginBody, response: { 200: Envelope(LoginResult) } },
      },
      async (request) => {
        const { bindTicket, mobilePhone, code, ...context } = request.body
        return ok(
          await accounts.bindWechatAndLogin(
            source,
            bindTicket,
            mobilePhone,
            code,
            loginContext(request, context),
          ),
        )
      },
    )
  }

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
