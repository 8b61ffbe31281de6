/**
 * Starting a payment, the same steps for every method and place: the payer's WeChat code when WeChat
 * Pay's provider needs one here (the config's wechatPayCodeScenes), the server's createPayment, then whatever it answers (paid at once, WeChat's payment
 * sheet, a checkout page, the mini-program's sandbox sheet). The page shows what each step ends in.
 */
import type { CreatePaymentBody, OrderInfoQuery } from '@/types/api'
import type { PayScene } from '@/platform/types'
import { url } from '@/constants/routes'
import { PayMethod } from '@/domain/order-status'
import { createPayment } from '@/api/pay'
import wechatPayment from '@/platform/wechat-pay'
import { openCheckout } from './checkout'

export type PayStep =
  /** the server refused (a soft code), in the buyer's words */
  | { kind: 'refused'; msg: string }
  /** the page left: for WeChat's authorisation, or the provider's checkout page */
  | { kind: 'left' }
  /** follow the order: paid at once, or the server answered nothing to open */
  | { kind: 'follow' }
  /** WeChat's payment sheet ended; the order is paid only when the server says so */
  | { kind: 'wechat'; result: 'ok' | 'cancel' | 'fail' }
  /** mini-program with the sandbox provider: its three choices in an action sheet */
  | { kind: 'sandbox'; tradeNo: string }

export async function startPayment(options: {
  ref: OrderInfoQuery
  method: PayMethod
  runtime: 'applet' | 'h5'
  /** a code WeChat's authorisation just brought back to this page (H5 in WeChat's browser) */
  wxCode?: string
  /**
   * Where WeChat Pay needs the payer's code, as the server's config says; null when the config could
   * not be read: a code is got as before (the server ignores one it does not need).
   */
  codeScenes: readonly PayScene[] | null
}): Promise<PayStep> {
  const { ref, method } = options
  let wechat: Pick<CreatePaymentBody, 'scene' | 'wxCode'> = {}
  if (method === PayMethod.wechatPay) {
    const scene = wechatPayment.scene()
    const needsCode = !options.codeScenes || options.codeScenes.includes(scene)
    // back to this page with the order and the method; the code comes with it and is used once
    const code = options.wxCode
      ? { wxCode: options.wxCode }
      : needsCode
        ? await wechatPayment.payerCode(url('pay', { ...ref, payMethod: method }))
        : {}
    if (code === 'redirected') return { kind: 'left' }
    wechat = { scene, ...code }
  }
  const returnUrl = url('pay', { ...ref, paying: 1 })
  const outcome = await createPayment({ ...ref, payMethod: method, returnUrl, ...wechat })
  if (!outcome.ok) return { kind: 'refused', msg: outcome.msg }
  const { paid, checkoutUrl, tradeNo, wxPayParams } = outcome.data
  if (paid) return { kind: 'follow' }
  if (wxPayParams) {
    const result = await wechatPayment.pay(wxPayParams)
    return { kind: 'wechat', result: typeof result === 'string' ? result : 'fail' }
  }
  if (!checkoutUrl) return { kind: 'follow' }
  // the mini-program has no sandbox page to open: the same three choices in an action sheet
  if (options.runtime === 'applet') return { kind: 'sandbox', tradeNo }
  openCheckout(checkoutUrl)
  return { kind: 'left' }
}
