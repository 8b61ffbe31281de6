/**
 * 应用管理 (pages/Apps/index): the two lists and their empty states, an upload (the chooser cancelled, a
 * refusal's words, a success), a batch install on every phone followed 安装中 n/N → 安装完成 with each
 * failed or skipped phone and why, a confirmed delete, and a list that does not load.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import AppsPage from '@/pages/Apps/index'
import { ApiError } from '@/runtime/request'
import platform from '@/platform'
import * as appApi from '@/api/app'
import type { AppItem, InstallProgress } from '@/types/api'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/app', () => ({
  listApps: jest.fn(),
  uploadApk: jest.fn(),
  deleteApp: jest.fn(),
  installOnAll: jest.fn(),
  getInstallProgress: jest.fn(),
  listInstallResults: jest.fn(),
}))

const api = appApi as jest.Mocked<typeof appApi>

const app = (over: Partial<AppItem> = {}): AppItem => ({
  appId: 1,
  name: '演示应用',
  packageName: 'com.studio.demo',
  versionName: '1.2.0',
  versionCode: 3,
  sizeBytes: 2048,
  iconUrl: '/files/app-icons/a.png',
  source: 'mine',
  hidden: false,
  createdAt: '2026-12-06T08:00:00.000Z',
  ...over,
})

const progress = (over: Partial<InstallProgress> = {}): InstallProgress => ({
  installId: 9,
  appId: 1,
  appName: '演示应用',
  packageName: 'com.studio.demo',
  total: 3,
  done: 1,
  installed: 0,
  failed: 0,
  skipped: 1,
  finished: false,
  text: '安装中 1/3',
  ...over,
})

const toasts = () => (Taro.showToast as jest.Mock).mock.calls.map(([o]) => o.title as string)

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
})
afterEach(() => jest.useRealTimers())

describe('应用管理', () => {
  it('lists my apps and the catalogue; says so when either is empty', async () => {
    api.listApps.mockResolvedValue({
      mine: [app()],
      catalogue: [app({ appId: 2, name: '地图', packageName: 'com.maps', source: 'catalogue' })],
    })
    renderPage(<AppsPage />, {})
    expect(await screen.findByText('演示应用')).toBeTruthy()
    expect(screen.getByText('1.2.0 · com.studio.demo')).toBeTruthy()
    expect(screen.getByText('地图')).toBeTruthy()
    // a catalogue entry is installed, never deleted, by the user
    expect(screen.getAllByText('删除')).toHaveLength(1)
    expect(screen.getAllByText('安装到全部云机')).toHaveLength(2)

    api.listApps.mockResolvedValue({ mine: [], catalogue: [] })
    renderPage(<AppsPage />, {})
    expect(await screen.findByText('还没有上传应用')).toBeTruthy()
    expect(screen.getByText('应用库暂无应用')).toBeTruthy()
  })

  it('uploads a chosen APK and lists it; a cancelled chooser sends nothing; a refusal shows its words', async () => {
    api.listApps.mockResolvedValue({ mine: [], catalogue: [] })
    const choose = jest.spyOn(platform, 'chooseApk')
    renderPage(<AppsPage />, {})
    await screen.findByText('还没有上传应用')

    choose.mockRejectedValueOnce(new Error('chooseApk:fail cancel'))
    fireEvent.click(screen.getByText('上传安装包'))
    await waitFor(() => expect(choose).toHaveBeenCalledTimes(1))
    expect(api.uploadApk).not.toHaveBeenCalled()

    choose.mockResolvedValue({ path: 'blob:apk', name: 'a.apk', size: 2048 })
    api.uploadApk.mockRejectedValueOnce(new ApiError(1083, '安装包解压后过大，无法上传'))
    fireEvent.click(screen.getByText('上传安装包'))
    await waitFor(() => expect(toasts()).toContain('安装包解压后过大，无法上传'))

    api.uploadApk.mockResolvedValue(app())
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    fireEvent.click(screen.getByText('上传安装包'))
    await waitFor(() => expect(api.uploadApk).toHaveBeenLastCalledWith('blob:apk'))
    expect(await screen.findByText('演示应用')).toBeTruthy()
    expect(toasts()).toContain('已添加演示应用')
  })

  it('installs on every phone after a confirm, follows 安装中 n/N, then shows each failed or skipped phone', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    api.installOnAll.mockResolvedValue(progress())
    api.getInstallProgress.mockResolvedValue(
      progress({
        done: 3,
        installed: 1,
        failed: 1,
        finished: true,
        text: '安装完成：成功 1，失败 1，跳过 1',
      }),
    )
    api.listInstallResults.mockResolvedValue({
      records: [
        { deviceId: 5, deviceName: '云手机-5', status: 'failed', reason: '安装中断：云手机已离线' },
        { deviceId: 6, deviceName: '云手机-6', status: 'skipped', reason: '仅有查看权限' },
        { deviceId: 7, deviceName: '云手机-7', status: 'installed', reason: null },
      ],
      page: 1,
      total: 3,
      totalPage: 1,
    })
    renderPage(<AppsPage />, {})
    jest.useFakeTimers()
    fireEvent.click(await screen.findByText('安装到全部云机'))
    await waitFor(() => expect(api.installOnAll).toHaveBeenCalledWith(1))
    expect(await screen.findByText('安装中 1/3')).toBeTruthy()
    await act(async () => {
      jest.advanceTimersByTime(2_000)
    })
    expect(await screen.findByText('安装完成：成功 1，失败 1，跳过 1')).toBeTruthy()
    expect(api.getInstallProgress).toHaveBeenCalledWith(9)
    expect(await screen.findByText('安装失败：安装中断：云手机已离线')).toBeTruthy()
    expect(screen.getByText('已跳过：仅有查看权限')).toBeTruthy()
    expect(screen.queryByText('云手机-7')).toBeNull()
  })

  it('a declined confirm installs nothing; a refused install shows its words', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    renderPage(<AppsPage />, {})
    jest.spyOn(Taro, 'showModal').mockResolvedValueOnce({ confirm: false, cancel: true } as never)
    fireEvent.click(await screen.findByText('安装到全部云机'))
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect(api.installOnAll).not.toHaveBeenCalled()

    api.installOnAll.mockRejectedValue(new ApiError(1080, '请选择云手机'))
    fireEvent.click(screen.getByText('安装到全部云机'))
    await waitFor(() => expect(toasts()).toContain('请选择云手机'))
  })

  it('deletes my app after a confirm and lists again; a list that fails says why', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    renderPage(<AppsPage />, {})
    api.listApps.mockResolvedValue({ mine: [], catalogue: [] })
    fireEvent.click(await screen.findByText('删除'))
    await waitFor(() => expect(api.deleteApp).toHaveBeenCalledWith(1))
    expect(await screen.findByText('还没有上传应用')).toBeTruthy()

    api.listApps.mockRejectedValue(new ApiError(1080, '操作失败'))
    renderPage(<AppsPage />, {})
    await waitFor(() => expect(toasts()).toContain('操作失败'))
  })
})
