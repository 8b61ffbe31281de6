import { screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import WebInstance from '@/pages/webView/web_instance'
import * as deviceService from '@/api/device'
import { renderPage, setRouteParams } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({ getAuthToken: jest.fn() }))

const getAuthToken = deviceService.getAuthToken as jest.Mock

function session(loadUserInfo: jest.Mock) {
  return { session: { userId: 7, userInfo: null, loadUserInfo } }
}

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceId: '12' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('云手机控制页', () => {
  it('opens the control page with a one-time token, userId, userType 2 and isWeb 1', async () => {
    getAuthToken.mockResolvedValue({
      authToken: 'tok',
      expiresAt: Date.now() + 120_000,
      controlUrl: '/vmcloud/api/sandbox/supplier/control?deviceId=12',
    })
    const { container } = renderPage(<WebInstance />, session(jest.fn().mockResolvedValue({})))
    await waitFor(() => expect(container.querySelector('iframe')).not.toBeNull())
    expect(getAuthToken).toHaveBeenCalledWith(12)
    expect(container.querySelector('iframe')!.getAttribute('src')).toBe(
      '/vmcloud/api/sandbox/supplier/control?deviceId=12&token=tok&userId=7&userType=2&isWeb=1',
    )
  })

  it('says 用户信息获取失败 when the user info cannot be fetched, and asks for no token', async () => {
    renderPage(<WebInstance />, session(jest.fn().mockRejectedValue(new Error('网络异常'))))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '用户信息获取失败，请刷新页面重新尝试' }),
      ),
    )
    expect(getAuthToken).not.toHaveBeenCalled()
    expect(screen.getByText('重试')).toBeTruthy()
  })

  it('shows the server refusal (e.g. a phone that is not running)', async () => {
    getAuthToken.mockRejectedValue(
      Object.assign(new Error('云手机已到期，请续费后再操作'), {
        msg: '云手机已到期，请续费后再操作',
      }),
    )
    renderPage(<WebInstance />, session(jest.fn().mockResolvedValue({})))
    expect(await screen.findByText('云手机已到期，请续费后再操作')).toBeTruthy()
  })
})
