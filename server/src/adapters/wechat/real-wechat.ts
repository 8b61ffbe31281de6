import type { WechatAdapter, WechatIdentity } from './wechat-adapter'
import { WechatAuthError } from './wechat-adapter'

export interface WechatCredentials {
  appId: string
  secret: string
  /** Official account (公众号) app, used for web OAuth; falls back to the mini-program app. */
  oaAppId: string
  oaSecret: string
}

export function wechatCredentialsFromEnv(env: NodeJS.ProcessEnv): WechatCredentials {
  if (!env.WECHAT_APPID || !env.WECHAT_SECRET) {
    throw new Error('WECHAT_PROVIDER=wechat needs WECHAT_APPID and WECHAT_SECRET')
  }
  return {
    appId: env.WECHAT_APPID,
    secret: env.WECHAT_SECRET,
    oaAppId: env.WECHAT_OA_APPID || env.WECHAT_APPID,
    oaSecret: env.WECHAT_OA_SECRET || env.WECHAT_SECRET,
  }
}

interface WechatReply {
  openid?: string
  unionid?: string
  errcode?: number
  errmsg?: string
}

/** api.weixin.qq.com; not exercised by the test suite. */
export class RealWechatAdapter implements WechatAdapter {
  readonly name = 'wechat'
  readonly isSandbox = false

  constructor(private readonly credentials: WechatCredentials) {}

  private async call(url: URL): Promise<WechatIdentity> {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch(
      (error: Error) => {
        throw new WechatAuthError(`WeChat request failed: ${error.message}`)
      },
    )
    const body = (await response.json().catch(() => ({}))) as WechatReply
    if (!response.ok || body.errcode || !body.openid) {
      throw new WechatAuthError(
        `WeChat refused the code: ${body.errcode ?? response.status} ${body.errmsg ?? ''}`,
      )
    }
    return { openid: body.openid, unionid: body.unionid }
  }

  code2session(jsCode: string) {
    const url = new URL('https://api.weixin.qq.com/sns/jscode2session')
    url.search = new URLSearchParams({
      appid: this.credentials.appId,
      secret: this.credentials.secret,
      js_code: jsCode,
      grant_type: 'authorization_code',
    }).toString()
    return this.call(url)
  }

  oauthCode(code: string) {
    const url = new URL('https://api.weixin.qq.com/sns/oauth2/access_token')
    url.search = new URLSearchParams({
      appid: this.credentials.oaAppId,
      secret: this.credentials.oaSecret,
      code,
      grant_type: 'authorization_code',
    }).toString()
    return this.call(url)
  }
}
