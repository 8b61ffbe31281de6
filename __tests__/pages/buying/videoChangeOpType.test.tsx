import { fireEvent, screen, waitFor } from '@testing-library/react'
import VideoChangeOpType from '@/pages/Device/videoChangeOpType'
import { getDevice } from '@/api/device'
import { getGoodPrice } from '@/api/goods'
import { navigate } from '@/runtime/navigation'
import { createVideoOrder } from '@/api/order'
import { renderPage, setRouteParams } from '../page-harness'
import { order, quote, session } from './fixtures'

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
jest.mock('@/api/goods', () => ({ getGoodPrice: jest.fn() }))
jest.mock('@/api/order', () => ({ createVideoOrder: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn() }))

const mockDevice = getDevice as jest.Mock
const mockPrice = getGoodPrice as jest.Mock
const mockCreate = createVideoOrder as jest.Mock
const phone = (over = {}) => ({
  deviceId: 9,
  name: '云手机-9',
  expireAt: Date.now() + 5 * 86_400_000,
  videoEdition: false,
  permissions: ['videoChangeOpType'],
  ...over,
})

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceId: '9' })
  mockPrice.mockResolvedValue(quote({ total: 1500, lines: [] }))
})

describe('升级视频定制版', () => {
  it('quotes the fee for the remaining time and orders it', async () => {
    mockDevice.mockResolvedValue(phone())
    mockCreate.mockResolvedValue({ ok: true, data: order({ kind: 'video' }) })
    renderPage(<VideoChangeOpType />, session())
    await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥15.00'))
    expect(mockPrice).toHaveBeenCalledWith({ kind: 'video', deviceIds: [9] })
    fireEvent.click(screen.getByText('立即升级'))
    await waitFor(() =>
      expect(navigate).toHaveBeenCalledWith('pay', { orderNo: 'CP20261122000001' }),
    )
    expect(mockCreate).toHaveBeenCalledWith(
      expect.objectContaining({ deviceId: 9, expectedAmount: 1500 }),
    )
  })

  it('refuses a phone that already has it, or whose configuration does not allow it', async () => {
    mockDevice.mockResolvedValueOnce(phone({ videoEdition: true }))
    const first = renderPage(<VideoChangeOpType />, session())
    expect(await screen.findByText('该云手机已是视频定制版')).toBeTruthy()
    first.unmount()
    mockDevice.mockResolvedValueOnce(phone({ permissions: [] }))
    renderPage(<VideoChangeOpType />, session())
    expect(await screen.findByText('该云手机的配置不支持升级视频定制版')).toBeTruthy()
    expect(mockPrice).not.toHaveBeenCalled()
  })
})
