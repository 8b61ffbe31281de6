import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common'

/**
 * 1 alipay, 2 wechatPay (through the payment provider), 3 cloud beans, 4 account balance (company
 * users; 1025 when short) — 3 and 4 are settled at once.
 */
export const PayMethodValue = Type.Integer({ minimum: 1, maximum: 4 })

/**
 * Where the buyer pays (adapters/payment/payment-provider.ts PayScene): the mini-program, an H5 page in
 * WeChat's browser, or any other browser.
 */
export const PayScene = Type.Union([
  Type.Literal('miniProgram'),
  Type.Literal('wechatBrowser'),
  Type.Literal('browser'),
])

/** WeChat JSAPI pay's signed parameters, for Taro.requestPayment or WeixinJSBridge. */
export const WxPayParams = Type.Object({
  appId: Type.String(),
  timeStamp: Type.String(),
  nonceStr: Type.String(),
  package: Type.String(),
  signType: Type.Literal('RSA'),
  paySign: Type.String(),
})
export type WxPayParams = Static<typeof WxPayParams>

export const CreatePaymentBody = Type.Object({
  /** The caller's own order … */
  orderNo: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  /** … or a big-user payment link's token (whoever holds it may pay; the phones go to them). */
  link: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  payMethod: PayMethodValue,
  /** An app path to come back to after the checkout page (relative only, e.g. /pages/pay/pay?orderNo=…). */
  returnUrl: Type.Optional(Type.String({ maxLength: 500 })),
  /** Where the buyer pays; absent: browser. */
  scene: Type.Optional(PayScene),
  /**
   * wechatPay in the miniProgram / wechatBrowser scene: a WeChat code the client just got (Taro.login()
   * in the mini-program, the snsapi_base OAuth code in WeChat's browser). The server exchanges it for
   * the payer's openid; an openid is never taken from a client. Missing or refused: 1004.
   */
  wxCode: Type.Optional(Type.String({ maxLength: 128 })),
})
export type CreatePaymentBody = Static<typeof CreatePaymentBody>

export const CreatePaymentResult = Type.Object({
  tradeNo: Type.String(),
  orderNo: Type.String(),
  payMethod: PayMethodValue,
  /** The provider's checkout page to open (alipay/wechatPay); null when already paid with beans. */
  checkoutUrl: Nullable(Type.String()),
  /** JSAPI parameters to pay with in the mini-program or WeChat's browser; null otherwise. */
  wxPayParams: Nullable(WxPayParams),
  paid: Type.Boolean(),
})
export type CreatePaymentResult = Static<typeof CreatePaymentResult>

export const BeanBalance = Type.Object({ balance: Type.Integer() })
export type BeanBalance = Static<typeof BeanBalance>

export const SandboxAction = Type.Union([
  Type.Literal('pay'),
  Type.Literal('cancel'),
  Type.Literal('fail'),
])
export type SandboxAction = Static<typeof SandboxAction>

export const SandboxCheckoutQuery = Type.Object({
  tradeNo: Type.String({ minLength: 1, maxLength: 64 }),
})

export const SandboxActBody = Type.Object({
  tradeNo: Type.String({ minLength: 1, maxLength: 64 }),
  action: SandboxAction,
})
export type SandboxActBody = Static<typeof SandboxActBody>

export const SandboxActResult = Type.Object({
  tradeNo: Type.String(),
  action: SandboxAction,
  returnUrl: Type.String(),
})
export type SandboxActResult = Static<typeof SandboxActResult>

/** What the sandbox provider posts to /pay/notify/sandbox, signed (HMAC-SHA256 of the raw body). */
export const SandboxNotification = Type.Object({
  tradeNo: Type.String({ minLength: 1, maxLength: 64 }),
  status: Type.Union([Type.Literal('paid'), Type.Literal('cancelled'), Type.Literal('failed')]),
  amount: Type.Integer(),
  ts: Type.Integer(),
  nonce: Type.String({ maxLength: 64 }),
})
export type SandboxNotification = Static<typeof SandboxNotification>
