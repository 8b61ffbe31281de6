export interface WechatIdentity {
  openid: string
  unionid?: string
}

/** Exchanges WeChat login codes for identities. Rejects with WechatAuthError on a bad or used code. */
export interface WechatAdapter {
  readonly name: string
  readonly isSandbox: boolean
  /** Mini-program wx.login code → session (code2session). */
  code2session(jsCode: string): Promise<WechatIdentity>
  /** Official-account web OAuth code → openid. */
  oauthCode(code: string): Promise<WechatIdentity>
}

export class WechatAuthError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WechatAuthError'
  }
}
