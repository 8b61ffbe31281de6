import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { payMethodsFor } from '@/pages/pay/parts/pay-flow'
import Recharge, { topUpFen } from '@/pages/user/recharge'
import * as wallet from '@/services/wallet'
import { renderPage, typeInto } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/services/wallet', () => ({
  getRechargePackages: jest.fn(),
  createRechargeOrder: jest.fn(),
  getAccountBalance: jest.fn(),
  agentBalanceRecharge: jest.fn(),
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
  api.getAccountBalance.mockResolvedValue({ balance: 0, enabled: false })
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
