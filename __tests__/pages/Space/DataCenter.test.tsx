import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { server, settledFlux } from '../../setup/flux'
import DataCenter from '@/pages/Space/DataCenter'
import { FOLLOW_FIRST_MS } from '@/domain/flux'
import { ApiError } from '@/runtime/request'
import * as spaceService from '@/api/space'
import { renderPage, setRouteParams } from '../page-harness'
import { deviceSpace, GB, spaceTask } from './space-fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/space', () => ({
  getDeviceSpace: jest.fn(),
  startBackup: jest.fn(),
  startRestore: jest.fn(),
  deleteBackup: jest.fn(),
}))

const api = spaceService as jest.Mocked<typeof spaceService>
const task = spaceTask
const space = deviceSpace

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceId: '7' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
})
afterEach(() => jest.useRealTimers())

describe('数据中心', () => {
  it('shows the space and backups, backs up and follows the task until it ends', async () => {
    api.getDeviceSpace.mockResolvedValue(space())
    renderPage(<DataCenter />, {})
    expect(await screen.findByText('云空间已用 1 GB / 2 GB')).toBeTruthy()
    expect(screen.getByText('备份成功')).toBeTruthy()

    const running = task({ id: 2, status: 'running', sizeBytes: 0, finishedAt: null })
    api.startBackup.mockResolvedValue({ ok: true, data: running })
    api.getDeviceSpace.mockResolvedValue(space({ running }))
    server.flux = settledFlux({ runningTasks: [2] })
    jest.useFakeTimers()
    fireEvent.click(screen.getByText('立即备份'))
    await waitFor(() => expect(api.startBackup).toHaveBeenCalledWith(7))
    await waitFor(() => expect(screen.getByText('正在备份数据，请稍候…')).toBeTruthy())
    expect(screen.getByText('备份中…')).toBeTruthy()

    api.getDeviceSpace.mockResolvedValue(
      space({ backups: [task({ id: 2, failReason: null }), task()], usedBytes: 2 * GB }),
    )
    server.flux = settledFlux()
    await act(async () => {
      jest.advanceTimersByTime(FOLLOW_FIRST_MS)
    })
    await waitFor(() => expect(screen.getByText('立即备份')).toBeTruthy())
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: '备份成功' }))
  })

  it('restores a backup onto this phone after confirmation, and deletes one', async () => {
    api.getDeviceSpace.mockResolvedValue(space())
    api.startRestore.mockResolvedValue(task({ id: 3, kind: 'restore', status: 'running' }))
    renderPage(<DataCenter />, {})
    fireEvent.click(await screen.findByText('恢复'))
    await waitFor(() => expect(api.startRestore).toHaveBeenCalledWith(1, 7))

    fireEvent.click(screen.getByText('删除'))
    await waitFor(() => expect(api.deleteBackup).toHaveBeenCalledWith(1))
  })

  it('a cancelled restore sends nothing; a failed backup offers only 删除 with its reason', async () => {
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false, cancel: true } as never)
    api.getDeviceSpace.mockResolvedValue(
      space({
        backups: [
          task(),
          task({
            id: 5,
            status: 'failed',
            sizeBytes: 0,
            failReason: '备份失败，云手机数据读取异常',
          }),
        ],
      }),
    )
    renderPage(<DataCenter />, {})
    expect(await screen.findByText('备份失败，云手机数据读取异常')).toBeTruthy()
    expect(screen.getAllByText('恢复')).toHaveLength(1)
    expect(screen.getAllByText('删除')).toHaveLength(2)
    fireEvent.click(screen.getByText('恢复'))
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect(api.startRestore).not.toHaveBeenCalled()
  })

  it('says so when the phone is not the user’s', async () => {
    api.getDeviceSpace.mockRejectedValue(new ApiError(1031, '云手机不存在'))
    renderPage(<DataCenter />, {})
    expect(await screen.findByText('云手机不存在或已释放')).toBeTruthy()
  })
})
