import Taro from '@tarojs/taro'
import {
  afterLogin,
  currentRoute,
  goBack,
  goLogin,
  navigate,
  peekLoginRedirect,
  takeLoginRedirect,
} from '@/services/navigation'
import { resolveApiBase, resolveFileHost } from '@/services/request'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never

function mockPages(pages: { route: string; options?: Record<string, string> }[]) {
  jest.spyOn(Taro, 'getCurrentPages').mockReturnValue(pages as never)
}

describe('navigation helpers', () => {
  let navigateTo: jest.SpyInstance
  let redirectTo: jest.SpyInstance
  let switchTab: jest.SpyInstance
  let navigateBack: jest.SpyInstance
  beforeEach(() => {
    navigateTo = jest.spyOn(Taro, 'navigateTo').mockImplementation(ok)
    redirectTo = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    switchTab = jest.spyOn(Taro, 'switchTab').mockImplementation(ok)
    navigateBack = jest.spyOn(Taro, 'navigateBack').mockImplementation(ok)
    takeLoginRedirect()
  })
  afterEach(() => jest.restoreAllMocks())

  it('reads the current route with its query', () => {
    mockPages([
      { route: 'pages/Home/index' },
      { route: 'pages/user/messageList', options: { type: '2' } },
    ])
    expect(currentRoute()).toBe('/pages/user/messageList?type=2')
  })
  it('goes to login remembering the current page, and comes back after login', async () => {
    mockPages([{ route: 'pages/user/config' }])
    await goLogin()
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/login/login' })
    expect(peekLoginRedirect()).toBe('/pages/user/config')
    await afterLogin()
    expect(redirectTo).toHaveBeenCalledWith({ url: '/pages/user/config' })
    expect(peekLoginRedirect()).toBeUndefined()
  })
  it('returns to a tab page via switchTab', async () => {
    mockPages([{ route: 'pages/Home/user' }])
    await goLogin()
    await afterLogin()
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/Home/user' })
  })
  it('falls back to the Mine tab without a remembered page', async () => {
    await afterLogin()
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/Home/user' })
  })
  it('does not stack a second login page', async () => {
    mockPages([{ route: 'pages/login/login' }])
    await goLogin()
    expect(navigateTo).not.toHaveBeenCalled()
  })
  it('opens tab routes with switchTab and others with navigateTo', async () => {
    await navigate('create')
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/Home/create' })
    await navigate('messageList', { type: 3 })
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/user/messageList?type=3' })
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
