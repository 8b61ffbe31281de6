/**
 * H5 pay: in WeChat's browser WeChat Pay needs the payer's openid, so the page first goes to WeChat's
 * silent authorisation, which comes back to pay/pay with a one-time code; then createPayment (scene
 * wechatBrowser) and WeixinJSBridge's getBrandWCPayRequest. Outside WeChat: H5 pay's page (h5_url).
 */
// first: it mocks what the page talks to
import {
  checkoutAnswer,
  info,
  jsapiAnswer,
  methodNames,
  ORDER_NO,
  payment,
  REAL_WECHAT_PAY,
  SANDBOX_PAY,
  wxPayParams,
} from '../../setup/pay-page'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Pay from '@/pages/pay/pay'
import { openCheckout } from '@/pages/pay/parts/checkout'
import { ApiError } from '@/runtime/api-error'
import { newOAuthState, OAUTH_STATE_KEY } from '@/platform/oauth'
import { taroStorage } from '@/platform/shared'
import { renderPage, setRouteParams } from '../page-harness'
import { order, session } from '../buying/fixtures'

const AUTHORIZE = '/vmcloud/api/sandbox/wechat/oauth2/authorize'
const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) MicroMessenger/8.0.47 NetType/WIFI'
const PARAMS = wxPayParams('wx_oa')
const paySheet = jsapiAnswer(PARAMS)

type BridgeCallback = (res: { err_msg?: string }) => void
const bridgeWindow = window as { WeixinJSBridge?: { invoke: jest.Mock } }
/** WeChat's bridge answering getBrandWCPayRequest with this err_msg. */
const installBridge = (errMsg: string) => {
  const invoke = jest.fn((_name: string, _params: object, callback: BridgeCallback) =>
    callback({ err_msg: errMsg }),
  )
  bridgeWindow.WeixinJSBridge = { invoke }
  return invoke
}

/** The page as WeChat's authorisation brings it back: its address and Taro's route params. */
function returnFromAuthorisation(query: Record<string, string>) {
  const qs = new URLSearchParams(query).toString()
  window.history.replaceState(null, '', `/pages/pay/pay?${qs}`)
  // Taro's H5 router hands query values over still URL-encoded
  setRouteParams(
    Object.fromEntries(Object.entries(query).map(([k, v]) => [k, encodeURIComponent(v)])),
  )
}

/** Leaving the page (window.location.href = …) is recorded instead of navigating. */
function trapNavigation(): string[] {
  const real = window.location
  const assigned: string[] = []
  jest.spyOn(window, 'location', 'get').mockReturnValue({
    get origin() {
      return real.origin
    },
    get href() {
      return real.href
    },
    set href(to: string) {
      assigned.push(to)
    },
  } as Location)
  return assigned
}

let userAgent: jest.SpyInstance
beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ orderNo: ORDER_NO })
  window.history.replaceState(null, '', `/pages/pay/pay?orderNo=${ORDER_NO}`)
  info.mockResolvedValue(order())
  userAgent = jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue(WECHAT_UA)
  process.env.TARO_APP_WECHAT_APPID = 'wx_sandbox'
  process.env.TARO_APP_WECHAT_OAUTH_URL = AUTHORIZE
  taroStorage.remove(OAUTH_STATE_KEY)
})
afterEach(() => {
  jest.restoreAllMocks()
  jest.useRealTimers()
  delete bridgeWindow.WeixinJSBridge
  delete process.env.TARO_APP_WECHAT_APPID
  delete process.env.TARO_APP_WECHAT_OAUTH_URL
})

