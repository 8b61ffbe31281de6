import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { payMethodsFor } from '@/pages/pay/parts/pay-flow'
import Recharge, { topUpFen } from '@/pages/user/recharge'
import * as couponService from '@/api/coupon'
import * as wallet from '@/api/wallet'
import { applicableCoupons, heldCoupon, packageGoods } from '../coupon-fixtures'
import { renderPage, typeInto } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/wallet', () => ({
  getRechargePackages: jest.fn(),
  createRechargeOrder: jest.fn(),
  getAccountBalance: jest.fn(),
  agentBalanceRecharge: jest.fn(),
}))

jest.mock('@/api/coupon', () => ({ getApplicableCoupons: jest.fn() }))

const api = wallet as jest.Mocked<typeof wallet>
const couponApi = couponService as jest.Mocked<typeof couponService>

/** The seeded 首充券 as /coupon/applicable returns it for a package of `total` fen. */
const firstRechargeCoupons = (total: number, usable: boolean, reason: string | null = null) =>
  applicableCoupons({
    total,
    businessType: 3,
    goods: packageGoods(total, usable),
    coupons: [
      heldCoupon({
        id: 41,
        name: '首充立减3元',
        couponType: 4,
        parValue: 300,
        conditionsUse: 3000,
        businessType: 3,
        validUntil: Date.now() + 86_400_000 * 20,
        newArrival: false,
        usable,
        reason,
        discount: usable ? 300 : 0,
      }),
    ],
  })

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  api.getRechargePackages.mockResolvedValue({
    balance: 1234,
    fenPerBean: 1,
    packages: [
      { id: 1, price: 600, beans: 600, bonus: 0 },
      { id: 2, price: 3000, beans: 3000, bonus: 300 },
    ],
  })
  api.getAccountBalance.mockResolvedValue({ balance: 0, enabled: false })
  couponApi.getApplicableCoupons.mockImplementation(async (body) =>
    body.packageId === 2
      ? firstRechargeCoupons(3000, true)
      : firstRechargeCoupons(600, false, '距离可用门槛还差24.00元'),
  )
})

describe('我的云豆', () => {
  it('shows the balance and the packages with their bonus and price', async () => {
    renderPage(<Recharge />, {})
    expect(await screen.findByText('1234')).toBeTruthy()
    expect(screen.getByText('600云豆')).toBeTruthy()
    expect(screen.getByText('赠送300云豆')).toBeTruthy()
    expect(screen.getByText('¥30.00')).toBeTruthy()
  })

  it('creates an order for the chosen package at its price and opens the pay page', async () => {
    api.createRechargeOrder.mockResolvedValue({ orderNo: 'CP1' } as never)
    renderPage(<Recharge />, {})
    fireEvent.click(await screen.findByText('3000云豆'))
    fireEvent.click(screen.getByText('立即充值'))
    await waitFor(() => expect(api.createRechargeOrder).toHaveBeenCalled())
    expect(api.createRechargeOrder.mock.calls[0][0]).toMatchObject({
      packageId: 2,
      expectedAmount: 3000,
    })
    await waitFor(() =>
      expect((Taro.navigateTo as jest.Mock).mock.calls[0][0].url).toMatch(
        /pages\/pay\/pay\?orderNo=CP1/,
      ),
    )
  })
})

