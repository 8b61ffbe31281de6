import Taro from '@tarojs/taro'
import platform from '@/platform'
import { buildCookie, mainDomain } from '@/platform/cookies'
import { planLaunch } from '@/app-launch'
import { url } from '@/constants/routes'
import {
  newOAuthState,
  officialAccountAuthUrl,
  returnPath,
  takeOAuthState,
  WECHAT_AUTHORIZE_URL,
} from '@/platform/oauth'
import {
  bindUpdatePrompts,
  deviceInfoFromSystemInfo,
  persistentDeviceId,
  randomUuid,
  terminalTypeFromSystemInfo,
  terminalTypeFromUserAgent,
} from '@/platform/shared'
import type { KeyValueStorage } from '@/platform/types'

describe('terminal type', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X)', 'IOS'],
    ['Mozilla/5.0 (iPad; CPU OS 15_0 like Mac OS X)', 'iPad'],
    ['Mozilla/5.0 (Linux; Android 13; Pixel 7) Mobile Safari', 'android'],
    ['Mozilla/5.0 (Linux; Android 12; SM-X700) Safari', 'androidPad'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 'mac'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64)', 'Win'],
    ['curl/8', 'other'],
  ])('user agent %s → %s', (ua, type) => {
    expect(terminalTypeFromUserAgent(ua)).toBe(type)
  })
  it('an iPad asking for the desktop site is still an iPad', () => {
    expect(terminalTypeFromUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe(
      'iPad',
    )
  })
  it.each([
    [{ platform: 'ios', model: 'iPhone 14' }, 'IOS'],
    [{ platform: 'ios', model: 'iPad Pro' }, 'iPad'],
    [{ platform: 'android', screenWidth: 393, screenHeight: 851 }, 'android'],
    [{ platform: 'android', screenWidth: 800, screenHeight: 1280 }, 'androidPad'],
    [{ platform: 'mac' }, 'mac'],
    [{ platform: 'windows' }, 'Win'],
    [{ platform: 'devtools' }, 'other'],
  ])('system info %j → %s', (info, type) => {
    expect(terminalTypeFromSystemInfo(info)).toBe(type)
  })
})

describe('main-domain cookies', () => {
  it('finds the main domain, and none on localhost or an IP', () => {
    expect(mainDomain('m.app.example.com')).toBe('example.com')
    expect(mainDomain('example.com')).toBe('example.com')
    expect(mainDomain('h5.yun.com.cn')).toBe('yun.com.cn')
    expect(mainDomain('localhost')).toBeUndefined()
    expect(mainDomain('192.168.1.20')).toBeUndefined()
    expect(mainDomain('[::1]')).toBeUndefined()
  })
  it('builds a cookie with the domain attribute only when there is one', () => {
    expect(buildCookie('token', 'a b', { domain: 'example.com', maxAgeSeconds: 10 })).toBe(
      'token=a%20b; path=/; domain=example.com; max-age=10',
    )
    expect(buildCookie('channel', 'h5')).toBe('channel=h5; path=/')
  })
  it('H5 writes and removes the session cookies (no domain on localhost)', () => {
    platform.setCookies({ channel: 'h5', token: 'tk', userId: '9', runtime: 'h5' })
    expect(document.cookie).toContain('token=tk')
    expect(document.cookie).toContain('userId=9')
    expect(document.cookie).toContain('channel=h5')
    expect(document.cookie).toContain('runtime=h5')
    platform.removeCookies(['token', 'userId'])
    expect(document.cookie).not.toContain('token=tk')
    expect(document.cookie).not.toContain('userId=9')
  })
})

