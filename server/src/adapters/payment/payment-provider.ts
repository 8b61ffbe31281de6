/** What the provider is asked to collect. */
export interface PaymentRequest {
  tradeNo: string
  orderNo: string
  /** Fen. */
  amount: number
  /** 1 alipay, 2 wechatPay. */
  payMethod: number
  /** App path the buyer returns to after the checkout page. */
  returnUrl: string
}

export interface PaymentStart {
  /** A page of the provider the buyer opens to pay (H5); null when the client pays in-app. */
  checkoutUrl: string | null
  /** Parameters for Taro.requestPayment in the mini-program, when the provider issues them. */
  wxPayParams?: Record<string, string> | null
}

/** A verified notification: the provider's word on one trade. */
export interface PaymentNotice {
  tradeNo: string
  status: 'paid' | 'cancelled' | 'failed'
  amount: number
  payload: Record<string, unknown>
}

/** A notification we refuse; the callback answers with this HTTP status and changes nothing. */
export class PaymentNotificationError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
  ) {
    super(message)
    this.name = 'PaymentNotificationError'
  }
}

export class PaymentSignatureError extends PaymentNotificationError {
  constructor(message = '签名校验失败') {
    super(401, message)
    this.name = 'PaymentSignatureError'
  }
}

/**
 * A payment provider (docs/cloud-phones.md "Payment"). Notifications reach our callback route; the
 * provider verifies them (signature, shape) before anything is trusted.
 */
export interface PaymentProvider {
  readonly name: string
  readonly isSandbox: boolean
  createPayment(request: PaymentRequest): Promise<PaymentStart>
  /** The notice, or PaymentSignatureError when the body was not sent by the provider. */
  verifyNotification(headers: Record<string, unknown>, rawBody: string): PaymentNotice
}
