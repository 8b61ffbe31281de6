import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import PlayTrial from '@/pages/landing/play-trial/index'
import PlayTrialDownload from '@/pages/landing/play-trial/download'
import * as engagement from '@/api/engagement'
import * as device from '@/api/device'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () => {
  const taro = jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro()
  return { ...taro, useShareAppMessage: jest.fn() }
})
jest.mock('@/api/engagement', () => ({
  getPlayTrialConfig: jest.fn(),
  receiveTrialPhone: jest.fn(),
}))
jest.mock('@/api/device', () => ({ listDevices: jest.fn(), sendCommand: jest.fn() }))

const api = engagement as jest.Mocked<typeof engagement>
const devices = device as jest.Mocked<typeof device>
const CONFIG = {
  gameName: '星海远征',
  description: '大型太空策略手游。',
  highlights: ['24小时云端挂机'],
  packageName: 'com.xinghai.expedition',
  packageSize: 1_932_735_283,
  version: '3.6.2',
  downloadUrl: 'https://download.example.cn/xinghai.apk',
  trial: { offered: true, goodName: '畅享版 4核4G', configName: '4核 4G', minutes: 120 },
}
const page = (records: unknown[]) => ({ records, page: 1, totalPage: 1, total: records.length })
const phone = (deviceId: number, name: string) => ({ deviceId, name, status: 1, busy: false })
const loggedOut = { session: { isLoggedIn: false } }
const loggedIn = { session: { isLoggedIn: true } }

beforeEach(() => {
  jest.clearAllMocks()
  api.getPlayTrialConfig.mockResolvedValue(CONFIG)
  for (const fn of ['showToast', 'navigateTo', 'reLaunch', 'setClipboardData'] as const)
    jest.spyOn(Taro, fn).mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('landing/play-trial/index', () => {
  it('explains the game and the trial phone without a login', async () => {
    renderPage(<PlayTrial />, loggedOut)
    await screen.findByText('星海远征')
    expect(screen.getByText('24小时云端挂机')).toBeTruthy()
    expect(
      screen.getByText(/免费领取一台畅享版 4核4G（4核 4G）云手机，可使用\s*2小时/),
    ).toBeTruthy()
    fireEvent.click(screen.getByText('登录领取试玩云机'))
    await waitFor(() =>
      expect(Taro.navigateTo).toHaveBeenCalledWith({
        url: `/pages/login/login?redirect=${encodeURIComponent('/pages/landing/play-trial/index')}`,
      }),
    )
    expect(api.receiveTrialPhone).not.toHaveBeenCalled()
  })

  it('claims the trial phone when logged in and goes Home', async () => {
    api.receiveTrialPhone.mockResolvedValue({
      ok: true,
      data: { deviceId: 5, name: '云手机-5', zoneName: '华东-上海', expireAt: 0 },
    })
    renderPage(<PlayTrial />, loggedIn)
    fireEvent.click(await screen.findByText('免费领取试玩云机'))
    await waitFor(() => expect(Taro.reLaunch).toHaveBeenCalledWith({ url: '/pages/Home/index' }))
    expect(api.receiveTrialPhone).toHaveBeenCalledTimes(1)
  })

  it('says why when the trial was claimed before', async () => {
    api.receiveTrialPhone.mockRejectedValue({ code: 1080, msg: '您已领取过免费试用云机' })
    renderPage(<PlayTrial />, loggedIn)
    fireEvent.click(await screen.findByText('免费领取试玩云机'))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '您已领取过免费试用云机' }),
      ),
    )
    expect(Taro.reLaunch).not.toHaveBeenCalled()
  })

  it('copies its own link on H5', async () => {
    renderPage(<PlayTrial />, loggedOut)
    fireEvent.click(await screen.findByText('复制链接分享给好友'))
    await waitFor(() =>
      expect(Taro.setClipboardData).toHaveBeenCalledWith({
        data: 'http://localhost/pages/landing/play-trial/index',
      }),
    )
  })
})

describe('landing/play-trial/download', () => {
  it('shows the package without a login and sends a logged-out visitor to login', async () => {
    renderPage(<PlayTrialDownload />, loggedOut)
    await screen.findByText('com.xinghai.expedition')
    expect(screen.getByText('1.8 GB')).toBeTruthy()
    expect(screen.getByText('v3.6.2')).toBeTruthy()
    fireEvent.click(screen.getByText('在云手机中下载'))
    await waitFor(() => expect(Taro.navigateTo).toHaveBeenCalled())
    expect(devices.listDevices).not.toHaveBeenCalled()
  })

  it('opens the download on my running phone', async () => {
    devices.listDevices.mockResolvedValue(page([phone(7, '我的云机')]) as never)
    devices.sendCommand.mockResolvedValue({ deviceId: 7, ok: true, msg: '' })
    renderPage(<PlayTrialDownload />, loggedIn)
    fireEvent.click(await screen.findByText('在云手机中下载'))
    await waitFor(() =>
      expect(devices.sendCommand).toHaveBeenCalledWith({
        deviceId: 7,
        command: 'OpenUrl',
        url: CONFIG.downloadUrl,
      }),
    )
    expect(devices.listDevices).toHaveBeenCalledWith({ status: 1 }, 1, 20)
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '已在我的云机中开始下载' }),
      ),
    )
  })

  it('offers the trial when no phone is running', async () => {
    devices.listDevices.mockResolvedValue(page([]) as never)
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true } as never)
    renderPage(<PlayTrialDownload />, loggedIn)
    fireEvent.click(await screen.findByText('在云手机中下载'))
    await waitFor(() =>
      expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: '没有运行中的云手机' })),
    )
    await waitFor(() =>
      expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/landing/play-trial/index' }),
    )
    expect(devices.sendCommand).not.toHaveBeenCalled()
  })
})
