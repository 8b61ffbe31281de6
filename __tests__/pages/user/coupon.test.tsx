import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import CouponPage from '@/pages/user/coupon'
import CouponUse from '@/pages/user/couponUse'
import * as coupon from '@/api/coupon'
import type { UserCoupon } from '@/types/api'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/coupon', () => ({ listCoupons: jest.fn(), listCouponUsage: jest.fn() }))

const api = coupon as jest.Mocked<typeof coupon>
const DAY = 86_400_000

const held = (over: Partial<UserCoupon>): UserCoupon => ({
  id: 1,
  name: '新人无门槛券',
  couponType: 2,
  parValue: 500,
  conditionsUse: null,
  businessType: 1,
  scopeApplications: '1',
  applicableObjects: null,
  rules: null,
  effectiveScope: null,
  status: 1,
  validFrom: Date.UTC(2026, 2, 1),
  validUntil: Date.UTC(2026, 2, 31, 4),
  issuedAt: Date.UTC(2026, 2, 1),
  usedAt: null,
  locked: false,
  newArrival: false,
  expiringSoon: false,
  ...over,
})
const page = <T,>(records: T[]) => ({ records, page: 1, totalPage: 1, total: records.length })

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('优惠券', () => {
  it('shows usable coupons with value, condition, scope, validity and markers', async () => {
    api.listCoupons.mockResolvedValue(
      page([
        held({ newArrival: true }),
        held({
          id: 2,
          name: '新人满减券',
          couponType: 1,
          parValue: 1000,
          conditionsUse: 5000,
          expiringSoon: true,
        }),
        held({
          id: 3,
          name: '旗舰版新人折扣券',
          couponType: 3,
          parValue: 85,
          scopeApplications: '3',
        }),
        held({ id: 4, name: '体验券', couponType: 5, parValue: 0, locked: true }),
      ]),
    )
    renderPage(<CouponPage />, {})
    await screen.findByText('新人无门槛券')
    expect(api.listCoupons).toHaveBeenCalledWith(1, 1, 10)
    expect(screen.getByText('5元')).toBeTruthy()
    expect(screen.getByText('无门槛')).toBeTruthy()
    expect(screen.getByText('10元')).toBeTruthy()
    expect(screen.getByText('满50.00元可用')).toBeTruthy()
    expect(screen.getByText('8.5折')).toBeTruthy()
    expect(screen.getByText('适用于云机 · 指定云机版本')).toBeTruthy()
    expect(screen.getAllByText('适用于云机 · 全业务')).toHaveLength(3)
    expect(screen.getAllByText('有效期至 2026-03-31')).toHaveLength(4)
    expect(screen.getByText('新到')).toBeTruthy()
    expect(screen.getByText('即将过期')).toBeTruthy()
    expect(screen.getByText('待支付订单占用中')).toBeTruthy()
    // type 5 shows no value
    expect(screen.queryByText('0元')).toBeNull()
  })

  it('switching to 已使用 loads that status; 使用记录 opens the records', async () => {
    api.listCoupons.mockResolvedValue(page([]))
    renderPage(<CouponPage />, {})
    await screen.findByText('暂无相关数据')
    fireEvent.click(screen.getByText('已使用'))
    await waitFor(() => expect(api.listCoupons).toHaveBeenLastCalledWith(1, 2, 10))
    fireEvent.click(screen.getByText('使用记录'))
    expect(Taro.navigateTo).toHaveBeenCalledWith(
      expect.objectContaining({ url: '/pages/user/couponUse' }),
    )
  })
})

describe('使用记录', () => {
  it('lists each used coupon with its order and discount', async () => {
    api.listCouponUsage.mockResolvedValue(
      page([
        {
          id: 7,
          name: '新人无门槛券',
          couponType: 2,
          parValue: 500,
          orderNo: 'CP20260302020000123456',
          discount: 500,
          usedAt: Date.now() - DAY,
        },
      ]),
    )
    renderPage(<CouponUse />, {})
    await screen.findByText('新人无门槛券')
    expect(screen.getByText('-¥5.00')).toBeTruthy()
    expect(screen.getByText('订单号：CP20260302020000123456')).toBeTruthy()
    expect(screen.getByText('面额：5元')).toBeTruthy()
  })
})