describe('official-account authorisation', () => {
  const ORIGIN = 'https://h5.example.com'
  /** The wechatAuth address the authorisation returns to, and that address as one decoded string. */
  const wayBack = (link: string) => {
    const back = new URL(new URL(link).searchParams.get('redirect_uri')!)
    return { back, text: decodeURIComponent(back.toString()) }
  }

  it('the launch plan (a gated page opened from the official account) returns through wechatAuth', () => {
    const [, step] = planLaunch({
      path: 'pages/user/messageList',
      query: { type: '2', channelCode: 'c-9' },
      isLoggedIn: false,
      isWeChatBrowser: true,
      hasOpenId: false,
    })
    if (step?.kind !== 'authorizeOfficialAccount') throw new Error(`planned ${step?.kind}`)
    const link = officialAccountAuthUrl({
      appId: 'wx123',
      origin: ORIGIN,
      returnTo: step.redirect,
      channelCode: step.channelCode,
      state: 's1',
    })
    const parsed = new URL(link)
    expect(parsed.origin + parsed.pathname).toBe(WECHAT_AUTHORIZE_URL)
    expect(parsed.searchParams.get('appid')).toBe('wx123')
    expect(parsed.searchParams.get('response_type')).toBe('code')
    expect(parsed.searchParams.get('scope')).toBe('snsapi_base')
    expect(parsed.searchParams.get('state')).toBe('s1')
    expect(parsed.hash).toBe('#wechat_redirect')
    const { back, text } = wayBack(link)
    expect(back.origin + back.pathname).toBe(`${ORIGIN}/pages/auth/wechatAuth`)
    expect(back.searchParams.get('isWeChatAuth')).toBe('1')
    expect(back.searchParams.get('channelCode')).toBe('c-9')
    // encoded once: URLSearchParams decodes it to the page with its own query
    expect(back.searchParams.get('redirect')).toBe('/pages/user/messageList?type=2')
    expect(text.match(/channelCode/g)).toHaveLength(1)
  })

  it('微信一键登录 on the login page returns through wechatAuth to its redirect, or to Mine', () => {
    const fromLogin = wayBack(
      officialAccountAuthUrl({ appId: 'wx1', origin: ORIGIN, returnTo: url('mine'), state: 's' }),
    )
    expect(fromLogin.back.pathname).toBe('/pages/auth/wechatAuth')
    expect(fromLogin.back.searchParams.get('redirect')).toBe('/pages/Home/user')
    expect(fromLogin.back.searchParams.has('channelCode')).toBe(false)
  })

  it('what the authorisation carries never rides inside the page it returns to', () => {
    const { back, text } = wayBack(
      officialAccountAuthUrl({
        appId: 'wx1',
        origin: ORIGIN,
        returnTo: '/pages/user/config?channelCode=old&isWeChatAuth=1&code=c&state=s&tab=2',
        channelCode: 'new',
        state: 's',
      }),
    )
    expect(back.searchParams.get('redirect')).toBe('/pages/user/config?tab=2')
    expect(back.searchParams.get('channelCode')).toBe('new')
    expect(text.match(/channelCode/g)).toHaveLength(1)
    expect(returnPath('pages/Home/user')).toBe('/pages/Home/user')
  })

  it("a development build's sandbox page is a path on the app's own origin", () => {
    const link = officialAccountAuthUrl({
      appId: 'wx_sandbox',
      origin: ORIGIN,
      returnTo: '/pages/Home/user',
      state: 's',
      authorizeUrl: '/vmcloud/api/sandbox/wechat/oauth2/authorize',
    })
    expect(link.startsWith(`${ORIGIN}/vmcloud/api/sandbox/wechat/oauth2/authorize?appid=`)).toBe(
      true,
    )
  })

  it('the state comes back once, only to the browser that started the authorisation', () => {
    const state = newOAuthState(platform.storage)
    expect(state).toMatch(/^[0-9a-f]{32}$/)
    expect(newOAuthState(platform.storage)).not.toBe(state)
    const latest = newOAuthState(platform.storage)
    expect(takeOAuthState(platform.storage, 'forged')).toBe(false)
    expect(takeOAuthState(platform.storage, latest)).toBe(false) // the forged try used it up
    const next = newOAuthState(platform.storage)
    expect(takeOAuthState(platform.storage, next)).toBe(true)
    expect(takeOAuthState(platform.storage, next)).toBe(false)
    expect(takeOAuthState(platform.storage, undefined)).toBe(false)
  })

  it('is not possible outside the WeChat browser', () => {
    process.env.TARO_APP_WECHAT_APPID = 'wx123'
    expect(platform.isWeChatBrowser()).toBe(false)
    expect(platform.officialAccountAuthorize('c', '/pages/login/login')).toBe(false)
  })
})

