/**
 * 云手机上的应用 (pages/Apps/installed): without a phone, the user's phones to pick one; with one, its apps
 * with 打开 (a refusal's words shown) and 卸载 after a confirm (the SPEC's Uninstall command), then the
 * list again; a phone that is not running says why.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import InstalledApps from '@/pages/Apps/installed'
import { ApiError } from '@/runtime/request'
import * as appApi from '@/api/app'
import * as deviceApi from '@/api/device'
import { renderPage, setRouteParams } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/app', () => ({ listInstalled: jest.fn(), launchApp: jest.fn() }))
jest.mock('@/api/device', () => ({ listDevices: jest.fn(), sendCommand: jest.fn() }))

const apps = appApi as jest.Mocked<typeof appApi>
const devices = deviceApi as jest.Mocked<typeof deviceApi>
const toasts = () => (Taro.showToast as jest.Mock).mock.calls.map(([o]) => o.title as string)

const helper = { packageName: 'com.studio.helper', name: '工作室助手', versionName: '2.0.1' }
const wechat = { packageName: 'com.tencent.mm', name: 'com.tencent.mm', versionName: null }

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('云手机上的应用', () => {
  it('without a phone lists the phones, and a phone opens its own apps', async () => {
    setRouteParams({})
    devices.listDevices.mockResolvedValue({
      records: [{ deviceId: 7, name: '云手机-7' }] as never,
      page: 1,
      total: 1,
      totalPage: 1,
    })
    renderPage(<InstalledApps />, {})
    fireEvent.click(await screen.findByText('云手机-7'))
    await waitFor(() =>
      expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/Apps/installed?deviceId=7' }),
    )
  })

  it("lists a phone's apps; 打开 opens one, and a refusal shows its words", async () => {
    setRouteParams({ deviceId: '7' })
    apps.listInstalled.mockResolvedValue([helper, wechat])
    renderPage(<InstalledApps />, {})
    expect(await screen.findByText('工作室助手')).toBeTruthy()
    expect(screen.getByText('2.0.1 · com.studio.helper')).toBeTruthy()
    expect(screen.getAllByText('com.tencent.mm')).toHaveLength(2) // its name is its package here
    fireEvent.click(screen.getAllByText('打开')[0])
    await waitFor(() => expect(apps.launchApp).toHaveBeenCalledWith(7, 'com.studio.helper'))
    await waitFor(() => expect(toasts()).toContain('已打开工作室助手'))

    apps.launchApp.mockRejectedValue(new ApiError(1080, '应用未安装'))
    fireEvent.click(screen.getAllByText('打开')[1])
    await waitFor(() => expect(toasts()).toContain('应用未安装'))
  })

  it("卸载 asks first, sends the SPEC's Uninstall command and lists again; declined, it sends nothing", async () => {
    setRouteParams({ deviceId: '7' })
    apps.listInstalled.mockResolvedValue([helper])
    renderPage(<InstalledApps />, {})
    jest.spyOn(Taro, 'showModal').mockResolvedValueOnce({ confirm: false, cancel: true } as never)
    fireEvent.click(await screen.findByText('卸载'))
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect(devices.sendCommand).not.toHaveBeenCalled()

    apps.listInstalled.mockResolvedValue([])
    fireEvent.click(screen.getByText('卸载'))
    await waitFor(() =>
      expect(devices.sendCommand).toHaveBeenCalledWith({
        deviceId: 7,
        command: 'Uninstall',
        packageName: 'com.studio.helper',
      }),
    )
    expect(await screen.findByText('这台云手机上没有应用')).toBeTruthy()
  })

  it('a phone that is not running says so', async () => {
    setRouteParams({ deviceId: '7' })
    apps.listInstalled.mockRejectedValue(new ApiError(1080, '云手机未开机'))
    renderPage(<InstalledApps />, {})
    await waitFor(() => expect(toasts()).toContain('云手机未开机'))
  })
})
