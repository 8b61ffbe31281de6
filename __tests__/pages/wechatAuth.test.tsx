import { act, fireEvent, screen } from '@testing-library/react'
import WechatAuth from '@/pages/auth/wechatAuth'
import { ApiError } from '@/services/api-error'
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
  beforeEach(() => setRouteParams({ code: 'oauth-code' }))

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
