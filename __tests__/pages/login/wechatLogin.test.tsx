import { act, fireEvent, screen } from '@testing-library/react'
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