describe('H5 platform basics', () => {
  it('is the h5 runtime with the h5 channel and no mini-program login', async () => {
    expect(platform.runtime).toBe('h5')
    expect(platform.clientType).toBe('h5')
    expect(platform.defaultChannel).toBe('h5')
    await expect(platform.wechatLogin()).rejects.toThrow('当前环境不支持微信登录')
  })
  it('stores values through Taro storage and answers undefined for a missing key', () => {
    platform.storage.set('k', { a: 1 })
    expect(platform.storage.get('k')).toEqual({ a: 1 })
    platform.storage.remove('k')
    expect(platform.storage.get('k')).toBeUndefined()
  })
  it('falls back to the browser position when map picking is unavailable', async () => {
    jest
      .spyOn(Taro, 'chooseLocation')
      .mockRejectedValue({ errMsg: 'chooseLocation:fail not supported' })
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true } as never)
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: {
        getCurrentPosition: (ok: PositionCallback) =>
          ok({ coords: { latitude: 31.2, longitude: 121.5 } } as GeolocationPosition),
      },
    })
    await expect(platform.chooseLocation()).resolves.toEqual({
      name: '当前位置',
      address: '',
      latitude: 31.2,
      longitude: 121.5,
    })
    expect(modal).toHaveBeenCalled()
    jest.restoreAllMocks()
  })
  it('keeps one persisted device id', () => {
    const a = platform.getDeviceInfo()
    const b = platform.getDeviceInfo()
    expect(a.deviceId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(b.deviceId).toBe(a.deviceId)
  })
})

describe('device info', () => {
  it('reads brand, model, os name, system and version', () => {
    expect(
      deviceInfoFromSystemInfo(
        { brand: 'Apple', model: 'iPhone 14', system: 'iOS 16.1', platform: 'ios' },
        'd1',
      ),
    ).toEqual({
      deviceId: 'd1',
      brand: 'Apple',
      deviceModel: 'iPhone 14',
      osName: 'iOS',
      system: 'iOS 16.1',
      osVersion: '16.1',
    })
  })
  it('creates a device id once', () => {
    const store = new Map<string, unknown>()
    const storage: KeyValueStorage = {
      get: <T>(k: string) => store.get(k) as T | undefined,
      set: (k, v) => void store.set(k, v),
      remove: (k) => void store.delete(k),
    }
    const id = persistentDeviceId(storage, () => 0)
    expect(id).toBe(randomUuid(() => 0))
    expect(persistentDeviceId(storage, () => 0.5)).toBe(id)
  })
})

describe('mini-program update manager', () => {
  function fakeManager() {
    const handlers: { ready?: () => void; failed?: () => void } = {}
    return {
      handlers,
      manager: {
        onUpdateReady: (cb: () => void) => (handlers.ready = cb),
        onUpdateFailed: (cb: () => void) => (handlers.failed = cb),
        applyUpdate: jest.fn(),
      },
    }
  }
  it('asks to restart with 立即重启 and applies the update on confirm', async () => {
    const { handlers, manager } = fakeManager()
    const showModal = jest.fn().mockResolvedValue({ confirm: true })
    bindUpdatePrompts(manager, { showModal })
    handlers.ready!()
    await Promise.resolve()
    await Promise.resolve()
    expect(showModal).toHaveBeenCalledWith({
      title: '更新提示',
      content: '新版本已经准备好，是否重启应用？',
      confirmText: '立即重启',
    })
    expect(manager.applyUpdate).toHaveBeenCalled()
  })
  it('does not restart when declined, and tells to check the network on failure', async () => {
    const { handlers, manager } = fakeManager()
    const showModal = jest.fn().mockResolvedValue({ confirm: false })
    bindUpdatePrompts(manager, { showModal })
    handlers.ready!()
    handlers.failed!()
    await Promise.resolve()
    await Promise.resolve()
    expect(manager.applyUpdate).not.toHaveBeenCalled()
    expect(showModal).toHaveBeenLastCalledWith(
      expect.objectContaining({ content: '新版本下载失败，请检查网络后重试' }),
    )
  })
  it('is a no-op on H5', () => {
    expect(() => platform.setupUpdateManager()).not.toThrow()
  })
})
