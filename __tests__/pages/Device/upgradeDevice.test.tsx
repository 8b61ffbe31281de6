import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import UpgradeDevice, { PROGRESS_POLL_MS } from '@/pages/Device/upgradeDevice'
import * as deviceService from '@/api/device'
import { renderPage, setRouteParams } from '../page-harness'
import { device } from '../Home/fleet-fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({
  getDevice: jest.fn(),
  startSystemUpdate: jest.fn(),
  getSystemUpdateProgress: jest.fn(),
}))

const api = deviceService as jest.Mocked<typeof deviceService>
const progress = (over: Partial<Awaited<ReturnType<typeof api.getSystemUpdateProgress>>> = {}) => ({
  deviceId: 7,
  updating: false,
  progress: 0,
  imageVersion: 'v1.0',
  latestVersion: 'v1.2',
  updateAvailable: true,
  ...over,
})

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceId: '7' })
  api.getDevice.mockResolvedValue(device({ deviceId: 7, imageVersion: 'v1.0' }))
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
})
afterEach(() => jest.useRealTimers())

describe('系统更新', () => {
  it('starts the update and follows the progress until the new version is there', async () => {
    api.getSystemUpdateProgress.mockResolvedValueOnce(progress())
    api.startSystemUpdate.mockResolvedValue(progress({ updating: true, progress: 5 }))
    renderPage(<UpgradeDevice />, {})
    expect(await screen.findByText('最新版本：v1.2')).toBeTruthy()
    jest.useFakeTimers()
    fireEvent.click(screen.getByText('开始更新'))
    await waitFor(() => expect(api.startSystemUpdate).toHaveBeenCalledWith(7))
    await waitFor(() => expect(screen.getByText('正在更新系统…')).toBeTruthy())
    expect(screen.getByText('更新中…')).toBeTruthy()

    api.getSystemUpdateProgress.mockResolvedValueOnce(progress({ updating: true, progress: 60 }))
    await act(async () => {
      jest.advanceTimersByTime(PROGRESS_POLL_MS)
    })
    await waitFor(() => expect(screen.getByText('60%')).toBeTruthy())

    api.getSystemUpdateProgress.mockResolvedValueOnce(
      progress({ progress: 100, imageVersion: 'v1.2', updateAvailable: false }),
    )
    api.getDevice.mockResolvedValue(device({ deviceId: 7, imageVersion: 'v1.2' }))
    await act(async () => {
      jest.advanceTimersByTime(PROGRESS_POLL_MS)
    })
    await waitFor(() => expect(screen.getByText('系统已更新到最新版本')).toBeTruthy())
    expect(screen.getByText('已是最新版本')).toBeTruthy()
  })

  it('does not start without confirmation', async () => {
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false, cancel: true } as never)
    api.getSystemUpdateProgress.mockResolvedValue(progress())
    renderPage(<UpgradeDevice />, {})
    await screen.findByText('最新版本：v1.2')
    fireEvent.click(screen.getByText('开始更新'))
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect(api.startSystemUpdate).not.toHaveBeenCalled()
  })

  it('offers nothing to do when the phone is up to date', async () => {
    api.getSystemUpdateProgress.mockResolvedValue(
      progress({ imageVersion: 'v1.2', updateAvailable: false }),
    )
    renderPage(<UpgradeDevice />, {})
    expect(await screen.findByText('已是最新版本')).toBeTruthy()
  })
})