describe('首充券', () => {
  it('comes off the first recharge it applies to: the picker, the discounted price, the order call', async () => {
    api.createRechargeOrder.mockResolvedValue({ orderNo: 'CP2' } as never)
    renderPage(<Recharge />, {})
    expect(await screen.findByText('¥6.00', { selector: '[aria-label="合计金额"]' })).toBeTruthy()
    expect(await screen.findByText(/暂无可用/)).toBeTruthy()

    fireEvent.click(screen.getByText('3000云豆'))
    expect(await screen.findByText(/-¥3\.00/)).toBeTruthy()
    expect(screen.getByText('已选：首充立减3元')).toBeTruthy()
    expect(screen.getByLabelText('合计金额').textContent).toBe('¥27.00')
    expect(couponApi.getApplicableCoupons).toHaveBeenLastCalledWith(
      { kind: 'recharge', packageId: 2 },
      { loading: false },
    )

    fireEvent.click(screen.getByText('立即充值'))
    await waitFor(() => expect(api.createRechargeOrder).toHaveBeenCalled())
    expect(api.createRechargeOrder.mock.calls[0][0]).toMatchObject({
      packageId: 2,
      expectedAmount: 2700,
      couponId: 41,
    })
  })

  it('orders at the full price when 不使用优惠券 is picked', async () => {
    api.createRechargeOrder.mockResolvedValue({ orderNo: 'CP3' } as never)
    renderPage(<Recharge />, {})
    fireEvent.click(await screen.findByText('3000云豆'))
    fireEvent.click(await screen.findByText(/-¥3\.00/))
    fireEvent.click(screen.getByText('不使用优惠券'))
    expect(screen.getByLabelText('合计金额').textContent).toBe('¥30.00')
    fireEvent.click(screen.getByText('立即充值'))
    await waitFor(() => expect(api.createRechargeOrder).toHaveBeenCalled())
    const body = api.createRechargeOrder.mock.calls[0][0]
    expect(body).toMatchObject({ packageId: 2, expectedAmount: 3000 })
    expect(body.couponId).toBeUndefined()
  })
})

describe('paying a recharge', () => {
  it('offers no beans on pay/pay (beans cannot buy beans)', () => {
    expect(payMethodsFor('h5', 'beanRecharge').map((m) => m.label)).toEqual(['支付宝', '微信支付'])
    expect(payMethodsFor('applet', 'beanRecharge').map((m) => m.value)).toEqual([2])
    expect(payMethodsFor('h5', 'renew').map((m) => m.value)).toEqual([1, 2, 3])
  })
})

describe('企业账户余额', () => {
  it('is shown to company users only, and a top-up in 元 becomes an order in fen', async () => {
    api.getAccountBalance.mockResolvedValue({ balance: 12345, enabled: true })
    api.agentBalanceRecharge.mockResolvedValue({ orderNo: 'CP7' } as never)
    renderPage(<Recharge />, {})
    expect(await screen.findByText('¥123.45')).toBeTruthy()
    typeInto(document.body, '充值金额', '88.5')
    fireEvent.click(screen.getByText('充值余额'))
    await waitFor(() => expect(api.agentBalanceRecharge).toHaveBeenCalled())
    expect(api.agentBalanceRecharge.mock.calls[0][0]).toMatchObject({ amount: 8850 })
    await waitFor(() =>
      expect((Taro.navigateTo as jest.Mock).mock.calls[0][0].url).toMatch(/orderNo=CP7/),
    )
  })

  it('is absent for a personal account', async () => {
    renderPage(<Recharge />, {})
    await screen.findByText('600云豆')
    await waitFor(() => expect(api.getAccountBalance).toHaveBeenCalled())
    expect(screen.queryByText('企业账户余额')).toBeNull()
  })

  it('refuses bad amounts with a clear message', () => {
    expect(topUpFen('')).toEqual({ error: '请输入充值金额' })
    expect(topUpFen('-5')).toEqual({ error: '请输入正确的金额，最多两位小数' })
    expect(topUpFen('1.234')).toEqual({ error: '请输入正确的金额，最多两位小数' })
    expect(topUpFen('0.5')).toEqual({ error: '充值金额不能少于1元' })
    expect(topUpFen('100001')).toEqual({ error: '单次充值金额不能超过100000元' })
    expect(topUpFen('100000')).toEqual({ fen: 10_000_000 })
  })

  it('pay/pay offers the account balance to company users, never for a top-up', () => {
    expect(payMethodsFor('h5', 'new', true).map((m) => m.label)).toEqual([
      '支付宝',
      '微信支付',
      '云豆',
      '账户余额',
    ])
    expect(payMethodsFor('h5', 'new', false).map((m) => m.value)).toEqual([1, 2, 3])
    expect(payMethodsFor('applet', 'balanceRecharge', true).map((m) => m.value)).toEqual([2])
  })
})
