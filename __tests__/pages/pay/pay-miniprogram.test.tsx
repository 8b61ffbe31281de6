/**
 * WeChat Pay in the mini-program: Taro.login's code → createPayment (scene miniProgram) →
 * Taro.requestPayment with the server's signed parameters. The order is paid when the server says so.
 */
// first: it mocks what the page talks to
import {
  checkoutAnswer,
  info,
  jsapiAnswer,
  ORDER_NO,
  payment,
  REAL_WECHAT_PAY,
  SANDBOX_PAY,
  wxPayParams,
} from '../../setup/pay-page'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import Pay from '@/pages/pay/pay'
import { openCheckout } from '@/pages/pay/parts/checkout'
import { ApiError, NETWORK_ERROR_CODE, NETWORK_ERROR_MESSAGE } from '@/runtime/api-error'
import { renderPage, setRouteParams } from '../page-harness'
import { order, session } from '../buying/fixtures'

// the mini-program build's WeChat Pay (Taro picks wechat-pay.weapp.ts there; jest's default is H5)
jest.mock('@/platform/wechat-pay', () => jest.requireActual('@/platform/wechat-pay.weapp'))

const paySheet = jsapiAnswer(wxPayParams('wx_mini'))

let login: jest.SpyInstance
let requestPayment: jest.SpyInstance

beforeEach(() => {
  jest.clearAllMocks()
  jest.restoreAllMocks()
  setRouteParams({ orderNo: ORDER_NO })
  info.mockResolvedValue(order())
  login = jest
    .spyOn(Taro, 'login')
    .mockResolvedValue({ code: 'js-code-1', errMsg: 'login:ok' } as never)
  requestPayment = jest.spyOn(Taro, 'requestPayment')
})
afterEach(() => jest.useRealTimers())

const openAndPay = async () => {
  renderPage(<Pay />, session({ runtime: 'applet', commonConfig: REAL_WECHAT_PAY }))
  fireEvent.click(await screen.findByText('立即支付'))
}

