/**
 * What the app does when it launches on a page (SPEC 2): gate pages that need a login, record a
 * channel code, and in the WeChat browser send a visitor who came through the official account to
 * the authorisation address (isWeChatAuth=1, carrying channelCode), which returns through the
 * wechatAuth page (it exchanges the code) to this page. Pure: the app applies the plan.
 */
import { requiresLogin, skipsChannelCode, url } from '@/constants/routes'

export interface LaunchContext {
  path: string
  query: Record<string, string | undefined>
  isLoggedIn: boolean
  isWeChatBrowser: boolean
  hasOpenId: boolean
}

export type LaunchStep =
  | { kind: 'saveChannelCode'; channelCode: string }
  /** An invite link (user/invite): the code is sent with the next login and binds at registration. */
  | { kind: 'saveInvite'; inviteType: string; inviteCode: string }
  | { kind: 'authorizeOfficialAccount'; channelCode: string; redirect: string }
  | { kind: 'redirectToLogin'; url: string; redirect: string }

export function currentUrl(path: string, query: Record<string, string | undefined>): string {
  const qs = Object.entries(query)
    .filter(([k, v]) => v !== undefined && k !== '$taroTimestamp')
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join('&')
  return `/${path.replace(/^\//, '')}${qs ? `?${qs}` : ''}`
}

export function planLaunch(ctx: LaunchContext): LaunchStep[] {
  const steps: LaunchStep[] = []
  const here = currentUrl(ctx.path, ctx.query)
  const { inviteCode } = ctx.query
  if (inviteCode && !ctx.isLoggedIn) {
    steps.push({ kind: 'saveInvite', inviteType: ctx.query.inviteType ?? '1', inviteCode })
  }
  const channelCode = ctx.query.channelCode
  if (channelCode && !skipsChannelCode(ctx.path)) {
    steps.push({ kind: 'saveChannelCode', channelCode })
    // launched from the official account: get the WeChat identity first, then come back here
    if (
      ctx.isWeChatBrowser &&
      !ctx.hasOpenId &&
      !ctx.isLoggedIn &&
      ctx.query.isWeChatAuth !== '1'
    ) {
      // the way back carries channelCode itself, once: not inside the page it returns to as well
      const { channelCode: _carried, ...rest } = ctx.query
      steps.push({
        kind: 'authorizeOfficialAccount',
        channelCode,
        redirect: currentUrl(ctx.path, rest),
      })
      return steps
    }
  }
  if (!ctx.isLoggedIn && requiresLogin(ctx.path)) {
    steps.push({ kind: 'redirectToLogin', url: url('login', { redirect: here }), redirect: here })
  }
  return steps
}