describe('微信支付 in WeChat’s browser', () => {
  it('offers WeChat Pay first and no Alipay, whose pages WeChat does not open', async () => {
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    await screen.findByText('立即支付')
    expect(methodNames()).toEqual(['微信支付', '云豆'])
  })

  it('goes to the silent authorisation first, which is to come back to pay/pay with the order and method', async () => {
    const real = window.location
    const assigned = trapNavigation()
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    fireEvent.click(await screen.findByText('立即支付'))
    await waitFor(() => expect(assigned).toHaveLength(1))
    expect(payment).not.toHaveBeenCalled()
    const authorize = new URL(assigned[0])
    expect(authorize.pathname).toBe(AUTHORIZE)
    expect(authorize.searchParams.get('appid')).toBe('wx_sandbox')
    expect(authorize.searchParams.get('scope')).toBe('snsapi_base')
    expect(authorize.searchParams.get('state')).toBe(taroStorage.get(OAUTH_STATE_KEY))
    expect(authorize.hash).toBe('#wechat_redirect')
    const back = new URL(authorize.searchParams.get('redirect_uri')!)
    expect(back.origin).toBe(real.origin)
    expect(back.pathname).toBe('/pages/pay/pay')
    expect(Object.fromEntries(back.searchParams)).toEqual({ orderNo: ORDER_NO, payMethod: '2' })
  })

  it('back with the code: pays through WeixinJSBridge once, and the code leaves the address bar', async () => {
    jest.useFakeTimers()
    const invoke = installBridge('get_brand_wcpay_request:ok')
    payment.mockResolvedValue(paySheet)
    const state = newOAuthState(taroStorage)
    returnFromAuthorisation({ orderNo: ORDER_NO, payMethod: '2', code: 'sandbox:oa-1/+=', state })
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    await act(async () => undefined)
    expect(payment).toHaveBeenCalledTimes(1)
    expect(payment).toHaveBeenCalledWith({
      orderNo: ORDER_NO,
      payMethod: 2,
      returnUrl: `/pages/pay/pay?orderNo=${ORDER_NO}&paying=1`,
      scene: 'wechatBrowser',
      wxCode: 'sandbox:oa-1/+=',
    })
    expect(invoke).toHaveBeenCalledWith('getBrandWCPayRequest', PARAMS, expect.any(Function))
    expect(window.location.search).toBe(`?orderNo=${ORDER_NO}&payMethod=2`)
    expect(screen.getByText('微信支付已完成，正在确认支付结果，请勿重复支付')).toBeTruthy()
    expect(screen.queryByText('支付成功')).toBeNull()
    info.mockResolvedValue(order({ status: 1 }))
    await act(async () => void jest.advanceTimersByTime(2000))
    expect(screen.getByText('支付成功')).toBeTruthy()
  })

  it('a reload of the returned page does not send the used code again', async () => {
    payment.mockResolvedValue(paySheet)
    installBridge('get_brand_wcpay_request:cancel')
    const state = newOAuthState(taroStorage)
    returnFromAuthorisation({ orderNo: ORDER_NO, payMethod: '2', code: 'sandbox:oa-2', state })
    const first = renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    expect(await screen.findByText('支付已取消')).toBeTruthy()
    first.unmount()
    // a reload reads the address bar, which no longer holds the code
    setRouteParams(Object.fromEntries(new URLSearchParams(window.location.search)))
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    await screen.findByText('立即支付')
    expect(payment).toHaveBeenCalledTimes(1)
  })

  it('a code this browser did not ask for (a link someone sent) is refused and dropped', async () => {
    newOAuthState(taroStorage)
    returnFromAuthorisation({
      orderNo: ORDER_NO,
      payMethod: '2',
      code: 'sandbox:oa-victim',
      state: 'forged',
    })
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    expect(await screen.findByText('微信授权已失效，请重新点击立即支付')).toBeTruthy()
    expect(payment).not.toHaveBeenCalled()
    expect(window.location.search).toBe(`?orderNo=${ORDER_NO}&payMethod=2`)
  })

  it('a cancelled sheet says 支付已取消; a failed one 支付失败，请重试; neither is a success', async () => {
    payment.mockResolvedValue(paySheet)
    installBridge('get_brand_wcpay_request:cancel')
    returnFromAuthorisation({
      orderNo: ORDER_NO,
      code: 'sandbox:oa-3',
      state: newOAuthState(taroStorage),
    })
    const first = renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    expect(await screen.findByText('支付已取消')).toBeTruthy()
    expect(screen.queryByText(/正在确认支付结果/)).toBeNull()
    first.unmount()
    installBridge('get_brand_wcpay_request:fail')
    returnFromAuthorisation({
      orderNo: ORDER_NO,
      code: 'sandbox:oa-4',
      state: newOAuthState(taroStorage),
    })
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    expect(await screen.findByText('支付失败，请重试')).toBeTruthy()
    expect(screen.queryByText('支付成功')).toBeNull()
  })

  it('waits for WeixinJSBridgeReady when the bridge is not there yet', async () => {
    payment.mockResolvedValue(paySheet)
    returnFromAuthorisation({
      orderNo: ORDER_NO,
      code: 'sandbox:oa-5',
      state: newOAuthState(taroStorage),
    })
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    await waitFor(() => expect(payment).toHaveBeenCalled())
    const invoke = installBridge('get_brand_wcpay_request:ok')
    document.dispatchEvent(new Event('WeixinJSBridgeReady'))
    expect(await screen.findByText(/微信支付已完成/)).toBeTruthy()
    expect(invoke).toHaveBeenCalledTimes(1)
  })

  it('a refused code (1004) shows the server’s message', async () => {
    payment.mockRejectedValue(new ApiError(1004, '微信授权已失效，请重新进入页面后再支付'))
    returnFromAuthorisation({
      orderNo: ORDER_NO,
      code: 'sandbox:expired',
      state: newOAuthState(taroStorage),
    })
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    expect(await screen.findByText('微信授权已失效，请重新进入页面后再支付')).toBeTruthy()
    expect(screen.getByText('立即支付')).toBeTruthy()
  })

  it('the sandbox provider needs no openid (config): no authorisation, its checkout page opens at once', async () => {
    const assigned = trapNavigation()
    payment.mockResolvedValue(checkoutAnswer('/vmcloud/api/sandbox/pay/checkout?tradeNo=T7'))
    renderPage(<Pay />, session({ commonConfig: SANDBOX_PAY }))
    fireEvent.click(await screen.findByText('立即支付'))
    await waitFor(() =>
      expect(openCheckout).toHaveBeenCalledWith('/vmcloud/api/sandbox/pay/checkout?tradeNo=T7'),
    )
    expect(payment).toHaveBeenCalledWith({
      orderNo: ORDER_NO,
      payMethod: 2,
      returnUrl: `/pages/pay/pay?orderNo=${ORDER_NO}&paying=1`,
      scene: 'wechatBrowser',
    })
    expect(assigned).toEqual([])
    expect(taroStorage.get(OAUTH_STATE_KEY)).toBeFalsy()
  })

  it('the sandbox provider answers its checkout page, which the page opens', async () => {
    payment.mockResolvedValue(checkoutAnswer('/vmcloud/api/sandbox/pay/checkout?tradeNo=T8'))
    returnFromAuthorisation({
      orderNo: ORDER_NO,
      code: 'sandbox:oa-6',
      state: newOAuthState(taroStorage),
    })
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    await waitFor(() =>
      expect(openCheckout).toHaveBeenCalledWith('/vmcloud/api/sandbox/pay/checkout?tradeNo=T8'),
    )
  })
})

