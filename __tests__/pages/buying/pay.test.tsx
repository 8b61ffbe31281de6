// first: it mocks what the page talks to
import { checkoutAnswer, info, methodNames, ORDER_NO, payment } from '../../setup/pay-page'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import Pay from '@/pages/pay/pay'
import { openCheckout } from '@/pages/pay/parts/checkout'
import { cancelOrder } from '@/api/order'
import { sandboxPayAct } from '@/api/pay'
import { navigate } from '@/runtime/navigation'
import { fluxAsks, paidOrder, server, settledFlux } from '../../setup/flux'
import { renderPage, setRouteParams } from '../page-harness'
import { order, session } from './fixtures'

const mockSandboxPayAct = sandboxPayAct as jest.Mock
const mockCancelOrder = cancelOrder as jest.Mock

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ orderNo: ORDER_NO })
  info.mockResolvedValue(order())
})
afterEach(() => jest.useRealTimers())

describe('支付', () => {
  it('offers Alipay, WeChat Pay and beans on H5, and sends the buyer to the checkout', async () => {
    payment.mockResolvedValue(checkoutAnswer('/co?t=T1', 1, 'T1'))
    renderPage(<Pay />, session())
    await screen.findByText('立即支付')
    expect(methodNames()).toEqual(['支付宝', '微信支付', '云豆'])
    expect(await screen.findByText('余额 500 云豆（1云豆抵1分）')).toBeTruthy()
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() => expect(openCheckout).toHaveBeenCalledWith('/co?t=T1'))
    expect(payment).toHaveBeenCalledWith({
      orderNo: ORDER_NO,
      payMethod: 1,
      returnUrl: `/pages/pay/pay?orderNo=${ORDER_NO}&paying=1`,
    })
  })

  it('offers WeChat Pay and beans in the mini-program, with the sandbox choices in an action sheet', async () => {
    payment.mockResolvedValue(checkoutAnswer('/co?t=T2', 2, 'T2'))
    mockSandboxPayAct.mockResolvedValue({})
    renderPage(<Pay />, session({ runtime: 'applet' }))
    await screen.findByText('立即支付')
    expect(methodNames()).toEqual(['微信支付', '云豆'])
    fireEvent.click(screen.getByText('立即支付'))
    fireEvent.click(await screen.findByText('确认支付'))
    await waitFor(() => expect(sandboxPayAct).toHaveBeenCalledWith('T2', 'pay'))
    expect(openCheckout).not.toHaveBeenCalled()
  })

  it('tells the mini-program buyer a cancelled sandbox payment', async () => {
    payment.mockResolvedValue(checkoutAnswer('/co', 2, 'T4'))
    mockSandboxPayAct.mockResolvedValue({})
    renderPage(<Pay />, session({ runtime: 'applet' }))
    fireEvent.click(await screen.findByText('立即支付'))
    fireEvent.click(await screen.findByText('取消支付'))
    expect(await screen.findByText('支付已取消')).toBeTruthy()
    expect(sandboxPayAct).toHaveBeenCalledWith('T4', 'cancel')
  })

  it('counts down to the payment deadline', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-22T08:00:00Z') })
    info.mockResolvedValue(order({ payDeadline: Date.parse('2026-11-22T08:15:00Z') }))
    renderPage(<Pay />, session())
    await act(async () => undefined)
    expect(screen.getByText('15:00')).toBeTruthy()
    await act(async () => void jest.advanceTimersByTime(61_000))
    expect(screen.getByText('13:59')).toBeTruthy()
  })

  it('back from the checkout: waits for the result, then says the payment did not complete', async () => {
    jest.useFakeTimers()
    setRouteParams({ orderNo: ORDER_NO, paying: '1' })
    renderPage(<Pay />, session())
    await act(async () => undefined)
    expect(screen.getByText('如已完成支付，请稍候，正在确认支付结果…')).toBeTruthy()
    await act(async () => void jest.advanceTimersByTime(9000))
    expect(screen.getByText('支付未完成，可重新选择支付方式支付')).toBeTruthy()
    expect(screen.getByText('立即支付')).toBeTruthy()
  })

  it('follows the order through the server’s flux until it is final, then asks nothing more', async () => {
    jest.useFakeTimers()
    let now = order()
    info.mockImplementation(async () => now)
    renderPage(<Pay />, session())
    await act(async () => undefined)
    // unpaid, and nothing of the buyer's in flux on the server: the order is asked again each round
    now = order({ status: 1 })
    await act(async () => void jest.advanceTimersByTime(1000))
    expect(screen.getByText('支付成功，云手机创建中…')).toBeTruthy()
    // paid: the server says it is on its way; the page asks again only when that changes
    server.flux = settledFlux({ paidOrders: [{ ...paidOrder('new'), orderNo: ORDER_NO }] })
    await act(async () => void jest.advanceTimersByTime(1500))
    const paidAsks = info.mock.calls.length
    await act(async () => void jest.advanceTimersByTime(1000 + 1500))
    expect(info).toHaveBeenCalledTimes(paidAsks)
    now = order({ status: 2, deviceIds: [7] })
    server.flux = settledFlux({ fleetVersion: 2 })
    await act(async () => void jest.advanceTimersByTime(2250))
    expect(screen.getByText('云手机已开通，正在创建中，通常几秒后即可使用')).toBeTruthy()
    expect(screen.getByText('查看我的云机')).toBeTruthy()
    // one more ask confirms it, then none
    await act(async () => void jest.advanceTimersByTime(5000))
    const calls = [info.mock.calls.length, fluxAsks.mock.calls.length]
    await act(async () => void jest.advanceTimersByTime(30_000))
    expect([info.mock.calls.length, fluxAsks.mock.calls.length]).toEqual(calls)
    expect(info).toHaveBeenCalledWith({ orderNo: ORDER_NO }, { loading: false })
  })

  it('explains a beans shortfall and an out-of-stock answer', async () => {
    payment.mockRejectedValueOnce({ code: 1015, msg: '云豆数量不足' })
    payment.mockResolvedValueOnce({
      ok: false,
      code: 1017,
      msg: '所选地区库存不足，请更换地区或减少购买数量',
    })
    renderPage(<Pay />, session())
    await screen.findByText('立即支付')
    fireEvent.click(screen.getByRole('radio', { name: '云豆' }))
    fireEvent.click(screen.getByText('立即支付'))
    expect(await screen.findByText('云豆余额不足，请选择其他支付方式')).toBeTruthy()
    expect(payment).toHaveBeenCalledWith(expect.objectContaining({ payMethod: 3 }))
    fireEvent.click(screen.getByText('立即支付'))
    expect(await screen.findByText('所选地区库存不足，请更换地区或减少购买数量')).toBeTruthy()
  })

  it('pays a shared link order by its token', async () => {
    setRouteParams({ link: 'tok123' })
    info.mockResolvedValue(order({ isOwner: false, payLink: '/pages/pay/pay?link=tok123' }))
    payment.mockResolvedValue(checkoutAnswer('/co', 1, 'T3'))
    renderPage(<Pay />, session())
    await screen.findByText('立即支付')
    expect(info).toHaveBeenCalledWith({ link: 'tok123' }, { loading: false })
    expect(screen.queryByText('取消订单')).toBeNull()
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() =>
      expect(payment).toHaveBeenCalledWith(expect.objectContaining({ link: 'tok123' })),
    )
  })

  it('cancels an unpaid order after confirmation', async () => {
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
    mockCancelOrder.mockImplementation(async () => {
      info.mockResolvedValue(order({ status: 3 })) // the server has it cancelled from now on
      return order({ status: 3 })
    })
    renderPage(<Pay />, session())
    fireEvent.click(await screen.findByText('取消订单'))
    expect(await screen.findByText('订单已取消')).toBeTruthy()
    expect(cancelOrder).toHaveBeenCalledWith({ orderNo: ORDER_NO })
  })

  it('lists the bought activation codes with copy and a way to activate one', async () => {
    jest.spyOn(Taro, 'setClipboardData').mockResolvedValue({ errMsg: 'ok' } as never)
    jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
    info.mockResolvedValue(
      order({ kind: 'activationCode', status: 2, codes: ['ABCD2345EFGH6789', 'JKLM2345NPQR6789'] }),
    )
    renderPage(<Pay />, session())
    expect(await screen.findByText('ABCD2345EFGH6789')).toBeTruthy()
    fireEvent.click(screen.getAllByText('复制')[0])
    await waitFor(() =>
      expect(Taro.setClipboardData).toHaveBeenCalledWith({ data: 'ABCD2345EFGH6789' }),
    )
    fireEvent.click(screen.getByText('去激活'))
    expect(navigate).toHaveBeenCalledWith('activateDevice')
  })

  it('says when the order timed out', async () => {
    info.mockResolvedValue(order({ status: 4 }))
    renderPage(<Pay />, session())
    expect(await screen.findByText('订单已超时')).toBeTruthy()
    expect(screen.queryByText('立即支付')).toBeNull()
  })
})

describe('账户余额 (company users)', () => {
  it('offers the account balance with its amount and shows the 1025 prompt', async () => {
    const { getAccountBalance } = jest.requireMock<{ getAccountBalance: jest.Mock }>('@/api/wallet')
    getAccountBalance.mockResolvedValueOnce({ balance: 1234, enabled: true })
    payment.mockResolvedValue({ ok: false, code: 1025, msg: '账户余额不足，请更换支付方式' })
    renderPage(<Pay />, session())
    await screen.findByText('余额 ¥12.34')
    expect(methodNames()).toEqual(['支付宝', '微信支付', '云豆', '账户余额'])
    fireEvent.click(screen.getByRole('radio', { name: '账户余额' }))
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() =>
      expect(payment).toHaveBeenCalledWith(expect.objectContaining({ payMethod: 4 })),
    )
    expect((await screen.findByRole('alert')).textContent).toContain('账户余额不足，请更换支付方式')
  })
})
