/**
 * Navigation over the route table (SPEC 2): tab pages via switchTab, and login gating for every
 * in-app navigation — a page that needs a session, opened while logged out, becomes the login page
 * carrying `redirect` (the page to come back to; finish-login.ts reads it).
 */
import Taro from '@tarojs/taro'
import { ROUTES, isTabPage, requiresLogin, url, type RouteName } from '@/constants/routes'
import { trackNavigation } from './page-loading'

type Query = Record<string, string | number | undefined>

/** The app wires this to the session store (app.tsx); until then every visitor counts as logged in. */
let loggedIn: () => boolean = () => true

export function configureNavigation(options: { isLoggedIn: () => boolean }): void {
  loggedIn = options.isLoggedIn
}

/** Router bookkeeping in a page's query, not the page's own parameters. */
const INTERNAL_PARAMS = new Set(['$taroTimestamp', 'stamp'])

/** 'a=1&b=2' → { a: '1', b: '2' } (no URLSearchParams in the mini-program). */
function parseQuery(qs: string): Query {
  const out: Query = {}
  for (const part of qs.split('&')) {
    if (!part) continue
    const [k, v = ''] = part.split('=')
    out[decodeURIComponent(k)] = decodeURIComponent(v)
  }
  return out
}

/** '/pages/user/config?x=1' of the page on top of the stack ('' before the first page). */
export function currentRoute(): string {
  const pages = Taro.getCurrentPages()
  const page = pages[pages.length - 1] as
    { route?: string; path?: string; options?: Query } | undefined
  if (page) {
    const [pathRoute, pathQuery = ''] = (page.path ?? '').split('?')
    const route = (page.route ?? pathRoute).split('?')[0]
    // H5 keeps the query in `path` only; the mini-program in `options`
    const params: Query = { ...parseQuery(pathQuery), ...page.options }
    const qs = Object.entries(params)
      .filter(([k, v]) => v !== undefined && !INTERNAL_PARAMS.has(k))
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&')
    if (route) return `/${route.replace(/^\//, '')}${qs ? `?${qs}` : ''}`
  }
  if (typeof window !== 'undefined' && window.location) {
    return `${window.location.pathname}${window.location.search}`
  }
  return ''
}

const isLoginPage = (path: string) => path.replace(/^\//, '').startsWith(ROUTES.login.path)

/** The login page that brings the visitor back to `redirectTo` afterwards. */
export function loginUrl(redirectTo?: string): string {
  return url('login', { redirect: redirectTo && !isLoginPage(redirectTo) ? redirectTo : undefined })
}

/** Where a visit to `path` really goes: the login page (and back) when it needs a session. */
export function gatedPath(path: string): string {
  const target = path.startsWith('/') ? path : `/${path}`
  return requiresLogin(target) && !loggedIn() ? loginUrl(target) : target
}

let loginPending = false

/**
 * Replace the page on screen with the login page, which comes back to `redirectTo` (default: that
 * page). Nothing happens while already on login or on the way there, so the request layer (2017)
 * and the page gate never stack two login pages.
 */
export function goLogin(redirectTo?: string): Promise<unknown> | undefined {
  const here = currentRoute()
  if (loginPending || isLoginPage(here)) return undefined
  loginPending = true
  const target = loginUrl(redirectTo ?? here)
  // callers do not wait for it (request layer, page gate): it settles quietly
  return Taro.redirectTo({ url: target })
    .catch(() => Taro.reLaunch({ url: target }))
    .catch((error: unknown) => console.warn('[navigation] could not open login', error))
    .finally(() => {
      loginPending = false
    })
}

/**
 * A page has appeared (launch, back, tab switch, any navigation): when it needs a session and there
 * is none — logged out meanwhile, or opened directly — it is replaced by login (and back afterwards).
 */
export function gateShownPage(route = currentRoute()): Promise<unknown> | undefined {
  if (!route || !requiresLogin(route) || loggedIn()) return undefined
  return goLogin(route)
}

/**
 * Open any path: tab pages via switchTab (which takes no query), others via navigateTo/redirectTo;
 * gated pages go through login while logged out.
 */
export function openPath(
  path: string,
  mode: 'navigate' | 'redirect' = 'navigate',
): Promise<unknown> {
  const target = gatedPath(path)
  if (isTabPage(target)) {
    const tab = target.split('?')[0]
    return trackNavigation(tab, () => Taro.switchTab({ url: tab }))
  }
  return trackNavigation(target, () =>
    mode === 'redirect' ? Taro.redirectTo({ url: target }) : Taro.navigateTo({ url: target }),
  )
}

export function navigate(name: RouteName, query?: Query): Promise<unknown> {
  return openPath(url(name, query))
}

export function redirect(name: RouteName, query?: Query): Promise<unknown> {
  return openPath(url(name, query), 'redirect')
}

export function relaunch(name: RouteName = 'home', query?: Query): Promise<unknown> {
  const target = gatedPath(url(name, query))
  return trackNavigation(target, () => Taro.reLaunch({ url: target }))
}

/** Back one page, or to the home tab when there is nothing to go back to. */
export function goBack(delta = 1): Promise<unknown> {
  if (Taro.getCurrentPages().length > delta) return Taro.navigateBack({ delta })
  return Taro.switchTab({ url: url('home') })
}
