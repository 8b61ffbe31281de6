import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import SpaceIndex from '@/pages/Space/index'
import HistoryData from '@/pages/Space/HistoryData'
import * as spaceService from '@/api/space'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/space', () => ({ getSpaceInfo: jest.fn(), listSpaceHistory: jest.fn() }))

const api = spaceService as jest.Mocked<typeof spaceService>
const GB = 1024 ** 3

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('云空间', () => {
  it('shows quota, used space and backups per phone, and opens a phone’s data centre', async () => {
    api.getSpaceInfo.mockResolvedValue({
      quotaBytes: 2 * GB,
      usedBytes: 1.5 * GB,
      devices: [{ deviceId: 7, deviceName: '云机A', usedBytes: 1.5 * GB, backupCount: 2 }],
      grants: [],
    })
    renderPage(<SpaceIndex />, {})
    expect(await screen.findByText('1.5 GB / 2 GB')).toBeTruthy()
    expect(screen.getByText('2 份备份')).toBeTruthy()
    fireEvent.click(screen.getByText('云机A'))
    expect(Taro.navigateTo).toHaveBeenCalledWith(
      expect.objectContaining({ url: '/pages/Space/DataCenter?deviceId=7' }),
    )
  })

  it('shows bought space with its expiry and opens 购买空间', async () => {
    api.getSpaceInfo.mockResolvedValue({
      quotaBytes: 12 * GB,
      usedBytes: 0,
      devices: [],
      grants: [
        { id: 1, bytes: 10 * GB, createdAt: 0, expiresAt: new Date(2026, 11, 21, 9, 0).getTime() },
      ],
    })
    renderPage(<SpaceIndex />, {})
    expect(await screen.findByText('0 B / 12 GB')).toBeTruthy()
    expect(screen.getByText('已购空间 10 GB，2026-12-21 到期')).toBeTruthy()
    fireEvent.click(screen.getByText('购买空间'))
    expect(Taro.navigateTo).toHaveBeenCalledWith(
      expect.objectContaining({ url: '/pages/Space/BuySpace' }),
    )
  })

  it('says how to make a first backup when there is none', async () => {
    api.getSpaceInfo.mockResolvedValue({
      quotaBytes: 2 * GB,
      usedBytes: 0,
      devices: [],
      grants: [],
    })
    renderPage(<SpaceIndex />, {})
    expect(
      await screen.findByText('暂无备份，可在我的云机中打开云手机的数据中心进行备份'),
    ).toBeTruthy()
  })

  it('lists backups and restores with status, size and reason', async () => {
    api.listSpaceHistory.mockResolvedValue({
      records: [
        {
          id: 2,
          kind: 'restore',
          status: 'interrupted',
          deviceId: 7,
          deviceName: '云机A',
          backupId: 1,
          sizeBytes: GB,
          failCode: 1072,
          failReason: '任务已中断，请重新发起',
          deleted: false,
          createdAt: Date.UTC(2026, 10, 20, 2, 0),
          finishedAt: null,
        },
      ],
      page: 1,
      totalPage: 1,
      total: 1,
    })
    renderPage(<HistoryData />, {})
    expect(await screen.findByText('云机A · 恢复')).toBeTruthy()
    expect(screen.getByText('任务中断')).toBeTruthy()
    expect(screen.getByText('任务已中断，请重新发起')).toBeTruthy()
    expect(screen.getByText(/1 GB/)).toBeTruthy()
  })
})
