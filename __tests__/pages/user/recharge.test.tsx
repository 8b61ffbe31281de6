import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { payMethodsFor } from '@/pages/pay/parts/pay-flow'
import Recharge from '@/pages/user/recharge'
import * as wallet from '@/services/wallet'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/services/wallet', () => ({
  getRechargePackages: jest.fn(),
  createRechargeOrder: jest.fn(),
}))

const api = wallet as jest.Mocked<typeof wallet>

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

describe('paying a recharge', () => {
  it('offers no beans on pay/pay (beans cannot buy beans)', () => {
    expect(payMethodsFor('h5', 'beanRecharge').map((m) => m.label)).toEqual(['支付宝', '微信支付'])
    expect(payMethodsFor('applet', 'beanRecharge').map((m) => m.value)).toEqual([2])
    expect(payMethodsFor('h5', 'renew').map((m) => m.value)).toEqual([1, 2, 3])
  })
})
