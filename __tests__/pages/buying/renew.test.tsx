import { fireEvent, screen, waitFor } from '@testing-library/react'
import type { Device } from '@/types/api'
import Renew from '@/pages/Renew/index'
import { formatDateTime } from '@/domain/formatters'
import { getDevice } from '@/api/device'
import { getGoodPrice, getGoodsDetail } from '@/api/goods'
import { createRenewOrder } from '@/api/order'
import { navigate } from '@/runtime/navigation'
import { getApplicableCoupons } from '@/api/coupon'
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
jest.mock('@/api/goods', () => ({ getGoodsDetail: jest.fn(), getGoodPrice: jest.fn() }))
jest.mock('@/api/order', () => ({ createRenewOrder: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn() }))

const mockGetDevice = getDevice as jest.Mock
const mockGetGoodsDetail = getGoodsDetail as jest.Mock
const mockGetGoodPrice = getGoodPrice as jest.Mock
const mockCreateRenewOrder = createRenewOrder as jest.Mock

const DAY = 86_400_000
const T0 = Date.parse('2026-12-01T00:00:00+08:00')
const device = (deviceId: number, expireAt: number, goodId = 1) =>
  ({ deviceId, name: `云手机-${deviceId}`, goodId, status: 1, expireAt }) as Device
const quoteBody = () => mockGetGoodPrice.mock.calls.at(-1)[0]

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceIds: '1,2' })
  mockGetDevice.mockImplementation(async (id: number) => device(id, id === 1 ? T0 : T0 + 10 * DAY))
  mockGetGoodsDetail.mockResolvedValue(goods())
  mockGetGoodPrice.mockImplementation(async (body: { alignToLatest: boolean }) =>
    quote({
      total: body.alignToLatest ? 23100 : 19800,
      renewals: [
        {
          deviceId: 1,
          newExpireAt: T0 + (body.alignToLatest ? 40 : 30) * DAY,
          amount: 0,
          extraMs: 0,
        },
        { deviceId: 2, newExpireAt: T0 + 40 * DAY, amount: 0, extraMs: 0 },
      ],
    }),
  )
})

describe('续费', () => {
  it('takes the preselected coupon off the renewal and orders with it', async () => {
    const applicable = getApplicableCoupons as jest.Mock
    applicable.mockResolvedValueOnce({
      total: 19800,
      businessType: 1,
      goods: {
        goodId: 1,
        configId: 1,
        id: 11,
        goodTime: 30,
        goodPrice: 19800,
        oldPrice: null,
        firstCount: 0,
        activityId: null,
        firstPurchase: false,
      },
      number: 1,
      coupons: [
        {
          id: 9,
          name: '续费满减券',
          couponType: 1,
          parValue: 1000,
          conditionsUse: 5000,
          businessType: 1,
          scopeApplications: '1',
          applicableObjects: null,
          rules: null,
          effectiveScope: null,
          status: 1,
          validFrom: 0,
          validUntil: T0,
          issuedAt: 0,
          usedAt: null,
          locked: false,
          newArrival: false,
          expiringSoon: false,
          usable: true,
          reason: null,
          discount: 1000,
        },
      ],
    })
    mockCreateRenewOrder.mockResolvedValue({ ok: true, data: order({ kind: 'renew' }) })
    renderPage(<Renew />, session())
    await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥188.00'))
    expect(screen.getByText('已选：续费满减券')).toBeTruthy()
    fireEvent.click(screen.getByText('确认续费'))
    await waitFor(() =>
      expect(createRenewOrder).toHaveBeenCalledWith(
        expect.objectContaining({ expectedAmount: 18800, couponId: 9 }),
      ),
    )
  })

  it('aligns every phone to the latest expiry when the switch is on, and orders that', async () => {
    mockCreateRenewOrder.mockResolvedValue({ ok: true, data: order({ kind: 'renew' }) })
    renderPage(<Renew />, session())
    await screen.findByText(`续费后：${formatDateTime(T0 + 30 * DAY)}`)
    expect(quoteBody()).toEqual({
      kind: 'renew',
      priceId: 11,
      deviceIds: [1, 2],
      alignToLatest: false,
    })
    fireEvent.click(screen.getByLabelText('对齐到期时间'))
    await waitFor(
      () => expect(screen.getAllByText(`续费后：${formatDateTime(T0 + 40 * DAY)}`)).toHaveLength(2),
      { timeout: 3000 },
    )
    expect(quoteBody().alignToLatest).toBe(true)
    expect(screen.getByLabelText('合计金额').textContent).toBe('¥231.00')
    fireEvent.click(screen.getByText('确认续费'))
    await waitFor(() =>
      expect(createRenewOrder).toHaveBeenCalledWith(
        expect.objectContaining({
          deviceIds: [1, 2],
          priceId: 11,
          alignToLatest: true,
          expectedAmount: 23100,
        }),
      ),
    )
    expect(navigate).toHaveBeenCalledWith('pay', { orderNo: 'CP20261122000001' })
  })

  it('refuses a batch of different configurations', async () => {
    mockGetDevice.mockImplementation(async (id: number) => device(id, T0, id))
    renderPage(<Renew />, session())
    expect(await screen.findByText('请选择同一配置的云手机批量续费')).toBeTruthy()
    expect(getGoodPrice).not.toHaveBeenCalled()
  })

  it('has no align switch for a single phone', async () => {
    setRouteParams({ deviceIds: '2' })
    renderPage(<Renew />, session())
    await screen.findByText('云手机-2')
    await waitFor(() => expect(getGoodPrice).toHaveBeenCalled())
    expect(screen.queryByLabelText('对齐到期时间')).toBeNull()
  })
})
