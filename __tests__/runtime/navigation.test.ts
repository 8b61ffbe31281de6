import Taro from '@tarojs/taro'
import {
  configureNavigation,
  currentRoute,
  gateShownPage,
  goBack,
  goLogin,
  navigate,
  redirect,
  relaunch,
} from '@/runtime/navigation'
import { resolveApiBase, resolveFileHost } from '@/runtime/request'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never

function mockPages(pages: { route?: string; path?: string; options?: Record<string, string> }[]) {
  jest.spyOn(Taro, 'getCurrentPages').mockReturnValue(pages as never)
}

const loginFor = (target: string) => `/pages/login/login?redirect=${encodeURIComponent(target)}`

describe('navigation helpers', () => {
  let loggedIn = true
  let navigateTo: jest.SpyInstance
  let redirectTo: jest.SpyInstance
  let switchTab: jest.SpyInstance
  let navigateBack: jest.SpyInstance
  let reLaunch: jest.SpyInstance
  beforeEach(() => {
    loggedIn = true
    configureNavigation({ isLoggedIn: () => loggedIn })
    navigateTo = jest.spyOn(Taro, 'navigateTo').mockImplementation(ok)
    redirectTo = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    switchTab = jest.spyOn(Taro, 'switchTab').mockImplementation(ok)
    navigateBack = jest.spyOn(Taro, 'navigateBack').mockImplementation(ok)
    reLaunch = jest.spyOn(Taro, 'reLaunch').mockImplementation(ok)
  })
  afterEach(() => jest.restoreAllMocks())

  it('reads the current route with its query (mini-program options)', () => {
    mockPages([
      { route: 'pages/Home/index' },
      { route: 'pages/user/messageList', options: { type: '2' } },
    ])
    expect(currentRoute()).toBe('/pages/user/messageList?type=2')
  })
  it('reads the query an H5 page keeps in its path, without the router stamp', () => {
    mockPages([
      { route: '/pages/user/messageList', path: '/pages/user/messageList?stamp=4&type=3' },
    ])
    expect(currentRoute()).toBe('/pages/user/messageList?type=3')
  })
  it('opens tab routes with switchTab and others with navigateTo', async () => {
    await navigate('create')
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/Home/create' })
    await navigate('messageList', { type: 3 })
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/user/messageList?type=3' })
  })
  it('sends a logged-out visitor to login on the way to a gated page, with the page to come back to', async () => {
    loggedIn = false
    await navigate('messageList', { type: 3 })
    expect(navigateTo).toHaveBeenCalledWith({ url: loginFor('/pages/user/messageList?type=3') })
    await redirect('config')
    expect(redirectTo).toHaveBeenCalledWith({ url: loginFor('/pages/user/config') })
    await relaunch('permission')
    expect(reLaunch).toHaveBeenCalledWith({ url: loginFor('/pages/user/permission') })
  })
  it('lets a logged-out visitor open public pages and login itself', async () => {
    loggedIn = false
    await navigate('accountList')
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/user/accountList' })
    await navigate('mine')
    expect(switchTab).toHaveBeenLastCalledWith({ url: '/pages/Home/user' })
    await navigate('login')
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/login/login' })
    await navigate('protocol', { type: 'user' })
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/webView/protocol?type=user' })
  })
  it('goLogin replaces the page with login, coming back to it (the format login reads)', async () => {
    mockPages([{ route: 'pages/user/config' }])
    await goLogin()
    expect(redirectTo).toHaveBeenCalledWith({ url: loginFor('/pages/user/config') })
  })
  it('does not stack a second login page, nor start one while on the way there', async () => {
    mockPages([{ route: 'pages/login/login' }])
    expect(goLogin()).toBeUndefined()
    mockPages([{ route: 'pages/user/config' }])
    let finish: (v: unknown) => void = () => undefined
    redirectTo.mockImplementation(() => new Promise((resolve) => (finish = resolve)))
    const first = goLogin()
    expect(goLogin()).toBeUndefined()
    finish({})
    await first
    expect(redirectTo).toHaveBeenCalledTimes(1)
  })
  it('gates a page that appears without a session (direct open, back, after logout)', async () => {
    loggedIn = false
    mockPages([{ route: 'pages/Home/user' }, { route: 'pages/user/message' }])
    await gateShownPage()
    expect(redirectTo).toHaveBeenCalledWith({ url: loginFor('/pages/user/message') })
  })
  it('leaves public pages, login and logged-in visitors alone', () => {
    loggedIn = false
    expect(gateShownPage('/pages/Home/user')).toBeUndefined()
    expect(gateShownPage('/pages/user/accountList')).toBeUndefined()
    expect(gateShownPage('/pages/login/login?redirect=x')).toBeUndefined()
    expect(gateShownPage('')).toBeUndefined()
    loggedIn = true
    expect(gateShownPage('/pages/user/message')).toBeUndefined()
    expect(redirectTo).not.toHaveBeenCalled()
  })
  it('goes back, or home when there is nothing behind', async () => {
    mockPages([{ route: 'a' }, { route: 'b' }])
    await goBack()
    expect(navigateBack).toHaveBeenCalledWith({ delta: 1 })
    mockPages([{ route: 'b' }])
    await goBack()
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/Home/index' })
  })
})

describe('API address configuration', () => {
  const saved = { ...process.env }
  afterEach(() => {
    process.env = { ...saved }
  })
  it('defaults to /vmcloud/api on H5 and a same-origin file host', () => {
    delete process.env.TARO_APP_API_BASE
    delete process.env.TARO_APP_FILE_HOST
    expect(resolveApiBase()).toBe('/vmcloud/api')
    expect(resolveFileHost('/vmcloud/api')).toBe('')
  })
  it('needs an absolute address in the mini-program and uses its origin for files', () => {
    process.env.TARO_ENV = 'weapp'
    delete process.env.TARO_APP_API_BASE
    delete process.env.TARO_APP_FILE_HOST
    expect(resolveApiBase()).toBe('http://127.0.0.1:3000/vmcloud/api')
    expect(resolveFileHost('https://api.example.com/vmcloud/api')).toBe('https://api.example.com')
  })
  it('takes TARO_APP_API_BASE and TARO_APP_FILE_HOST', () => {
    process.env.TARO_APP_API_BASE = 'https://x.com/vmcloud/api'
    process.env.TARO_APP_FILE_HOST = 'https://files.x.com/'
    expect(resolveApiBase()).toBe('https://x.com/vmcloud/api')
    expect(resolveFileHost('whatever')).toBe('https://files.x.com')
  })
})
