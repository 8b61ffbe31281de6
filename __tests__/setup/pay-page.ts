/**
 * The pay page (pages/pay/pay) as its tests drive it: importing this file mocks what the page talks to
 * (Taro with the page harness's lifecycle, the order and pay API, the account balance, navigation and
 * the checkout opener), so a test file imports it before the page. What each answer holds is the
 * test's; the answers' shapes are here.
 */
import { screen } from '@testing-library/react'
import './flux'
import { getOrderInfo } from '@/api/order'
import { createPayment } from '@/api/pay'
import type { CreatePaymentResult } from '@/types/api'

jest.mock('@tarojs/taro', () => {
  const harness =
    jest.requireActual<typeof import('../pages/page-harness')>('../pages/page-harness')
  const taro = harness.mockTaro()
  // the page never hides in a test; unmounting stops the poll
  const useDidHide = () => undefined
  Object.assign(taro.default, { useDidHide })
  return { ...taro, useDidHide }
})
jest.mock('@/api/order', () => ({ getOrderInfo: jest.fn(), cancelOrder: jest.fn() }))
jest.mock('@/api/pay', () => ({
  createPayment: jest.fn(),
  sandboxPayAct: jest.fn(),
  getBeanBalance: jest.fn().mockResolvedValue({ balance: 500 }),
}))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn() }))
jest.mock('@/api/wallet', () => ({
  getAccountBalance: jest.fn(() => Promise.resolve({ balance: 0, enabled: false })),
}))
jest.mock('@/pages/pay/parts/checkout', () => ({ openCheckout: jest.fn() }))

type WxPayParams = NonNullable<CreatePaymentResult['wxPayParams']>

export const ORDER_NO = 'CP20261122000001'
export const info = getOrderInfo as jest.Mock
export const payment = createPayment as jest.Mock

/**
 * The session's common config as far as the pay page reads it: the scenes in which WeChat Pay's
 * provider needs the payer's code (real WeChat Pay: both WeChat scenes; the sandbox: none).
 */
export const codeScenesConfig = (wechatPayCodeScenes: string[]) => ({ wechatPayCodeScenes })
export const REAL_WECHAT_PAY = codeScenesConfig(['miniProgram', 'wechatBrowser'])
export const SANDBOX_PAY = codeScenesConfig([])

/** The pay methods offered, in the page's order. */
export const methodNames = () =>
  screen.getAllByRole('radio').map((r) => r.getAttribute('aria-label'))

/** The server's signed parameters for WeChat's pay sheet, for the app `appId`. */
export const wxPayParams = (appId: string): WxPayParams => ({
  appId,
  timeStamp: '1795000000',
  nonceStr: 'n0nce',
  package: 'prepay_id=wx2026',
  signType: 'RSA',
  paySign: 'c2lnbmVk',
})

/** createPayment's answer for WeChat's pay sheet (JSAPI). */
export const jsapiAnswer = (wxPayParams: WxPayParams) => ({
  ok: true,
  data: {
    tradeNo: 'T9',
    orderNo: ORDER_NO,
    payMethod: 2,
    checkoutUrl: null,
    wxPayParams,
    paid: false,
  },
})

/** createPayment's answer that opens a checkout page: a provider's, or the sandbox's. */
export const checkoutAnswer = (checkoutUrl: string, payMethod = 2, tradeNo = 'T8') => ({
  ok: true,
  data: { tradeNo, orderNo: ORDER_NO, payMethod, checkoutUrl, wxPayParams: null, paid: false },
})
