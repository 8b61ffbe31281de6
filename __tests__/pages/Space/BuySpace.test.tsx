import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import BuySpace from '@/pages/Space/BuySpace'
import { ApiError } from '@/runtime/api-error'
import * as couponService from '@/api/coupon'
import * as spaceService from '@/api/space'
import { applicableCoupons, heldCoupon, packageGoods } from '../coupon-fixtures'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/space', () => ({ getSpacePackages: jest.fn(), createSpaceOrder: jest.fn() }))
jest.mock('@/api/coupon', () => ({ getApplicableCoupons: jest.fn() }))

const api = spaceService as jest.Mocked<typeof spaceService>
const couponApi = couponService as jest.Mocked<typeof couponService>
const GB = 1024 ** 3

/** /coupon/applicable for a space package of `total` fen, holding a 5 元 off space coupon from 29.90 元. */
const spaceCoupons = (total: number) =>
  applicableCoupons({
    total,
    businessType: 4,
    goods: packageGoods(total, false),
    coupons: [
      heldCoupon({
        id: 61,
        name: '云空间满减券',
        couponType: 1,
        conditionsUse: 2990,
        businessType: 4,
        usable: total >= 2990,
        reason: total >= 2990 ? null : '距离可用门槛还差20.00元',
        discount: total >= 2990 ? 500 : 0,
      }),
    ],
  })

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  api.getSpacePackages.mockResolvedValue({
    packages: [
      { id: 1, bytes: 10 * GB, days: 30, price: 990 },
      { id: 3, bytes: 100 * GB, days: 90, price: 9900 },
    ],
  })
  couponApi.getApplicableCoupons.mockImplementation(async (body) =>
    spaceCoupons(body.packageId === 3 ? 9900 : 990),
  )
})

describe('购买空间', () => {
  it('shows each package’s size, days and price, the first one chosen', async () => {
    renderPage(<BuySpace />, {})
    expect(await screen.findByText('10 GB')).toBeTruthy()
    expect(screen.getByText('90天')).toBeTruthy()
    expect(screen.getByText('¥99.00')).toBeTruthy()
    expect(screen.getAllByText('¥9.90')).toHaveLength(2) // the package and the total
  })

  it('orders the chosen package with the best coupon taken off and opens the pay page', async () => {
    api.createSpaceOrder.mockResolvedValue({ orderNo: 'CP9' } as never)
    renderPage(<BuySpace />, {})
    fireEvent.click(await screen.findByText('100 GB'))
    await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥94.00'))
    expect(couponApi.getApplicableCoupons).toHaveBeenLastCalledWith(
      { kind: 'cloudSpace', packageId: 3 },
      { loading: false },
    )
    fireEvent.click(screen.getByText('立即购买'))
    await waitFor(() => expect(api.createSpaceOrder).toHaveBeenCalled())
    expect(api.createSpaceOrder.mock.calls[0][0]).toMatchObject({
      packageId: 3,
      expectedAmount: 9400,
      couponId: 61,
    })
    await waitFor(() =>
      expect((Taro.navigateTo as jest.Mock).mock.calls[0][0].url).toMatch(
        /pages\/pay\/pay\?orderNo=CP9/,
      ),
    )
  })

  it('shows the server’s refusal and stays on the page', async () => {
    api.createSpaceOrder.mockRejectedValue(new ApiError(1023, '订单价格已变化，请刷新后重新下单'))
    renderPage(<BuySpace />, {})
    fireEvent.click(await screen.findByText('立即购买'))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '订单价格已变化，请刷新后重新下单' }),
      ),
    )
    expect(Taro.navigateTo).not.toHaveBeenCalled()
  })
})
