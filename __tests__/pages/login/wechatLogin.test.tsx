import { act, fireEvent, screen } from '@testing-library/react'
import Login from '@/pages/login/login'
import WechatLogin from '@/pages/login/parts/WechatLogin'
import platform from '@/platform'
import { flush, renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)

describe('微信一键登录 in the WeChat browser', () => {
  afterEach(() => jest.restoreAllMocks())

  it.each([
    // the login page's redirect as Taro's H5 router hands it over: still encoded
    [encodeURIComponent('/pages/user/messageList?type=2'), '/pages/user/messageList?type=2'],
    [undefined, '/pages/Home/user'],
  ])('authorises to come back to the page that asked (%s)', async (redirect, returnTo) => {
    jest.spyOn(platform, 'isWeChatBrowser').mockReturnValue(true)
    const authorize = jest.spyOn(platform, 'officialAccountAuthorize').mockReturnValue(true)
    renderPage(<WechatLogin agreed redirect={redirect} />, { session: { channel: 'c1' } })
    await act(async () => {
      fireEvent.click(screen.getByText('微信一键登录'))
      await flush()
    })
    expect(authorize).toHaveBeenCalledWith('c1', returnTo)
  })
})

describe('the login page', () => {
  afterEach(() => jest.restoreAllMocks())

  const order = (texts: string[]) => texts.map((text) => [text, screen.getByText(text)] as const)
  const before = (a: Element, b: Element) =>
    Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)

  it('in WeChat’s browser puts 微信一键登录 and the agreement first, the phone number under 其他登录方式', () => {
    jest.spyOn(platform, 'isWeChatBrowser').mockReturnValue(true)
    renderPage(<Login />, { session: { channel: 'c1' } })
    const [[, wechat], [, agreement], [, other], [, submit]] = order([
      '微信一键登录',
      '我已阅读并同意',
      '其他登录方式',
      '登录 / 注册',
    ])
    expect(before(wechat, agreement)).toBe(true)
    expect(before(agreement, other)).toBe(true)
    expect(before(other, submit)).toBe(true)
    expect(screen.getAllByText('我已阅读并同意')).toHaveLength(1)
  })

  it('in another browser offers no WeChat login, and the agreement stays under the form', () => {
    jest.spyOn(platform, 'isWeChatBrowser').mockReturnValue(false)
    renderPage(<Login />, { session: { channel: 'c1' } })
    expect(screen.queryByText('微信一键登录')).toBeNull()
    expect(screen.queryByText('其他登录方式')).toBeNull()
    const [[, submit], [, agreement]] = order(['登录 / 注册', '我已阅读并同意'])
    expect(before(submit, agreement)).toBe(true)
  })
})
