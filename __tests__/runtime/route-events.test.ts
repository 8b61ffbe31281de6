import Taro from '@tarojs/taro'
import { installRouteWatch, type RouteEventSources } from '@/runtime/route-events'
import { installPageLoading, createPageLoading, trackNavigation } from '@/runtime/page-loading'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never

/** Each route event hands its listeners its own payload: a listener here takes whatever trigger() passes. */
type Listener = (...args: never[]) => void

function eventCenter() {
  const listeners = new Map<string, Listener[]>()
  return {
    on: (name: string, fn: Listener) => listeners.set(name, [...(listeners.get(name) ?? []), fn]),
    off: (name: string, fn: Listener) =>
      listeners.set(
        name,
        (listeners.get(name) ?? []).filter((f) => f !== fn),
      ),
    trigger: (name: string, ...args: unknown[]) =>
      listeners.get(name)?.forEach((fn) => fn(...(args as never[]))),
  }
}

describe('app-wide route watch', () => {
  let loggedIn: boolean
  let busy: boolean
  let onScreen: string
  let showLoading: jest.SpyInstance
  let hideLoading: jest.SpyInstance
  let showToast: jest.SpyInstance
  let redirectTo: jest.SpyInstance
  beforeEach(() => {
    jest.useFakeTimers()
    loggedIn = true
    busy = false
    onScreen = '/pages/Home/user'
    showLoading = jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
    hideLoading = jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
    showToast = jest.spyOn(Taro, 'showToast').mockImplementation(ok)
    redirectTo = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    jest.spyOn(Taro, 'navigateTo').mockImplementation(ok)
    jest
      .spyOn(Taro, 'getCurrentPages')
      .mockImplementation(() => [{ route: onScreen.replace(/^\//, '') }] as never)
  })
  afterEach(() => {
    jest.useRealTimers()
    jest.restoreAllMocks()
    installPageLoading(createPageLoading({} as never), { trackNavigations: false })
  })

  const install = (sources: Omit<RouteEventSources, 'currentRoute'>) =>
    installRouteWatch({
      isLoggedIn: () => loggedIn,
      overlayBusy: () => busy,
      sources: { ...sources, currentRoute: () => onScreen },
    })

  describe('H5 (@tarojs/router events)', () => {
    it('shows 加载中 when a page chunk takes over 200 ms, hides it when the page is shown', () => {
      const events = eventCenter()
      install({ runtime: 'h5', eventCenter: events })
      events.trigger('__taroRouterChange', { toLocation: { path: '/pages/user/config' } })
      jest.advanceTimersByTime(199)
      expect(showLoading).not.toHaveBeenCalled()
      jest.advanceTimersByTime(1)
      expect(showLoading).toHaveBeenCalledWith({ title: '加载中', mask: true })
      onScreen = '/pages/user/config'
      events.trigger('__afterTaroRouterChange', { toLocation: { path: '/pages/user/config' } })
      expect(hideLoading).toHaveBeenCalledTimes(1)
    })
    it('does not touch the overlay while requests hold it', () => {
      const events = eventCenter()
      install({ runtime: 'h5', eventCenter: events })
      busy = true
      events.trigger('__taroRouterChange', { toLocation: { path: '/pages/user/config' } })
      jest.advanceTimersByTime(300)
      events.trigger('__afterTaroRouterChange', {})
      expect(showLoading).not.toHaveBeenCalled()
      expect(hideLoading).not.toHaveBeenCalled()
    })
    it('a chunk that fails to load hides 加载中 and toasts', () => {
      const events = eventCenter()
      const win = new EventTarget()
      install({ runtime: 'h5', eventCenter: events, window: win as never })
      events.trigger('__taroRouterChange', { toLocation: { path: '/pages/user/config' } })
      jest.advanceTimersByTime(300)
      const rejection = Object.assign(new Event('unhandledrejection'), {
        reason: Object.assign(new Error('Loading chunk 3 failed.'), { name: 'ChunkLoadError' }),
      })
      win.dispatchEvent(rejection)
      expect(hideLoading).toHaveBeenCalledTimes(1)
      expect(showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '页面加载失败，请检查网络后重试' }),
      )
    })
    it('a gated page shown without a session (back, after logout) is replaced by login', () => {
      const events = eventCenter()
      install({ runtime: 'h5', eventCenter: events })
      loggedIn = false
      onScreen = '/pages/user/message'
      events.trigger('__afterTaroRouterChange', {})
      expect(redirectTo).toHaveBeenCalledWith({
        url: `/pages/login/login?redirect=${encodeURIComponent('/pages/user/message')}`,
      })
    })
    it('a public page shown logged out stays', () => {
      const events = eventCenter()
      install({ runtime: 'h5', eventCenter: events })
      loggedIn = false
      onScreen = '/pages/Home/user'
      events.trigger('__afterTaroRouterChange', {})
      expect(redirectTo).not.toHaveBeenCalled()
    })
  })

  describe('mini-program (wx.onAppRoute, navigation calls)', () => {
    it('gates every shown page (launch, share card, navigateBack) through wx.onAppRoute', () => {
      let listener: (res: { path?: string }) => void = () => undefined
      const wx = { onAppRoute: jest.fn((fn) => (listener = fn)), offAppRoute: jest.fn() }
      install({ runtime: 'weapp', eventCenter: eventCenter(), wx })
      expect(wx.onAppRoute).toHaveBeenCalled()
      loggedIn = false
      onScreen = '/pages/user/config'
      listener({ path: 'pages/user/config' })
      expect(redirectTo).toHaveBeenCalledWith({
        url: `/pages/login/login?redirect=${encodeURIComponent('/pages/user/config')}`,
      })
    })
    it('navigation calls drive the indicator (sub-package download)', async () => {
      install({ runtime: 'weapp', eventCenter: eventCenter() })
      let open: (v: unknown) => void = () => undefined
      const done = trackNavigation('/pages/user/config', () => new Promise((r) => (open = r)))
      jest.advanceTimersByTime(200)
      expect(showLoading).toHaveBeenCalledTimes(1)
      open({})
      await done
      expect(hideLoading).toHaveBeenCalledTimes(1)
    })
    it('works without wx.onAppRoute (old base library)', () => {
      expect(() => install({ runtime: 'weapp', eventCenter: eventCenter(), wx: {} })).not.toThrow()
    })
  })
})