describe('H5 outside WeChat', () => {
  beforeEach(() => userAgent.mockReturnValue('Mozilla/5.0 (Linux; Android 13) Mobile Safari'))

  it('WeChat Pay goes to H5 pay’s page with no code; Alipay to its WAP page', async () => {
    payment.mockResolvedValueOnce(
      checkoutAnswer('https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx1'),
    )
    renderPage(<Pay />, session({ commonConfig: REAL_WECHAT_PAY }))
    await screen.findByText('立即支付')
    expect(methodNames()).toEqual(['支付宝', '微信支付', '云豆'])
    fireEvent.click(screen.getByRole('radio', { name: '微信支付' }))
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() => expect(openCheckout).toHaveBeenCalledTimes(1))
    expect(payment).toHaveBeenLastCalledWith({
      orderNo: ORDER_NO,
      payMethod: 2,
      returnUrl: `/pages/pay/pay?orderNo=${ORDER_NO}&paying=1`,
      scene: 'browser',
    })
    payment.mockResolvedValueOnce(checkoutAnswer('https://openapi.alipay.com/gateway.do?x=1', 1))
    fireEvent.click(screen.getByRole('radio', { name: '支付宝' }))
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() =>
      expect(openCheckout).toHaveBeenLastCalledWith('https://openapi.alipay.com/gateway.do?x=1'),
    )
    expect(payment).toHaveBeenLastCalledWith({
      orderNo: ORDER_NO,
      payMethod: 1,
      returnUrl: `/pages/pay/pay?orderNo=${ORDER_NO}&paying=1`,
    })
  })
})
