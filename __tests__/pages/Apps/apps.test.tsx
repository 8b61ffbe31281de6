/**
 * 应用管理 (pages/Apps/index): the two lists and their empty states, an upload (the chooser cancelled, a
 * refusal's words, a success), 安装到… on every phone followed 安装中 n/N → 安装完成 with each failed or
 * skipped phone and why, on one group (its count, no groups, an empty group, groups that do not load),
 * on ticked phones (search, ticks kept through it, none ticked, cancel, a list that does not load), a
 * confirmed delete, and a list that does not load; opened during a batch, that batch followed while
 * the page is shown.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import Taro from '@tarojs/taro'
import AppsPage from '@/pages/Apps/index'
import { ApiError } from '@/runtime/request'
import platform from '@/platform'
import * as appApi from '@/api/app'
import * as groupApi from '@/api/group'
import * as deviceApi from '@/api/device'
import type { AppItem, InstallProgress } from '@/types/api'
import { hidePage, renderPage, showPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/app', () => ({
  listApps: jest.fn(),
  uploadApk: jest.fn(),
  deleteApp: jest.fn(),
  installApp: jest.fn(),
  getInstallProgress: jest.fn(),
  getLatestInstall: jest.fn(),
  listInstallResults: jest.fn(),
}))
jest.mock('@/api/group', () => ({ listGroups: jest.fn() }))
jest.mock('@/api/device', () => ({ listDevices: jest.fn() }))

const api = appApi as jest.Mocked<typeof appApi>
const groups = groupApi as jest.Mocked<typeof groupApi>
const devices = deviceApi as jest.Mocked<typeof deviceApi>

/** 安装到… on the first app, then one of its sheet's choices. */
const installTo = async (choice: '全部云机' | '按分组' | '选择云机') => {
  fireEvent.click((await screen.findAllByText('安装到…'))[0])
  fireEvent.click(within(screen.getByRole('dialog')).getByText(choice))
}

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
  api.getLatestInstall.mockResolvedValue(null)
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
    expect(screen.getAllByText('安装到…')).toHaveLength(2)

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
    api.installApp.mockResolvedValue(progress())
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
    await installTo('全部云机')
    await waitFor(() => expect(api.installApp).toHaveBeenCalledWith(1, { all: true }))
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

  it('opened while a batch runs: shows it, follows it to its end only while shown', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    api.getLatestInstall.mockResolvedValue(progress())
    api.getInstallProgress.mockResolvedValue(progress({ done: 2, text: '安装中 2/3' }))
    api.listInstallResults.mockResolvedValue({ records: [], page: 1, total: 3, totalPage: 1 })
    jest.useFakeTimers()
    renderPage(<AppsPage />, {})
    expect(await screen.findByText('安装中 1/3')).toBeTruthy()
    await act(async () => void jest.advanceTimersByTime(2_000))
    expect(await screen.findByText('安装中 2/3')).toBeTruthy()

    // under another page: nothing read; shown again: the newest batch, ended meanwhile
    act(() => hidePage())
    await act(async () => void jest.advanceTimersByTime(20_000))
    expect(api.getInstallProgress).toHaveBeenCalledTimes(1)
    const ended = progress({
      done: 3,
      installed: 2,
      finished: true,
      text: '安装完成：成功 2，跳过 1',
    })
    api.getLatestInstall.mockResolvedValue(ended)
    act(() => showPage())
    expect(await screen.findByText('安装完成：成功 2，跳过 1')).toBeTruthy()
    await waitFor(() => expect(api.listInstallResults).toHaveBeenCalledWith(9, 1, 20))
    await act(async () => void jest.advanceTimersByTime(20_000))
    expect(api.getInstallProgress).toHaveBeenCalledTimes(1)
  })

  it('a newest batch that does not load says why; the lists still show', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    api.getLatestInstall.mockRejectedValue(new ApiError(-1, '网络异常，请检查网络后重试'))
    renderPage(<AppsPage />, {})
    expect(await screen.findByText('演示应用')).toBeTruthy()
    await waitFor(() => expect(toasts()).toContain('网络异常，请检查网络后重试'))
    expect(screen.queryByLabelText('安装进度')).toBeNull()
  })

  it('a declined confirm installs nothing; a refused install shows its words', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    renderPage(<AppsPage />, {})
    jest.spyOn(Taro, 'showModal').mockResolvedValueOnce({ confirm: false, cancel: true } as never)
    await installTo('全部云机')
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect(api.installApp).not.toHaveBeenCalled()

    api.installApp.mockRejectedValue(new ApiError(1080, '请选择云手机'))
    await installTo('全部云机')
    await waitFor(() => expect(toasts()).toContain('请选择云手机'))
  })

  it('按分组 lists my groups with their counts and installs on the one picked after a confirm', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    api.installApp.mockResolvedValue(progress({ total: 40, text: '安装中 1/40' }))
    groups.listGroups.mockResolvedValue({
      groups: [
        { groupId: 3, name: '直播组', sort: 1, deviceCount: 40 },
        { groupId: 4, name: '空组', sort: 2, deviceCount: 0 },
      ],
      ungroupedCount: 2,
      totalCount: 42,
    })
    renderPage(<AppsPage />, {})
    await installTo('按分组')
    fireEvent.click(await screen.findByText('直播组（40台）'))
    await waitFor(() =>
      expect(Taro.showModal).toHaveBeenLastCalledWith(
        expect.objectContaining({ content: '将「演示应用」安装到分组「直播组」的40台云手机？' }),
      ),
    )
    await waitFor(() => expect(api.installApp).toHaveBeenCalledWith(1, { groupId: 3 }))
    expect(await screen.findByText('安装中 1/40')).toBeTruthy()

    // a group with no phones sends nothing
    await installTo('按分组')
    fireEvent.click(await screen.findByText('空组（0台）'))
    await waitFor(() => expect(toasts()).toContain('分组「空组」没有云手机'))
    expect(api.installApp).toHaveBeenCalledTimes(1)
  })

  it('按分组 without groups says how to make one; groups that do not load say why', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    groups.listGroups.mockResolvedValueOnce({ groups: [], ungroupedCount: 3, totalCount: 3 })
    renderPage(<AppsPage />, {})
    await installTo('按分组')
    await waitFor(() => expect(toasts()).toContain('还没有分组，可在首页多选云机后移动分组'))
    expect(screen.queryByText('选择分组')).toBeNull()

    groups.listGroups.mockRejectedValueOnce(new ApiError(1080, '操作失败'))
    await installTo('按分组')
    await waitFor(() => expect(toasts()).toContain('操作失败'))
    expect(api.installApp).not.toHaveBeenCalled()
  })

  it('选择云机 searches my phones, keeps the ticks through a search and installs on the ticked ones', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    api.installApp.mockResolvedValue(progress({ total: 2, text: '安装中 0/2' }))
    const phone = (deviceId: number) => ({ deviceId, name: `云手机-${deviceId}` })
    devices.listDevices.mockImplementation(async (query) => ({
      records: (query.keyword === '12' ? [phone(12)] : [phone(1), phone(2), phone(12)]) as never,
      page: 1,
      total: query.keyword === '12' ? 1 : 3,
      totalPage: 1,
    }))
    renderPage(<AppsPage />, {})
    await installTo('选择云机')
    const chooser = await screen.findByRole('dialog', { name: '选择云机' })
    expect(within(chooser).getByText('将「演示应用」安装到')).toBeTruthy()
    // nothing ticked: 安装 cannot be pressed
    fireEvent.click(within(chooser).getByText('安装'))
    expect(api.installApp).not.toHaveBeenCalled()

    fireEvent.click(await within(chooser).findByRole('checkbox', { name: '云手机-1' }))
    expect(within(chooser).getByText('已选1台')).toBeTruthy()
    fireEvent(
      within(chooser).getByLabelText('搜索云手机'),
      Object.assign(new Event('input', { bubbles: true }), { detail: { value: '12' } }),
    )
    await waitFor(() =>
      expect(devices.listDevices).toHaveBeenLastCalledWith({ keyword: '12' }, 1, 10),
    )
    await waitFor(() => expect(within(chooser).queryByText('云手机-1')).toBeNull())
    fireEvent.click(within(chooser).getByRole('checkbox', { name: '云手机-12' }))
    expect(within(chooser).getByText('已选2台')).toBeTruthy()
    fireEvent.click(within(chooser).getByText('安装'))
    await waitFor(() => expect(api.installApp).toHaveBeenCalledWith(1, { deviceIds: [1, 12] }))
    expect(screen.queryByRole('dialog', { name: '选择云机' })).toBeNull()
    expect(await screen.findByText('安装中 0/2')).toBeTruthy()
  })

  it('选择云机 untick and 取消 install nothing; phones that do not load say why; a refusal shows its words', async () => {
    api.listApps.mockResolvedValue({ mine: [app()], catalogue: [] })
    devices.listDevices.mockResolvedValue({
      records: [{ deviceId: 1, name: '云手机-1' }] as never,
      page: 1,
      total: 1,
      totalPage: 1,
    })
    renderPage(<AppsPage />, {})
    await installTo('选择云机')
    let chooser = await screen.findByRole('dialog', { name: '选择云机' })
    const one = await within(chooser).findByRole('checkbox', { name: '云手机-1' })
    fireEvent.click(one)
    expect(one.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(one)
    expect(within(chooser).getByText('已选0台')).toBeTruthy()
    fireEvent.click(within(chooser).getByText('取消'))
    expect(screen.queryByRole('dialog', { name: '选择云机' })).toBeNull()
    expect(api.installApp).not.toHaveBeenCalled()

    devices.listDevices.mockRejectedValueOnce(new ApiError(1080, '操作失败'))
    await installTo('选择云机')
    chooser = await screen.findByRole('dialog', { name: '选择云机' })
    expect(await within(chooser).findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('操作失败'),
    )

    devices.listDevices.mockResolvedValue({ records: [], page: 1, total: 0, totalPage: 0 })
    fireEvent.click(within(chooser).getByText('取消'))
    await installTo('选择云机')
    chooser = await screen.findByRole('dialog', { name: '选择云机' })
    expect(await within(chooser).findByText('还没有云手机')).toBeTruthy()

    devices.listDevices.mockResolvedValue({
      records: [{ deviceId: 1, name: '云手机-1' }] as never,
      page: 1,
      total: 1,
      totalPage: 1,
    })
    fireEvent.click(within(chooser).getByText('取消'))
    await installTo('选择云机')
    chooser = await screen.findByRole('dialog', { name: '选择云机' })
    fireEvent.click(await within(chooser).findByRole('checkbox', { name: '云手机-1' }))
    api.installApp.mockRejectedValueOnce(new ApiError(1090, '应用不存在'))
    fireEvent.click(within(chooser).getByText('安装'))
    await waitFor(() => expect(toasts()).toContain('应用不存在'))
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
