import { createHash } from 'node:crypto'
import type { WechatAdapter, WechatIdentity } from './wechat-adapter'
import { WechatAuthError } from './wechat-adapter'

export const SANDBOX_CODE_PREFIX = 'sandbox:'

/**
 * Deterministic stand-in for WeChat: a code `sandbox:<anything>` always yields the openid
 * `o_sandbox_<first 16 hex of sha256(anything)>` (and unionid `u_sandbox_<same>`), so tests and e2e
 * can log the same "WeChat user" in again. Any other code is rejected as WeChat would reject it.
 */
export function sandboxOpenid(code: string): string | null {
  if (!code.startsWith(SANDBOX_CODE_PREFIX) || code.length === SANDBOX_CODE_PREFIX.length)
    return null
  const digest = createHash('sha256').update(code.slice(SANDBOX_CODE_PREFIX.length)).digest('hex')
  return `o_sandbox_${digest.slice(0, 16)}`
}

export class SandboxWechatAdapter implements WechatAdapter {
  readonly name = 'sandbox'
  readonly isSandbox = true

  private async resolve(code: string): Promise<WechatIdentity> {
    await new Promise((resolve) => setTimeout(resolve, 2))
    const openid = sandboxOpenid(code)
    if (!openid) throw new WechatAuthError('sandbox WeChat codes look like "sandbox:<anything>"')
    return { openid, unionid: openid.replace('o_sandbox_', 'u_sandbox_') }
  }

  code2session(jsCode: string) {
    return this.resolve(jsCode)
  }

  oauthCode(code: string) {
    return this.resolve(code)
  }
}
