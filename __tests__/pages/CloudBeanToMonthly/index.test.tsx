import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import CloudBeanToMonthly from '@/pages/CloudBeanToMonthly/index'
import { ApiError } from '@/runtime/request'
import * as wallet from '@/api/wallet'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/wallet', () => ({
  getTimeToMonthQuote: jest.fn(),
  createTimeToMonthOrder: jest.fn(),
}))

const api = wallet as jest.Mocked<typeof wallet>
const DAY = 86_400_000
const expireAt = new Date(2026, 11, 1, 10, 0).getTime()
const stores = (
  picked: { deviceId: number; name: string } | null = { deviceId: 7, name: '云手机-7' },
) => ({
  fleet: { pickedDevice: picked },
})

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  api.getTimeToMonthQuote.mockResolvedValue({
    deviceId: 7,
    days: 30,
    beans: 1500,
    balance: 2000,
    expireAt,
    newExpireAt: expireAt + 30 * DAY,
  })
})

describe('云豆转包月', () => {
  it('asks for a phone first', async () => {
    renderPage(<CloudBeanToMonthly />, stores(null))
    fireEvent.click(screen.getByLabelText(/^选择云手机/))
    await waitFor(() =>
      expect((Taro.navigateTo as jest.Mock).mock.calls[0][0].url).toMatch(/pages\/user\/device/),
    )
    expect(api.getTimeToMonthQuote).not.toHaveBeenCalled()
  })

  it('shows the beans price and balance, converts and shows the new expiry', async () => {
    api.createTimeToMonthOrder.mockResolvedValue({
      orderNo: 'CP9',
      deviceId: 7,
      beans: 1500,
      balance: 500,
      newExpireAt: expireAt + 30 * DAY,
    })
    renderPage(<CloudBeanToMonthly />, stores())
    expect(await screen.findByText('1500')).toBeTruthy()
    expect(screen.getByText('2000')).toBeTruthy()
    fireEvent.click(screen.getByText('确认转包月'))
    await waitFor(() => expect(api.createTimeToMonthOrder).toHaveBeenCalled())
    expect(api.createTimeToMonthOrder.mock.calls[0][0]).toMatchObject({
      deviceId: 7,
      expectedBeans: 1500,
    })
    expect(await screen.findByRole('status')).toBeTruthy()
    expect(screen.getByText(/转包月成功，云手机到期时间延长至2026-12-31 10:00/)).toBeTruthy()
    expect(screen.getByText('500')).toBeTruthy()
  })

  it('1015 offers 去充值 and opens user/recharge', async () => {
    api.createTimeToMonthOrder.mockRejectedValue(new ApiError(1015, '云豆数量不足'))
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
    renderPage(<CloudBeanToMonthly />, stores())
    fireEvent.click(await screen.findByText('确认转包月'))
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect((Taro.showModal as jest.Mock).mock.calls[0][0]).toMatchObject({
      title: '云豆数量不足',
      confirmText: '去充值',
    })
    await waitFor(() =>
      expect((Taro.navigateTo as jest.Mock).mock.calls[0][0].url).toMatch(/pages\/user\/recharge/),
    )
  })

  it('with too few beans the button says so and leads to recharge without calling the server', async () => {
    api.getTimeToMonthQuote.mockResolvedValue({
      deviceId: 7,
      days: 30,
      beans: 1500,
      balance: 100,
      expireAt,
      newExpireAt: expireAt + 30 * DAY,
    })
    renderPage(<CloudBeanToMonthly />, stores())
    fireEvent.click(await screen.findByText('云豆不足，去充值'))
    await waitFor(() =>
      expect((Taro.navigateTo as jest.Mock).mock.calls[0][0].url).toMatch(/pages\/user\/recharge/),
    )
    expect(api.createTimeToMonthOrder).not.toHaveBeenCalled()
  })
})
