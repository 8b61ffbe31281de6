/**
 * WeChat Pay API v3 (pay.weixin.qq.com, 直连商户): JSAPI in the mini-program and the WeChat browser, H5
 * pay in other mobile browsers, signed notifications, query, close and refund.
 *
 * Written on node:crypto and fetch rather than an SDK: wechatpay-axios-plugin (0.9.6) brings axios and
 * wechatpay-node-v3 (2.2.1) superagent, both a second HTTP client beside Node 20's fetch, and neither
 * verifies a notification synchronously from the raw body and headers, which is what the port's
 * verifyNotification is. Both are devDependencies instead: the tests sign, verify and decrypt with them
 * beside ours (wechatpay-oracles.test.ts), and the fake WeChat Pay (server/test/helpers/fake-wechatpay.ts)
 * answers from the shapes of WeChat Pay's own Go SDK.
 *
 * The port's eight calls, each with WeChat's answers mapped to ours; the signing rules are apart in
 * protocol.ts, the signed call and the keys that verify it in client.ts (public key, platform
 * certificates, or both), the environment in credentials.ts.
 *
 * Nothing WeChat Pay says is acted on unverified where it could move money: a 2xx answer and every
 * notification must carry a valid signature; see call() for error answers.
 */
import type { Clock } from '../../../clock'
import {
  notifyUrl,
  PaymentProviderRefusal,
  PaymentSignatureError,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
  type PayScene,
  type RefundNotice,
  type RefundRequest,
  type RefundState,
  type TradeState,
} from '../payment-provider'
import type { WechatPayCredentials } from './credentials'
import { WechatPayClient } from './client'
import { beijingTime, decryptResource, payParams } from './protocol'

/** WeChat Pay's description field holds at most 127 characters; a refund reason at most 80. */
const DESCRIPTION_MAX = 127
const REASON_MAX = 80

/**
 * 4xx codes that are not WeChat Pay's last word: our signature or permissions (an operator fixes the
 * configuration), throttling, its own or a bank's trouble, the merchant balance short for a refund.
 * Asking again later can succeed, so they are ordinary errors; any other 4xx code is a refusal.
 */
const PASSING_CODES = new Set([
  'SIGN_ERROR',
  'NO_AUTH',
  'FREQUENCY_LIMITED',
  'SYSTEM_ERROR',
  'BANK_ERROR',
  'NOT_ENOUGH',
])

/**
 * "Not found" inside 申请退款 (POST /v3/refund/domestic/refunds, and the 查询订单 before it) is not a
 * refusal. WeChat Pay's 申请退款 document (pay.weixin.qq.com/doc/v3/merchant/4012556457, 退款申请)
 * says to send a failed refund again with the original out_refund_no, never a new one. Its answer for
 * an order it does not find is 404 RESOURCE_NOT_EXISTS 订单不存在, which merchants on WeChat's developer
 * community report for orders paid minutes before, gone on a resend with the same parameters
 * (developers.weixin.qq.com/community/develop/doc/0002cc91f60120266c050ea3265c00). We only refund trades
 * WeChat Pay already told us are paid, so "not found" (RESOURCE_NOT_EXISTS from the refund call,
 * ORDER_NOT_EXIST from the trade query) is its delay or our merchant misconfigured: passing, so the
 * refund is sent again every REFUND_RECHECK_MS and logged for an operator a week on, never given up.
 */
const NOT_FOUND_CODES = new Set(['RESOURCE_NOT_EXISTS', 'ORDER_NOT_EXIST'])

/** trade_state → our word; NOTPAY and USERPAYING are pending, REFUND (转入退款) was paid first. */
const TRADE_STATES: Record<string, TradeState['status']> = {
  SUCCESS: 'paid',
  REFUND: 'paid',
  NOTPAY: 'pending',
  USERPAYING: 'pending',
  CLOSED: 'closed',
  REVOKED: 'cancelled',
  PAYERROR: 'failed',
}

/** refund status → ours; ABNORMAL (the card refused it) needs an operator, so it is failed here. */
const REFUND_STATES: Record<string, RefundState['status']> = {
  SUCCESS: 'succeeded',
  PROCESSING: 'processing',
  CLOSED: 'failed',
  ABNORMAL: 'failed',
}

