import type { KeyValueStorage } from './types'

/** WeChat's official-account authorisation page; a development build may name the sandbox's instead. */
export const WECHAT_AUTHORIZE_URL = 'https://open.weixin.qq.com/connect/oauth2/authorize'

/** Every authorisation comes back here: the one page that exchanges the OAuth code (SPEC 2). */
export const OAUTH_RETURN_PATH = '/pages/auth/wechatAuth'

/** The state sent with the last authorisation, checked when it comes back (login CSRF). */
export const OAUTH_STATE_KEY = 'wechatOAuthState'

/** Query keys of the page the visitor was on that must not follow them back there. */
const NOT_CARRIED_BACK = new Set(['channelCode', 'isWeChatAuth', 'code', 'state'])

/** The page to return to, without the keys the authorisation itself carries. */
export function returnPath(path: string): string {
  const [pathname, query = ''] = (path.startsWith('/') ? path : `/${path}`).split('?', 2)
  const kept = new URLSearchParams(query)
  for (const key of NOT_CARRIED_BACK) kept.delete(key)
  const qs = kept.toString()
  return qs ? `${pathname}?${qs}` : pathname
}

/**
 * Official-account OAuth address (SPEC 2). It comes back to the wechatAuth page with isWeChatAuth=1,
 * the channelCode once, the page to return to in `redirect` (encoded once) and the state.
 */
export function officialAccountAuthUrl(options: {
  appId: string
  origin: string
  /** where the visitor goes after logging in */
  returnTo: string
  channelCode?: string
  state: string
  /** absolute, or a path on origin (the sandbox's) */
  authorizeUrl?: string
}): string {
  const back = new URL(OAUTH_RETURN_PATH, options.origin)
  back.searchParams.set('redirect', returnPath(options.returnTo))
  back.searchParams.set('isWeChatAuth', '1')
  if (options.channelCode) back.searchParams.set('channelCode', options.channelCode)
  return snsapiBaseUrl({ ...options, redirectUri: back.toString() })
}

/**
 * WeChat's silent (snsapi_base) authorisation: it comes back to redirectUri with `code` and `state`
 * added. The login above and the pay page's openid (WeChat Pay in WeChat's browser) both ask this way.
 */
export function snsapiBaseUrl(options: {
  appId: string
  origin: string
  redirectUri: string
  state: string
  authorizeUrl?: string
}): string {
  const authorize = new URL(options.authorizeUrl || WECHAT_AUTHORIZE_URL, options.origin)
  authorize.search = new URLSearchParams({
    appid: options.appId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: 'snsapi_base',
    state: options.state,
  }).toString()
  authorize.hash = 'wechat_redirect'
  return authorize.toString()
}

/** A fresh, unguessable state for an authorisation, kept until it comes back. */
export function newOAuthState(storage: KeyValueStorage): string {
  const words = globalThis.crypto.getRandomValues(new Uint32Array(4))
  const state = Array.from(words, (w) => w.toString(16).padStart(8, '0')).join('')
  storage.set(OAUTH_STATE_KEY, state)
  return state
}

/**
 * True only for the state of this browser's last authorisation, once: a code someone else's
 * authorisation produced (a link sent to the visitor) must not log them in or bind their number.
 */
export function takeOAuthState(storage: KeyValueStorage, state: string | undefined): boolean {
  const expected = storage.get<string>(OAUTH_STATE_KEY)
  storage.remove(OAUTH_STATE_KEY)
  return Boolean(state && expected && state === expected)
}
