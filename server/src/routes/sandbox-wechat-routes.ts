import { randomBytes } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ResultCode } from '#domain/result-codes'
import { SANDBOX_CODE_PREFIX, SandboxWechatAdapter } from '../adapters/wechat/sandbox-wechat'
import { BizError } from '../domain/biz-error'
import { API_PREFIX } from '../plugins/errors'

const AUTHORIZE_PATH = '/sandbox/wechat/oauth2/authorize'

/** Who "is logged in to WeChat" in this browser: WeChat knows its user, the sandbox keeps a cookie. */
const WECHAT_USER_COOKIE = 'sandbox_wechat_user'
const WECHAT_USER = /^[0-9a-f]{32}$/

const AuthorizeQuery = Type.Object({
  appid: Type.String({ minLength: 1, maxLength: 64 }),
  redirect_uri: Type.String({ minLength: 1, maxLength: 2048 }),
  response_type: Type.Literal('code'),
  scope: Type.Union([Type.Literal('snsapi_base'), Type.Literal('snsapi_userinfo')]),
  state: Type.Optional(Type.String({ maxLength: 128 })),
})

function wechatUserOf(cookieHeader: string | undefined): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2)
    if (name === WECHAT_USER_COOKIE && value && WECHAT_USER.test(value)) return value
  }
  return null
}

/**
 * The sandbox WeChat's official-account authorisation page (open.weixin.qq.com/connect/oauth2/
 * authorize with scope snsapi_base): it sends the browser straight back to redirect_uri with a code
 * and the state. The same browser is the same WeChat user (a cookie here), so its code always yields
 * the same openid (sandbox-wechat.ts); like WeChat, which returns only to the callback domain
 * registered for the account, it returns only to the site that asked (the request's own host).
 */
const sandboxWechatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  if (!(app.services.ctx.wechat instanceof SandboxWechatAdapter)) return
  app.get(
    AUTHORIZE_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['sandbox'],
        description:
          'Sandbox WeChat only: the official-account OAuth page; redirects to redirect_uri with code and state.',
        querystring: AuthorizeQuery,
      },
    },
    async (request, reply) => {
      const { redirect_uri: redirectUri, state } = request.query
      let back: URL
      try {
        back = new URL(redirectUri)
      } catch {
        throw new BizError(ResultCode.SHOW_ERROR_TIPS, 'redirect_uri 参数错误')
      }
      if (!/^https?:$/.test(back.protocol) || back.host !== request.host) {
        throw new BizError(ResultCode.SHOW_ERROR_TIPS, 'redirect_uri 域名与后台配置不一致')
      }
      let user = wechatUserOf(request.headers.cookie)
      if (!user) {
        user = randomBytes(16).toString('hex')
        reply.header(
          'set-cookie',
          `${WECHAT_USER_COOKIE}=${user}; Path=${API_PREFIX}/sandbox/wechat; HttpOnly; SameSite=Lax; Max-Age=31536000`,
        )
      }
      back.searchParams.set('code', `${SANDBOX_CODE_PREFIX}oa-${user}`)
      back.searchParams.set('state', state ?? '')
      return reply.redirect(back.toString(), 302)
    },
  )
}

export default sandboxWechatRoutes
