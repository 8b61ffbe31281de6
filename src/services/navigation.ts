/** Navigation helpers over the route table (SPEC 2): tab pages via switchTab, login with a way back. */
import Taro from '@tarojs/taro'
import { ROUTES, isTabPage, url, type RouteName } from '@/constants/routes'

type Query = Record<string, string | number | undefined>

let loginRedirect: string | undefined

/** '/pages/user/config?x=1' of the page on top of the stack ('' before the first page). */
export function currentRoute(): string {
  const pages = Taro.getCurrentPages()
  const page = pages[pages.length - 1] as
    { route?: string; path?: string; options?: Query } | undefined
  if (page) {
    const route = (page.route ?? page.path ?? '').split('?')[0]
    const qs = Object.entries(page.options ?? {})
      .filter(([k, v]) => v !== undefined && k !== '$taroTimestamp')
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&')
    if (route) return `/${route.replace(/^\//, '')}${qs ? `?${qs}` : ''}`
  }
  if (typeof window !== 'undefined' && window.location) {
    return `${window.location.pathname}${window.location.search}`
  }
  return ''
}

/** Remember where to come back to after a login (kept in memory only). */
export function setLoginRedirect(path: string | undefined): void {
  loginRedirect = path && !path.startsWith(`/${ROUTES.login.path}`) ? path : undefined
}

export function peekLoginRedirect(): string | undefined {
  return loginRedirect
}

/** Returns and forgets the stored redirect. */
export function takeLoginRedirect(): string | undefined {
  const target = loginRedirect
  loginRedirect = undefined
  return target
}

/** Open the login page and remember `redirectTo` (default: the current page). */
export function goLogin(redirectTo?: string): Promise<unknown> | undefined {
  const here = currentRoute()
  if (here.startsWith(`/${ROUTES.login.path}`)) return undefined
  setLoginRedirect(redirectTo ?? here)
  return Taro.navigateTo({ url: url('login') }).catch(() => Taro.redirectTo({ url: url('login') }))
}

/** Open any path: tab pages via switchTab (which takes no query), others via navigateTo. */
export function openPath(
  path: string,
  mode: 'navigate' | 'redirect' = 'navigate',
): Promise<unknown> {
  const target = path.startsWith('/') ? path : `/${path}`
  if (isTabPage(target)) return Taro.switchTab({ url: target.split('?')[0] })
  return mode === 'redirect' ? Taro.redirectTo({ url: target }) : Taro.navigateTo({ url: target })
}

export function navigate(name: RouteName, query?: Query): Promise<unknown> {
  return openPath(url(name, query))
}

export function redirect(name: RouteName, query?: Query): Promise<unknown> {
  return openPath(url(name, query), 'redirect')
}

export function relaunch(name: RouteName = 'home', query?: Query): Promise<unknown> {
  return Taro.reLaunch({ url: url(name, query) })
}

/** Back one page, or to the home tab when there is nothing to go back to. */
export function goBack(delta = 1): Promise<unknown> {
  if (Taro.getCurrentPages().length > delta) return Taro.navigateBack({ delta })
  return Taro.switchTab({ url: url('home') })
}

/**
 * After a login: back to the remembered page (replacing the login page), else `fallback`
 * (default: the Mine tab).
 */
export function afterLogin(fallback: RouteName = 'mine'): Promise<unknown> {
  const target = takeLoginRedirect()
  return openPath(target ?? url(fallback), 'redirect')
}
