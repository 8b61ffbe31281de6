/**
 * One place that watches every page change on both runtimes and applies two app-wide rules:
 * the async page load indicator (SPEC 9, page-loading.ts) and the login gate for pages that appear
 * without a session (SPEC 2: opened directly, reached by navigateBack or a redirect after the session
 * was cleared). Pages do nothing themselves.
 *
 * H5: @tarojs/router announces a route before it fetches the page's chunk (`__taroRouterChange`)
 * and after the page is shown (`__afterTaroRouterChange`); a chunk that fails to load rejects the
 * router's render, which surfaces as an unhandled rejection (ChunkLoadError).
 * Mini-program: `wx.onAppRoute` (after every route: launch, navigateTo, redirectTo, navigateBack,
 * switchTab, reLaunch) reports shown pages; the route start is navigation.ts's own call.
 */
import Taro from '@tarojs/taro'
import { ASYNC_PAGE_DELAY_MS, LOADING_TEXT } from '@/constants/limits'
import { toast } from './feedback'
import { configureNavigation, currentRoute, gateShownPage } from './navigation'
import {
  createPageLoading,
  installPageLoading,
  isLoadFailure,
  type PageLoading,
} from './page-loading'

export interface RouteHandlers {
  /** a route started loading (H5 only) */
  started(path: string): void
  /** a page is on screen */
  shown(route: string): void
  /** the page's code could not be loaded */
  loadFailed(): void
}

type RouterEvent = { toLocation?: { path?: string } } | undefined
type RouterListener = (event?: RouterEvent) => void

interface EventCenter {
  on(event: string, listener: RouterListener): unknown
  off(event: string, listener: RouterListener): unknown
}

interface WxRouteApi {
  onAppRoute?(listener: (res: { path?: string }) => void): void
  offAppRoute?(listener: (res: { path?: string }) => void): void
}

export interface RouteEventSources {
  runtime: 'h5' | 'weapp'
  eventCenter: EventCenter
  /** H5 window (unhandled rejections) */
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'>
  /** the mini-program's `wx` */
  wx?: WxRouteApi
  currentRoute(): string
}

/** Subscribe the handlers to the runtime's route events; returns the unsubscribe. */
export function watchRoutes(sources: RouteEventSources, handlers: RouteHandlers): () => void {
  const shown = () => handlers.shown(sources.currentRoute())
  if (sources.runtime === 'h5') {
    const started = (event?: RouterEvent) => handlers.started(event?.toLocation?.path ?? '')
    const notFound = () => handlers.shown('')
    const rejected = (event: PromiseRejectionEvent) => {
      if (isLoadFailure(event.reason)) handlers.loadFailed()
    }
    sources.eventCenter.on('__taroRouterChange', started)
    sources.eventCenter.on('__afterTaroRouterChange', shown)
    sources.eventCenter.on('__taroRouterNotFound', notFound)
    sources.window?.addEventListener('unhandledrejection', rejected)
    return () => {
      sources.eventCenter.off('__taroRouterChange', started)
      sources.eventCenter.off('__afterTaroRouterChange', shown)
      sources.eventCenter.off('__taroRouterNotFound', notFound)
      sources.window?.removeEventListener('unhandledrejection', rejected)
    }
  }
  // base library ≥ 3.5.5 documents it; older ones have it undocumented, or not at all (then the
  // launch plan, navigation.ts and the request layer's 2017 handling still gate)
  if (typeof sources.wx?.onAppRoute !== 'function') return () => undefined
  sources.wx.onAppRoute(shown)
  return () => sources.wx?.offAppRoute?.(shown)
}

export interface RouteWatchOptions {
  isLoggedIn(): boolean
  /** requests currently hold the loading overlay (the request layer's count) */
  overlayBusy(): boolean
  sources?: RouteEventSources
}

declare const wx: WxRouteApi | undefined

function runtimeSources(): RouteEventSources {
  const h5 = process.env.TARO_ENV === 'h5'
  return {
    runtime: h5 ? 'h5' : 'weapp',
    eventCenter: Taro.eventCenter,
    window: h5 && typeof window !== 'undefined' ? window : undefined,
    wx: !h5 && typeof wx !== 'undefined' ? wx : undefined,
    currentRoute,
  }
}

/**
 * H5: every page scrolls in its own container (Taro's .taro_page); a tab stop on it lets keyboard
 * users scroll pages whose rows are tapped rather than focused.
 */
function keyboardScrollablePages() {
  if (typeof document === 'undefined') return
  document
    .querySelectorAll('.taro_page:not([tabindex])')
    .forEach((page) => page.setAttribute('tabindex', '0'))
}

/** App start: the session check for navigation, the page load indicator and the page gate. */
export function installRouteWatch(options: RouteWatchOptions): PageLoading {
  const sources = options.sources ?? runtimeSources()
  configureNavigation({ isLoggedIn: options.isLoggedIn })
  // one overlay for requests and page loads: neither hides the other's
  const pageLoading = createPageLoading({
    delayMs: ASYNC_PAGE_DELAY_MS,
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    currentRoute: sources.currentRoute,
    showLoading: () => {
      if (!options.overlayBusy()) void Taro.showLoading({ title: LOADING_TEXT, mask: true })
    },
    hideLoading: () => {
      if (!options.overlayBusy()) void Taro.hideLoading()
    },
    toast: (message) => void toast(message),
  })
  installPageLoading(pageLoading, { trackNavigations: sources.runtime !== 'h5' })
  watchRoutes(sources, {
    started: (path) => pageLoading.start(path),
    shown: (route) => {
      pageLoading.appeared()
      void gateShownPage(route)
      if (sources.runtime === 'h5') keyboardScrollablePages()
    },
    loadFailed: () => pageLoading.failed(true),
  })
  return pageLoading
}
