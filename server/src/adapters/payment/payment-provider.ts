/**
 * Where the buyer pays: inside the mini-program (WeChat JSAPI through Taro.requestPayment), an H5 page
 * inside WeChat's browser (JSAPI through WeixinJSBridge), or any other mobile browser (WeChat H5 pay's
 * h5_url, Alipay's WAP page).
 */
export type PayScene = 'miniProgram' | 'wechatBrowser' | 'browser'

/** The API's root path (plugins/errors.ts API_PREFIX; a test keeps the two equal). */
export const API_ROOT = '/vmcloud/api'

/**
 * Our callback for a provider's notifications (trade or refund), as the route is registered under the
 * API root. The only place the path is spelt: the routes, the sandbox's outbox and the notify URLs a
 * real provider is given (notifyUrl) all read it.
 */
export const notifyRoute = (providerName: string, kind: 'trade' | 'refund' = 'trade') =>
  `/pay/notify/${providerName}${kind === 'refund' ? '/refund' : ''}`

/** The callback's absolute path on our host. */
export const notifyPath = (providerName: string, kind: 'trade' | 'refund' = 'trade') =>
  `${API_ROOT}${notifyRoute(providerName, kind)}`

/** The callback's URL as a provider calls it: PUBLIC_BASE_URL (no trailing slash) + notifyPath. */
export const notifyUrl = (
  publicBaseUrl: string,
  providerName: string,
  kind: 'trade' | 'refund' = 'trade',
) => `${publicBaseUrl.replace(/\/+$/, '')}${notifyPath(providerName, kind)}`

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
  /** The order's pay window: the provider takes no money after it (WeChat's time_expire). */
  expiresAt: Date
  scene: PayScene
  /**
   * The payer's openid in the WeChat app the scene pays through (the mini-program's for miniProgram,
   * the official account's for wechatBrowser), exchanged by the server from a code; null otherwise.
   */
  openId: string | null
  /** The buyer's IP as the server sees it (WeChat H5 pay needs it). */
  clientIp: string
  /** What the buyer's bill shows, e.g. `云手机订单 ${orderNo}`. */
  description: string
}

/** The signed parameters of WeChat JSAPI pay (Taro.requestPayment, WeixinJSBridge getBrandWCPayRequest). */
export interface WxPayParams {
  appId: string
  timeStamp: string
  nonceStr: string
  /** `prepay_id=…`. */
  package: string
  signType: 'RSA'
  paySign: string
}

export interface PaymentStart {
  /** A page of the provider the buyer opens to pay (H5); null when the client pays in-app. */
  checkoutUrl: string | null
  /** JSAPI parameters (miniProgram and wechatBrowser scenes), when the provider issues them. */
  wxPayParams?: WxPayParams | null
}

/**
 * The provider's word on one trade, from a verified notification or a query. `closed`: closed at the
 * provider (by us, or its pay window passed), so no money can arrive for it any more.
 */
export interface PaymentNotice {
  tradeNo: string
  status: 'paid' | 'cancelled' | 'failed' | 'closed'
  amount: number
  payload: Record<string, unknown>
}

/** A trade as the provider's query answers it; `pending`: the buyer has not paid (yet). */
export interface TradeState {
  tradeNo: string
  status: PaymentNotice['status'] | 'pending'
  amount: number
  /** The provider's own id for the trade, once paid. */
  providerTradeId: string | null
  paidAt: Date | null
}

export interface RefundRequest {
  tradeNo: string
  /** Ours, unique: asking again with the same refundNo never refunds twice. */
  refundNo: string
  /** Fen. */
  amount: number
  reason: string
}

/** A refund as the provider answers it: accepted refunds end asynchronously (notification or query). */
export interface RefundState {
  refundNo: string
  tradeNo: string
  status: 'processing' | 'succeeded' | 'failed'
  amount: number
}

/** A verified refund notification: the provider's final word on one refund. */
export interface RefundNotice {
  refundNo: string
  tradeNo: string
  status: 'succeeded' | 'failed'
  amount: number
  payload: Record<string, unknown>
}

/**
 * The provider refused a request for good (unknown trade, more than was paid, a refundNo used for
 * another refund): asking again will not help. Any other error from a provider call is passing.
 */
export class PaymentProviderRefusal extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PaymentProviderRefusal'
  }
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

/** A handled notification's answer, in the provider's own words. */
export interface NotifyReply {
  contentType: string
  body: string
}

/**
 * A payment provider (docs/cloud-phones.md "Payment"). Notifications reach our callback routes; the
 * provider verifies them (signature, shape) before anything is trusted. A notification can be lost, so
 * reconciliation (jobs/reconcile-payments.ts) asks with queryTrade / queryRefund, as WeChat Pay and
 * Alipay both expect their merchants to.
 */
export interface PaymentProvider {
  /** Names its callback routes (notifyPath) and the trades it opened (payments.provider). */
  readonly name: string
  readonly isSandbox: boolean
  /** The PayMethod values it collects (1 alipay, 2 wechatPay). */
  readonly methods: readonly number[]
  /**
   * What the provider expects back for a notification we handled (Alipay: the text `success`; WeChat
   * Pay v3: 200 with `{"code":"SUCCESS"}`). null: our own envelope with the outcome (the sandbox, which
   * checks for 200 only, and whose tests read the outcome).
   */
  readonly notifyReply: NotifyReply | null
  /**
   * Whether a payment of this pay method in this scene needs the payer's openid (PaymentRequest.openId):
   * WeChat Pay's JSAPI inside WeChat does; H5 pay, Alipay and the sandbox do not. Only then does the
   * client get a WeChat code (in WeChat's browser, by leaving for its authorisation page) and the
   * server exchange it.
   */
  needsPayerOpenId(payMethod: number, scene: PayScene): boolean
  createPayment(request: PaymentRequest): Promise<PaymentStart>
  /**
   * The notice, or PaymentSignatureError when the body was not sent by the provider. null: a genuine
   * notification that asks nothing of us (Alipay's WAIT_BUYER_PAY, sent to merchants who subscribe to
   * it): the callback acknowledges it in the provider's words and writes nothing, so the provider stops
   * sending it.
   */
  verifyNotification(headers: Record<string, unknown>, rawBody: string): PaymentNotice | null
  /** Likewise for a refund notification. */
  verifyRefundNotification(headers: Record<string, unknown>, rawBody: string): RefundNotice
  /** PaymentProviderRefusal for a trade the provider does not know. */
  queryTrade(tradeNo: string): Promise<TradeState>
  /** Closes a pending trade so no money can arrive for it; answers the trade's state afterwards (paid when the money came first). */
  closeTrade(tradeNo: string): Promise<TradeState>
  /**
   * Asks for a refund; idempotent per refundNo (asking again never refunds twice: WeChat Pay's
   * out_refund_no, Alipay's out_request_no). PaymentProviderRefusal when refused for good.
   */
  refund(request: RefundRequest): Promise<RefundState>
  /**
   * The refund under refundNo of trade tradeNo (Alipay's refund query needs both). null: the provider
   * has no such refund — it never took the request (Alipay's query answers no refund data, WeChat Pay
   * RESOURCE_NOT_EXISTS) — and the providers' documented remedy is to send it again with the same
   * refundNo. Any other failure of the query is passing (thrown), never a refusal.
   */
  queryRefund(refundNo: string, tradeNo: string): Promise<RefundState | null>
}