describe('微信支付 in the mini-program', () => {
  it('pays with a fresh login code and the server’s signed parameters, then follows the order', async () => {
    jest.useFakeTimers()
    payment.mockResolvedValue(paySheet)
    requestPayment.mockResolvedValue({ errMsg: 'requestPayment:ok' })
    info.mockResolvedValue(order())
    renderPage(<Pay />, session({ runtime: 'applet', commonConfig: REAL_WECHAT_PAY }))
    await act(async () => undefined)
    fireEvent.click(screen.getByText('立即支付'))
    await act(async () => undefined)
    expect(payment).toHaveBeenCalledWith({
      orderNo: ORDER_NO,
      payMethod: 2,
      returnUrl: `/pages/pay/pay?orderNo=${ORDER_NO}&paying=1`,
      scene: 'miniProgram',
      wxCode: 'js-code-1',
    })
    expect(requestPayment).toHaveBeenCalledWith({
      timeStamp: '1795000000',
      nonceStr: 'n0nce',
      package: 'prepay_id=wx2026',
      signType: 'RSA',
      paySign: 'c2lnbmVk',
    })
    // WeChat said ok, the server not yet: no success, and no second payment invited
    expect(screen.getByText('微信支付已完成，正在确认支付结果，请勿重复支付')).toBeTruthy()
    await act(async () => void jest.advanceTimersByTime(30_000))
    expect(screen.queryByText('支付成功')).toBeNull()
    expect(screen.queryByText('支付未完成，可重新选择支付方式支付')).toBeNull()
    // the notification lands: the server's word is what the page shows
    info.mockResolvedValue(order({ status: 1 }))
    await act(async () => void jest.advanceTimersByTime(2000))
    expect(screen.getByText('支付成功')).toBeTruthy()
    expect(screen.getByText('支付成功，云手机创建中…')).toBeTruthy()
    expect(openCheckout).not.toHaveBeenCalled()
  })

  it('a closed payment sheet says 支付已取消 and stays on the unpaid order', async () => {
    payment.mockResolvedValue(paySheet)
    requestPayment.mockRejectedValue({ errMsg: 'requestPayment:fail cancel' })
    await openAndPay()
    expect(await screen.findByText('支付已取消')).toBeTruthy()
    expect(screen.getByText('立即支付')).toBeTruthy()
    expect(screen.queryByText('支付成功')).toBeNull()
    expect(screen.queryByText(/正在确认支付结果/)).toBeNull()
  })

  it('any other failure of the sheet says 支付失败，请重试', async () => {
    payment.mockResolvedValue(paySheet)
    requestPayment.mockRejectedValue({ errMsg: 'requestPayment:fail 系统错误' })
    await openAndPay()
    expect(await screen.findByText('支付失败，请重试')).toBeTruthy()
    expect(screen.queryByText('支付成功')).toBeNull()
  })

  it('a refused login code (1004) shows the server’s message and opens no sheet', async () => {
    payment.mockRejectedValue(new ApiError(1004, '微信授权已失效，请重新进入页面后再支付'))
    await openAndPay()
    expect(await screen.findByText('微信授权已失效，请重新进入页面后再支付')).toBeTruthy()
    expect(requestPayment).not.toHaveBeenCalled()
    // the next tap asks for a new code: a code is used once
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() => expect(login).toHaveBeenCalledTimes(2))
  })

  it('a failed Taro.login stops before the server is asked', async () => {
    login.mockResolvedValue({ code: '', errMsg: 'login:fail' })
    await openAndPay()
    expect(await screen.findByText('微信登录失败，请重试')).toBeTruthy()
    expect(payment).not.toHaveBeenCalled()
  })

  it('a network failure says so and leaves the order to pay', async () => {
    payment.mockRejectedValue(new ApiError(NETWORK_ERROR_CODE, NETWORK_ERROR_MESSAGE))
    await openAndPay()
    expect(await screen.findByText(NETWORK_ERROR_MESSAGE)).toBeTruthy()
    expect(requestPayment).not.toHaveBeenCalled()
    expect(screen.getByText('立即支付')).toBeTruthy()
  })

  it('an out-of-stock answer (soft 1017) is shown in the buyer’s words', async () => {
    payment.mockResolvedValue({
      ok: false,
      code: 1017,
      msg: '所选地区库存不足，请更换地区或减少购买数量',
    })
    await openAndPay()
    expect(await screen.findByText('所选地区库存不足，请更换地区或减少购买数量')).toBeTruthy()
    expect(requestPayment).not.toHaveBeenCalled()
  })

  it('the sandbox provider needs no code (config): no Taro.login, its three choices in the action sheet', async () => {
    payment.mockResolvedValue(checkoutAnswer('/co?t=T2', 2, 'T2'))
    renderPage(<Pay />, session({ runtime: 'applet', commonConfig: SANDBOX_PAY }))
    fireEvent.click(await screen.findByText('立即支付'))
    expect(await screen.findByText('确认支付')).toBeTruthy()
    expect(payment).toHaveBeenCalledWith({
      orderNo: ORDER_NO,
      payMethod: 2,
      returnUrl: `/pages/pay/pay?orderNo=${ORDER_NO}&paying=1`,
      scene: 'miniProgram',
    })
    expect(login).not.toHaveBeenCalled()
    expect(requestPayment).not.toHaveBeenCalled()
  })

  it('the config not loaded yet is read before paying; unreadable, the code is got as before', async () => {
    payment.mockResolvedValue(checkoutAnswer('/co?t=T3', 2, 'T3'))
    const loadCommonConfig = jest.fn().mockResolvedValue(SANDBOX_PAY)
    const first = renderPage(
      <Pay />,
      session({ runtime: 'applet', commonConfig: null, loadCommonConfig }),
    )
    fireEvent.click(await screen.findByText('立即支付'))
    await waitFor(() => expect(payment).toHaveBeenCalledTimes(1))
    expect(loadCommonConfig).toHaveBeenCalledWith({ quiet: true })
    expect(payment.mock.calls[0][0].wxCode).toBeUndefined()
    expect(login).not.toHaveBeenCalled()
    first.unmount()
    const unreadable = jest.fn().mockRejectedValue(new ApiError(500, '服务异常'))
    renderPage(
      <Pay />,
      session({ runtime: 'applet', commonConfig: null, loadCommonConfig: unreadable }),
    )
    fireEvent.click(await screen.findByText('立即支付'))
    await waitFor(() => expect(payment).toHaveBeenCalledTimes(2))
    expect(payment.mock.calls[1][0]).toMatchObject({ scene: 'miniProgram', wxCode: 'js-code-1' })
  })

  it('beans need no WeChat code; a shortfall (1015) is explained', async () => {
    payment.mockRejectedValue(new ApiError(1015, '云豆数量不足'))
    renderPage(<Pay />, session({ runtime: 'applet', commonConfig: REAL_WECHAT_PAY }))
    await screen.findByText('立即支付')
    fireEvent.click(screen.getByRole('radio', { name: '云豆' }))
    fireEvent.click(screen.getByText('立即支付'))
    expect(await screen.findByText('云豆余额不足，请选择其他支付方式')).toBeTruthy()
    expect(payment).toHaveBeenCalledWith({
      orderNo: ORDER_NO,
      payMethod: 3,
      returnUrl: `/pages/pay/pay?orderNo=${ORDER_NO}&paying=1`,
    })
    expect(login).not.toHaveBeenCalled()
  })
})