/** A WeChat Pay error answer: HTTP status and its business code. */
export class WechatPayError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
  ) {
    super(`WeChat Pay ${httpStatus} ${code}: ${message}`)
    this.name = 'WechatPayError'
  }
}

/**
 * A signed 4xx that will not change by asking again; `code` is WeChat Pay's business code. The message
 * is WeChat Pay's own (Chinese) with the code after it: the pay page shows a refused order as it is,
 * and a failed refund's record keeps the code for the operator.
 */
export class WechatPayRefusal extends PaymentProviderRefusal {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
  ) {
    super(`${message}（${code}）`)
    this.name = 'WechatPayRefusal'
  }
}

interface Transaction {
  out_trade_no?: unknown
  transaction_id?: unknown
  trade_state?: unknown
  success_time?: unknown
  mchid?: unknown
  amount?: { total?: unknown }
}

interface Refund {
  out_refund_no?: unknown
  out_trade_no?: unknown
  status?: unknown
  refund_status?: unknown
  mchid?: unknown
  amount?: { refund?: unknown }
}

const isFen = (value: unknown): value is number => Number.isInteger(value) && Number(value) >= 0

export class WechatPayProvider implements PaymentProvider {
  readonly name = 'wechatpay'
  readonly isSandbox = false
  /** WeChat Pay only (PayMethod 2). */
  readonly methods: readonly number[] = [2]
  /** 通知应答: HTTP 200 (or 204) is success; the body is recorded by WeChat Pay only. */
  readonly notifyReply = {
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({ code: 'SUCCESS', message: '成功' }),
  }

  readonly client: WechatPayClient

  constructor(
    private readonly credentials: WechatPayCredentials,
    private readonly clock: Clock,
  ) {
    this.client = new WechatPayClient(credentials, clock)
  }

  /**
   * One signed call (client.ts). Answers the verified JSON body (null for 204); throws
   * PaymentProviderRefusal for WeChat Pay's refusal, WechatPayError or a network error for anything
   * passing.
   *
   * A 2xx is believed only with WeChat Pay's signature. An error answer is WeChat Pay's word whether
   * signed or not: it signs no answer to a request it could not verify (签名验证: "如果验证商户的请求签名
   * 正确，微信支付会在应答的HTTP头部中包括应答签名"), and its SDKs verify only 2xx answers
   * (wechatpay-go core.CheckResponse, wechatpay-axios-plugin since 0.8.13), since a refusal moves no
   * money. Two exceptions: a signature that is there and does not verify is not WeChat Pay's, and
   * "not found" (NOT_FOUND_CODES), which reconciliation takes as "no trade", must be signed.
   */
  private async call<T>(
    method: 'GET' | 'POST',
    urlPath: string,
    payload?: object,
  ): Promise<T | null> {
    const answer = await this.client.send(method, urlPath, payload)
    const { status, text, signature } = answer
    const code = answer.code || 'UNKNOWN'
    // Throttling and WeChat Pay's own trouble are passing whatever they carry: no need to trust them.
    if (status === 429 || status >= 500) {
      throw new WechatPayError(status, code, 'passing, asked again later')
    }
    const untrusted =
      status < 300
        ? signature !== 'verified'
        : signature === 'invalid' || (signature === 'absent' && NOT_FOUND_CODES.has(code))
    if (untrusted) {
      throw new WechatPayError(status, 'UNVERIFIED_ANSWER', `answer not trusted: ${answer.why}`)
    }
    if (status >= 200 && status < 300) {
      return status === 204 || text === '' ? null : (JSON.parse(text) as T)
    }
    if (status === 401 || PASSING_CODES.has(code)) {
      throw new WechatPayError(status, code, answer.message)
    }
    throw new WechatPayRefusal(status, code, answer.message)
  }

  /** JSAPI (mini-program, WeChat's browser) pays as an openid; H5 pay in other browsers needs none. */
  needsPayerOpenId(_payMethod: number, scene: PayScene): boolean {
    return scene !== 'browser'
  }

