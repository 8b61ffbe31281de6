import { fireEvent, screen, waitFor } from '@testing-library/react'
import type { Device } from '@/types/api'
import UpOrDownConfig from '@/pages/Device/upOrDownConfig'
import { getDevice } from '@/api/device'
import { getGoodPrice, getGoodsList } from '@/api/goods'
import { navigate } from '@/runtime/navigation'
import { createUpOrDownOrder } from '@/api/order'
import { formatDateTime } from '@/domain/formatters'
import { renderPage, setRouteParams } from '../page-harness'
import { goods, order, quote, session } from './fixtures'

jest.mock('@/api/coupon', () => ({
  // no coupons held: these pages order at the quoted price (coupons: buyGoods.test.tsx)
  getApplicableCoupons: jest.fn(async () => {
    throw new Error('no coupons')
  }),
}))
jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({ getDevice: jest.fn() }))
jest.mock('@/api/goods', () => ({ getGoodsList: jest.fn(), getGoodPrice: jest.fn() }))
jest.mock('@/api/order', () => ({ createUpOrDownOrder: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn() }))

const mockGetDevice = getDevice as jest.Mock
const mockGetGoodsList = getGoodsList as jest.Mock
const mockGetGoodPrice = getGoodPrice as jest.Mock
const mockCreateUpOrDownOrder = createUpOrDownOrder as jest.Mock

const STRETCHED = Date.parse('2027-02-01T00:00:00+08:00')

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceId: '7' })
  mockGetDevice.mockResolvedValue({
    deviceId: 7,
    name: '云手机-7',
    goodId: 2,
    goodsName: '尊享版 6核6G',
    androidVersion: 'B',
    status: 1,
    expireAt: Date.now() + 20 * 86_400_000,
    permissions: ['upOrDownConfig'],
  } as Device)
  mockGetGoodsList.mockResolvedValue([
    { level: 1, name: '畅享版', themeColor: '#2F5FE8', description: '', goods: [goods()] },
    {
      level: 2,
      name: '尊享版',
      themeColor: '#6A45F0',
      description: '',
      goods: [
        goods({ goodId: 2, name: '尊享版 6核6G' }),
        goods({ goodId: 3, name: '尊享版 8核8G' }),
      ],
    },
  ])
  mockGetGoodPrice.mockImplementation(async (body: { toGoodId: number }) =>
    body.toGoodId === 1
      ? quote({ total: 0, lines: [], upgrade: { direction: 'down', newExpireAt: STRETCHED } })
      : quote({ total: 3300, lines: [], upgrade: { direction: 'up', newExpireAt: 0 } }),
  )
})

describe('升降配', () => {
  it('says so when the configuration does not allow it', async () => {
    mockGetDevice.mockResolvedValueOnce({ deviceId: 7, name: '云手机-7', permissions: [] })
    renderPage(<UpOrDownConfig />, session())
    expect(await screen.findByText('该云手机的配置不支持升降配')).toBeTruthy()
    expect(getGoodsList).not.toHaveBeenCalled()
  })

  it('lists the other configurations of the same android version with the price difference', async () => {
    renderPage(<UpOrDownConfig />, session())
    expect(await screen.findByText('补差价 ¥33.00')).toBeTruthy()
    expect(getGoodsList).toHaveBeenCalledWith({ androidVersion: 'B' })
    expect(screen.queryByRole('radio', { name: /^尊享版 6核6G/ })).toBeNull()
    expect(screen.getByText('降配')).toBeTruthy()
  })

  it('explains that a downgrade stretches the remaining time and applies at once', async () => {
    mockCreateUpOrDownOrder.mockResolvedValue({
      ok: true,
      data: order({ kind: 'upgrade', status: 2, amount: 0 }),
    })
    renderPage(<UpOrDownConfig />, session())
    fireEvent.click(await screen.findByRole('radio', { name: /^畅享版 4核4G/ }))
    expect(
      await screen.findByText(
        `降配无需付费，剩余时长按价值折算延长至 ${formatDateTime(STRETCHED)}，确认后立即生效`,
      ),
    ).toBeTruthy()
    fireEvent.click(screen.getByText('确认变更'))
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('home'))
    expect(createUpOrDownOrder).toHaveBeenCalledWith(
      expect.objectContaining({ deviceId: 7, toGoodId: 1, expectedAmount: 0 }),
    )
  })

  it('sends an upgrade to payment', async () => {
    mockCreateUpOrDownOrder.mockResolvedValue({
      ok: true,
      data: order({ kind: 'upgrade' }),
    })
    renderPage(<UpOrDownConfig />, session())
    fireEvent.click(await screen.findByRole('radio', { name: /^尊享版 8核8G/ }))
    fireEvent.click(await screen.findByText('去支付'))
    await waitFor(() =>
      expect(navigate).toHaveBeenCalledWith('pay', { orderNo: 'CP20261122000001' }),
    )
  })
})
