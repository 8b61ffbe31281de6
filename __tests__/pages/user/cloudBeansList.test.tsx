import { screen, waitFor } from '@testing-library/react'
import dayjs from 'dayjs'
import CloudBeansList, { rangeFromCalendar, rangeToTimes } from '@/pages/user/cloudBeansList'
import * as wallet from '@/api/wallet'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/wallet', () => ({ listBeanLedger: jest.fn() }))

const api = wallet as jest.Mocked<typeof wallet>
const entry = (id: number, change: number, reasonText: string, orderNo: string | null) => ({
  id,
  change,
  balanceAfter: 100,
  reason: 'x',
  reasonText,
  orderNo,
  remark: '',
  createdAt: Date.UTC(2026, 10, 20, 8),
})

beforeEach(() => jest.clearAllMocks())

describe('云豆明细', () => {
  it('lists credits and debits with their reason and order', async () => {
    api.listBeanLedger.mockResolvedValue({
      records: [entry(2, -1500, '云豆转包月', 'CP2'), entry(1, 3300, '云豆充值', 'CP1')],
      page: 1,
      totalPage: 1,
      total: 2,
    })
    renderPage(<CloudBeansList />, {})
    expect(await screen.findByText('+3300')).toBeTruthy()
    expect(screen.getByText('-1500')).toBeTruthy()
    expect(screen.getByText('云豆转包月')).toBeTruthy()
    expect(screen.getByText('订单号：CP1')).toBeTruthy()
    expect(api.listBeanLedger).toHaveBeenCalledWith(1, 10, undefined)
    expect(screen.getByLabelText(/^日期选择/)).toBeTruthy()
  })

  it('says 暂无相关数据 when there is nothing', async () => {
    api.listBeanLedger.mockResolvedValue({ records: [], page: 1, totalPage: 0, total: 0 })
    renderPage(<CloudBeansList />, {})
    await waitFor(() => expect(screen.getByText('暂无相关数据')).toBeTruthy())
  })

  it('turns the calendar range into whole days, end exclusive', () => {
    const range = rangeFromCalendar([
      ['2026', '11', '20', '2026-11-20', '星期五'],
      ['2026', '11', '02', '2026-11-02', '星期一'],
    ])
    expect(range).toEqual({ from: '2026-11-02', to: '2026-11-20' })
    expect(rangeToTimes(range!)).toEqual({
      start: dayjs('2026-11-02').valueOf(),
      end: dayjs('2026-11-21').valueOf(),
    })
    expect(rangeFromCalendar([])).toBeNull()
  })
})