  async createPayment(request: PaymentRequest): Promise<PaymentStart> {
    const { credentials } = this
    const common = {
      mchid: credentials.mchId,
      description: request.description.slice(0, DESCRIPTION_MAX),
      out_trade_no: request.tradeNo,
      time_expire: beijingTime(request.expiresAt),
      notify_url: notifyUrl(credentials.publicBaseUrl, this.name),
      amount: { total: request.amount, currency: 'CNY' },
    }
    if (request.scene === 'browser') {
      const answer = await this.call<{ h5_url?: unknown }>('POST', '/v3/pay/transactions/h5', {
        appid: credentials.officialAccountAppId,
        ...common,
        scene_info: { payer_client_ip: request.clientIp, h5_info: { type: 'Wap' } },
      })
      if (typeof answer?.h5_url !== 'string') throw new Error('WeChat Pay H5 answer has no h5_url')
      // After paying, WeChat sends the buyer back to our pay page, which follows the order.
      const back = `${credentials.publicBaseUrl}${request.returnUrl}`
      const joiner = answer.h5_url.includes('?') ? '&' : '?'
      return {
        checkoutUrl: `${answer.h5_url}${joiner}redirect_url=${encodeURIComponent(back)}`,
        wxPayParams: null,
      }
    }
    if (!request.openId) throw new PaymentProviderRefusal('微信支付需要付款人的 openid')
    const appId =
      request.scene === 'miniProgram'
        ? credentials.miniProgramAppId
        : credentials.officialAccountAppId
    const answer = await this.call<{ prepay_id?: unknown }>('POST', '/v3/pay/transactions/jsapi', {
      appid: appId,
      ...common,
      payer: { openid: request.openId },
    })
    if (typeof answer?.prepay_id !== 'string')
      throw new Error('WeChat Pay JSAPI answer has no prepay_id')
    return {
      checkoutUrl: null,
      wxPayParams: payParams(
        credentials.merchantPrivateKey,
        appId,
        answer.prepay_id,
        this.clock.now(),
      ),
    }
  }

  private tradeState(tradeNo: string, transaction: Transaction | null): TradeState {
    const status = TRADE_STATES[String(transaction?.trade_state)]
    const total = transaction?.amount?.total
    if (!transaction || transaction.out_trade_no !== tradeNo || !status || !isFen(total)) {
      throw new Error(`WeChat Pay answered an unexpected transaction for ${tradeNo}`)
    }
    const paid = status === 'paid'
    return {
      tradeNo,
      status,
      amount: total,
      providerTradeId:
        paid && typeof transaction.transaction_id === 'string' ? transaction.transaction_id : null,
      paidAt:
        paid && typeof transaction.success_time === 'string'
          ? new Date(transaction.success_time)
          : null,
    }
  }

