import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import WechatAuth from '@/pages/auth/wechatAuth'
import platform from '@/platform'
import { newOAuthState } from '@/platform/oauth'
import { ApiError } from '@/runtime/api-error'
import { flush, renderPage, setRouteParams, typeInto } from './page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro(),
)

type Bind = { kind: 'officialAccount'; ticket: string } | null

/** The session as the page uses it: an unbound official-account login left a bind ticket. */
function fakeSession(bindResult: (session: { wechatBind: Bind }) => Promise<boolean>) {
  const session: {
    wechatBind: Bind
    officialAccountLogin: jest.Mock
    bindWechat: jest.Mock<Promise<boolean>>
  } = {
    wechatBind: { kind: 'officialAccount', ticket: 'bt' },
    officialAccountLogin: jest.fn().mockResolvedValue({ bound: false, openid: 'o1' }),
    bindWechat: jest.fn(() => bindResult(session)),
  }
  return session
}

async function submitBinding(container: HTMLElement) {
  await act(async () => {
    typeInto(container, '手机号', '13812345678')
    typeInto(container, '验证码', '123456')
    await flush()
  })
  await act(async () => {
    fireEvent.click(screen.getByText('绑定并登录'))
    await flush()
  })
}

describe('wechatAuth: binding a WeChat to a number with the bind ticket', () => {
  beforeEach(() => setRouteParams({ code: 'oauth-code', state: newOAuthState(platform.storage) }))

  it('a refused ticket (1004) ends on 微信授权失败 with the way back to login', async () => {
    const session = fakeSession(async (s) => {
      s.wechatBind = null
      throw new ApiError(1004, '微信授权已失效，请重新授权')
    })
    const { container } = renderPage(<WechatAuth />, { session })
    await act(flush)
    expect(session.officialAccountLogin).toHaveBeenCalledWith('oauth-code')
    await submitBinding(container)
    expect(session.bindWechat).toHaveBeenCalledWith({ mobilePhone: '13812345678', code: '123456' })
    await screen.findByText('微信授权失败')
    expect(screen.getByText('微信授权已失效，请重新发起微信登录')).toBeTruthy()
    expect(screen.getByText('使用手机号登录')).toBeTruthy()
  })

  it('a mistyped code keeps the form and the ticket for another try', async () => {
    const session = fakeSession(async () => {
      throw new ApiError(1006, '验证码错误')
    })
    const { container } = renderPage(<WechatAuth />, { session })
    await act(flush)
    await submitBinding(container)
    expect(session.bindWechat).toHaveBeenCalledTimes(1)
    expect(screen.queryByText('微信授权失败')).toBeNull()
    expect(screen.getByText('绑定并登录')).toBeTruthy()
  })
})

describe('wechatAuth: the landing of every official-account authorisation', () => {
  const redirect = '/pages/user/messageList?type=2'
  let redirectTo: jest.SpyInstance
  let switchTab: jest.SpyInstance
  beforeEach(() => {
    redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'redirectTo:ok' })
    switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'switchTab:ok' })
  })
  afterEach(() => jest.restoreAllMocks())

  const land = (params: Record<string, string>) =>
    setRouteParams({ code: 'oauth-code', isWeChatAuth: '1', channelCode: 'c1', ...params })

  it('a bound WeChat logs in and goes back to the page it came from', async () => {
    // as Taro's H5 router hands them over: still URL-encoded
    land({
      state: newOAuthState(platform.storage),
      redirect: encodeURIComponent(redirect),
      code: 'sandbox%3Aoa-1',
    })
    const session = fakeSession(async () => true)
    session.officialAccountLogin.mockResolvedValue({ bound: true, openid: 'o1' })
    renderPage(<WechatAuth />, { session })
    await act(flush)
    expect(session.officialAccountLogin).toHaveBeenCalledWith('sandbox:oa-1')
    expect(redirectTo).toHaveBeenCalledWith({ url: redirect })
  })

  it('an unbound WeChat binds a number, then goes back to the page (a tab page by switchTab)', async () => {
    land({ state: newOAuthState(platform.storage), redirect: '/pages/Home/user' })
    const session = fakeSession(async () => true)
    const { container } = renderPage(<WechatAuth />, { session })
    await act(flush)
    expect(screen.getByText('绑定手机号')).toBeTruthy()
    await submitBinding(container)
    expect(session.bindWechat).toHaveBeenCalledTimes(1)
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/Home/user' })
  })

  it.each([
    ['a state this browser never sent (a code from a link someone sent)', 'forged'],
    ['no state at all', undefined],
  ])('%s: the code is not exchanged', async (_name, state) => {
    newOAuthState(platform.storage)
    land(state ? { state, redirect } : { redirect })
    const session = fakeSession(async () => true)
    renderPage(<WechatAuth />, { session })
    await act(flush)
    expect(session.officialAccountLogin).not.toHaveBeenCalled()
    await screen.findByText('微信授权失败')
    expect(screen.getByText('微信授权已失效，请重新发起微信登录')).toBeTruthy()
    expect(redirectTo).not.toHaveBeenCalled()
  })

  it('a state is good once: reloading the landing does not exchange the code again', async () => {
    const state = newOAuthState(platform.storage)
    land({ state, redirect })
    const session = fakeSession(async () => true)
    session.officialAccountLogin.mockResolvedValue({ bound: true, openid: 'o1' })
    renderPage(<WechatAuth />, { session }).unmount()
    await act(flush)
    renderPage(<WechatAuth />, { session })
    await act(flush)
    expect(session.officialAccountLogin).toHaveBeenCalledTimes(1)
    await screen.findByText('微信授权失败')
  })
})
