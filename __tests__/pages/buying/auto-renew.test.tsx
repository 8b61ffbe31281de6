/** 自动续费 on the renewal page: switching it on and off, the company's pay method, and its refusals. */
import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { Device } from '@/types/api'
import Renew from '@/pages/Renew/index'
import { getDevice, setAutoRenew } from '@/api/device'
import { getGoodPrice, getGoodsDetail } from '@/api/goods'
import { ApiError } from '@/runtime/api-error'
import { renderPage, setRouteParams } from '../page-harness'
import { goods, quote, session } from './fixtures'

jest.mock('@/api/coupon', () => ({
  getApplicableCoupons: jest.fn(async () => {
    throw new Error('no coupons')
  }),
}))
jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({ getDevice: jest.fn(), setAutoRenew: jest.fn() }))
jest.mock('@/api/goods', () => ({ getGoodsDetail: jest.fn(), getGoodPrice: jest.fn() }))
jest.mock('@/api/order', () => ({ createRenewOrder: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn() }))

const mockSet = setAutoRenew as jest.Mock
const DAY = 86_400_000
const phone = (deviceId: number, autoRenew: Device['autoRenew'] = null) =>
  ({
    deviceId,
    name: `云手机-${deviceId}`,
    goodId: 1,
    status: 1,
    expireAt: Date.now() + 10 * DAY,
    autoRenew,
  }) as Device

const toasts = () => (Taro.showToast as jest.Mock).mock.calls.map(([o]) => o.title as string)

function open(phones: Device[], over: Record<string, unknown> = {}) {
  setRouteParams({ deviceIds: phones.map((p) => p.deviceId).join(',') })
  ;(getDevice as jest.Mock).mockImplementation(async (id: number) =>
    phones.find((p) => p.deviceId === id),
  )
  const stores = session(over)
  const patchMany = jest.fn()
  renderPage(<Renew />, { ...stores, fleet: { ...stores.fleet, patchMany } })
  return { patchMany }
}

const autoSwitch = () => screen.findByRole('switch', { name: '自动续费' })

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  ;(getGoodsDetail as jest.Mock).mockResolvedValue(goods())
  ;(getGoodPrice as jest.Mock).mockResolvedValue(quote())
})

describe('续费 · 自动续费', () => {
  it('switches on with the chosen duration, paid from beans, and the fleet follows', async () => {
    mockSet.mockResolvedValue({
      updated: 2,
      autoRenew: { days: 30, payMethod: 3, failure: null },
      daysBefore: 3,
    })
    const { patchMany } = open([phone(1), phone(2)])
    expect(await screen.findByText('到期前按所选时长自动续费，从云豆扣款')).toBeTruthy()
    expect(screen.queryByRole('radiogroup', { name: '自动续费支付方式' })).toBeNull()
    fireEvent.click(await autoSwitch())
    await waitFor(() =>
      expect(mockSet).toHaveBeenCalledWith({
        deviceIds: [1, 2],
        enabled: true,
        days: 30,
        payMethod: 3,
      }),
    )
    expect(await screen.findByText('每次续费1个月，从云豆扣款')).toBeTruthy()
    expect(toasts()).toContain('已开启自动续费，将在到期前3天自动续费')
    expect(patchMany).toHaveBeenCalledWith([1, 2], {
      autoRenew: { days: 30, payMethod: 3, failure: null },
    })
  })

  it('shows the last failure and switches off at any time', async () => {
    mockSet.mockResolvedValue({ updated: 1, autoRenew: null, daysBefore: 3 })
    const failed = { days: 30, payMethod: 3 as const, failure: '云豆余额不足' }
    const { patchMany } = open([phone(1, failed)])
    expect(await screen.findByText('上次自动续费未成功：云豆余额不足')).toBeTruthy()
    const toggle = await autoSwitch()
    expect(toggle.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(toggle)
    await waitFor(() => expect(mockSet).toHaveBeenCalledWith({ deviceIds: [1], enabled: false }))
    expect(await screen.findByText('到期前按所选时长自动续费，从云豆扣款')).toBeTruthy()
    expect(screen.queryByText(/上次自动续费未成功/)).toBeNull()
    expect(toasts()).toContain('已关闭自动续费')
    expect(patchMany).toHaveBeenCalledWith([1], { autoRenew: null })
  })

  it('lets a company pay from its account balance, and changes it while on', async () => {
    mockSet.mockResolvedValue({
      updated: 1,
      autoRenew: { days: 30, payMethod: 4, failure: null },
      daysBefore: 3,
    })
    open([phone(1, { days: 30, payMethod: 3, failure: null })], { userType: 2 })
    const balance = await screen.findByRole('radio', { name: '企业账户余额' })
    expect(screen.getByRole('radio', { name: '云豆' }).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(balance)
    await waitFor(() =>
      expect(mockSet).toHaveBeenCalledWith({
        deviceIds: [1],
        enabled: true,
        days: 30,
        payMethod: 4,
      }),
    )
    expect(await screen.findByText('每次续费1个月，从企业账户余额扣款')).toBeTruthy()
  })

  it('says why the server refused, and stays off', async () => {
    mockSet.mockRejectedValue(new ApiError(1080, '所选续费时长不适用于所选云手机'))
    open([phone(1)])
    const toggle = await autoSwitch()
    fireEvent.click(toggle)
    expect((await screen.findByRole('alert')).textContent).toBe('所选续费时长不适用于所选云手机')
    expect(toggle.getAttribute('aria-checked')).toBe('false')
  })
})