  /**
   * 查询订单; PaymentProviderRefusal only for ORDER_NOT_EXIST (no record yet: reconciliation takes the
   * trade as never opened only past its time_expire; refund() takes it as passing).
   */
  async queryTrade(tradeNo: string): Promise<TradeState> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(tradeNo)}?mchid=${this.credentials.mchId}`
    try {
      return this.tradeState(tradeNo, await this.call<Transaction>('GET', path))
    } catch (error) {
      // Any other refusal of a query says nothing about the money: never let it read as "no trade".
      if (error instanceof WechatPayRefusal && error.code !== 'ORDER_NOT_EXIST') {
        throw new Error(`WeChat Pay refused the query of ${tradeNo}: ${error.message}`)
      }
      throw error
    }
  }

  /**
   * 关闭订单, then 查询订单: the state afterwards (paid when the money came first). 关闭订单 answers 204
   * for an out_trade_no it does not find, so only the query says whether there is a trade.
   */
  async closeTrade(tradeNo: string): Promise<TradeState> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(tradeNo)}/close`
    try {
      await this.call('POST', path, { mchid: this.credentials.mchId })
    } catch (error) {
      // A paid or already closed trade cannot be closed; the query says which.
      if (!(error instanceof PaymentProviderRefusal)) throw error
    }
    return this.queryTrade(tradeNo)
  }

  private refundState(refundNo: string, answer: Refund | null): RefundState {
    const status = REFUND_STATES[String(answer?.status)]
    const amount = answer?.amount?.refund
    if (
      !answer ||
      answer.out_refund_no !== refundNo ||
      !status ||
      !isFen(amount) ||
      typeof answer.out_trade_no !== 'string'
    ) {
      throw new Error(`WeChat Pay answered an unexpected refund for ${refundNo}`)
    }
    return { refundNo, tradeNo: answer.out_trade_no, status, amount }
  }

  /**
   * 申请退款. WeChat Pay wants the trade's total beside the refund, so the trade is asked for first
   * (one more call on a rare path, and the port needs nothing more). The same out_refund_no again
   * answers the same refund, never a second one. A trade not found is passing (NOT_FOUND_CODES);
   * any other signed 4xx refusal stays final.
   */
  async refund(request: RefundRequest): Promise<RefundState> {
    let answer: Refund | null
    try {
      const trade = await this.queryTrade(request.tradeNo)
      answer = await this.call<Refund>('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: request.tradeNo,
        out_refund_no: request.refundNo,
        reason: request.reason.slice(0, REASON_MAX),
        notify_url: notifyUrl(this.credentials.publicBaseUrl, this.name, 'refund'),
        amount: { refund: request.amount, total: trade.amount, currency: 'CNY' },
      })
    } catch (error) {
      if (error instanceof WechatPayRefusal && NOT_FOUND_CODES.has(error.code)) {
        throw new WechatPayError(
          error.httpStatus,
          error.code,
          `trade ${request.tradeNo} not found for refund ${request.refundNo} (${error.message}): sent again later; if it lasts, check WECHATPAY_MCHID`,
        )
      }
      throw error
    }
    return this.refundState(request.refundNo, answer)
  }

  /**
   * 查询单笔退款（通过商户退款单号）: the refund number alone finds it (the port's tradeNo is not needed). 404
   * RESOURCE_NOT_EXISTS is no refund under that number: null, and the refund is sent again with the
   * same out_refund_no (WeChat Pay: retry a failed refund with the original number, never a new one).
   * Any other refusal of a query says nothing about the money, so it is passing.
   */
  async queryRefund(refundNo: string, _tradeNo: string): Promise<RefundState | null> {
    const path = `/v3/refund/domestic/refunds/${encodeURIComponent(refundNo)}`
    let answer: Refund | null
    try {
      answer = await this.call<Refund>('GET', path)
    } catch (error) {
      if (!(error instanceof WechatPayRefusal)) throw error
      if (error.code === 'RESOURCE_NOT_EXISTS') return null
      throw new Error(`WeChat Pay refused the query of refund ${refundNo}: ${error.message}`)
    }
    return this.refundState(refundNo, answer)
  }

  /** Verified and decrypted, of our merchant: the resource, or PaymentSignatureError. */
  private notification(
    headers: Record<string, unknown>,
    rawBody: string,
    kind: 'TRANSACTION' | 'REFUND',
  ) {
    this.client.verifyNotification(headers, rawBody)
    const { eventType, resource } = decryptResource(this.credentials.apiV3Key, rawBody)
    if (!eventType.startsWith(`${kind}.`)) throw new PaymentSignatureError('通知类型不符')
    if (resource.mchid !== this.credentials.mchId) throw new PaymentSignatureError('商户号不符')
    return resource
  }

  /** 支付通知 (event TRANSACTION.SUCCESS; other final states mapped as a query would). */
  verifyNotification(headers: Record<string, unknown>, rawBody: string): PaymentNotice {
    const resource = this.notification(headers, rawBody, 'TRANSACTION') as Transaction &
      Record<string, unknown>
    const status = TRADE_STATES[String(resource.trade_state)]
    const total = resource.amount?.total
    if (
      typeof resource.out_trade_no !== 'string' ||
      !isFen(total) ||
      !status ||
      status === 'pending'
    ) {
      throw new PaymentSignatureError('通知字段不完整')
    }
    return { tradeNo: resource.out_trade_no, status, amount: total, payload: resource }
  }

  /** 退款结果通知 (REFUND.SUCCESS, REFUND.ABNORMAL, REFUND.CLOSED). */
  verifyRefundNotification(headers: Record<string, unknown>, rawBody: string): RefundNotice {
    const resource = this.notification(headers, rawBody, 'REFUND') as Refund &
      Record<string, unknown>
    const status = REFUND_STATES[String(resource.refund_status)]
    const amount = resource.amount?.refund
    if (
      typeof resource.out_refund_no !== 'string' ||
      typeof resource.out_trade_no !== 'string' ||
      !isFen(amount) ||
      (status !== 'succeeded' && status !== 'failed')
    ) {
      throw new PaymentSignatureError('通知字段不完整')
    }
    return {
      refundNo: resource.out_refund_no,
      tradeNo: resource.out_trade_no,
      status,
      amount,
      payload: resource,
    }
  }
}
