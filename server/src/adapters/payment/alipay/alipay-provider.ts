/**
 * Alipay through alipay-sdk (Ant Group's official Node SDK), OpenAPI 2.0 in public-key mode: WAP pay
 * (alipay.trade.wap.pay) for mobile browsers, its RSA2-signed asynchronous notifications, and trade
 * query, close, refund and refund query. Every request is signed with our application key; every answer
 * and notification is verified with Alipay's public key before it is believed.
 */
import { AlipaySdk, type AlipaySdkCommonResult } from 'alipay-sdk'
import { PayMethod } from '#domain/order-status'
import {
  notifyUrl,
  PaymentNotificationError,
  PaymentProviderRefusal,
  PaymentSignatureError,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
  type RefundNotice,
  type RefundRequest,
  type RefundState,
  type TradeState,
} from '../payment-provider'
import type { AlipayCredentials } from './alipay-credentials'
import {
  TRADE_STATUSES,
  beijingTime,
  fenToYuanText,
  isFinalRefusal,
  parseBeijingTime,
  yuanTextToFen,
} from './alipay-protocol'

/** Shown when the buyer picks Alipay inside WeChat, which does not open Alipay's pages. */
export const ALIPAY_IN_WECHAT_REFUSAL =
  '微信内无法使用支付宝，请选择微信支付，或在手机浏览器中打开后使用支付宝'

/**
 * Alipay refused for good. The message is Alipay's own (sub_msg) with the sub_code after it, as a failed
 * refund's record keeps it for the operator.
 */
export class AlipayRefusal extends PaymentProviderRefusal {
  constructor(
    readonly subCode: string,
    message: string,
  ) {
    super(`${message}（${subCode}）`)
    this.name = 'AlipayRefusal'
  }
}

/** A passing failure (ACQ.SYSTEM_ERROR, a gateway error, a bad answer): asking again may help. */
export class AlipayError extends Error {
  constructor(
    readonly method: string,
    readonly code: string,
    message: string,
  ) {
    super(`${method}: ${code} ${message}`)
    this.name = 'AlipayError'
  }
}

type Answer = AlipaySdkCommonResult

/** alipay-sdk as this adapter (and its go-live check) calls Alipay: RSA2, Alipay's own field names. */
export function alipaySdk(credentials: AlipayCredentials, timeoutMs = 10_000): AlipaySdk {
  return new AlipaySdk({
    appId: credentials.appId,
    privateKey: credentials.privateKey,
    keyType: 'PKCS8',
    alipayPublicKey: credentials.alipayPublicKey,
    gateway: credentials.gateway,
    signType: 'RSA2',
    timeout: timeoutMs,
    // keep Alipay's own field names (out_trade_no, sub_code), as its documents write them
    camelcase: false,
  })
}

/**
 * The request's `timestamp`, in Beijing time as Alipay's gateway and its Java SDK read it. alipay-sdk
 * stamps the process's local time, 8 hours off on a server running in UTC; a parameter given overrides it.
 */
export const requestTimestamp = () => beijingTime(new Date())

export class AlipayProvider implements PaymentProvider {
  readonly name = 'alipay'
  readonly isSandbox = false
  readonly methods: readonly number[] = [PayMethod.alipay]
  readonly notifyReply = { contentType: 'text/plain', body: 'success' }
  private readonly sdk: AlipaySdk

  constructor(
    private readonly credentials: AlipayCredentials,
    options: { timeoutMs?: number } = {},
  ) {
    this.sdk = alipaySdk(credentials, options.timeoutMs)
  }

  /**
   * The signed alipay.trade.wap.pay link the buyer opens. Alipay creates the trade only when the link is
   * opened; time_expire stops it taking money after the order's pay window. WeChat (mini-program and its
   * browser) does not open Alipay's pages, so there the buyer is told to pay with WeChat Pay instead.
   */
  needsPayerOpenId(): boolean {
    return false
  }

  async createPayment(request: PaymentRequest): Promise<PaymentStart> {
    if (request.scene !== 'browser') throw new PaymentProviderRefusal(ALIPAY_IN_WECHAT_REFUSAL)
    const back = `${this.credentials.publicBaseUrl}${request.returnUrl}`
    const checkoutUrl = this.sdk.pageExecute('alipay.trade.wap.pay', 'GET', {
      bizContent: {
        out_trade_no: request.tradeNo,
        total_amount: fenToYuanText(request.amount),
        subject: request.description.slice(0, 256),
        product_code: 'QUICK_WAP_WAY',
        time_expire: beijingTime(request.expiresAt),
        quit_url: back,
      },
      notifyUrl: notifyUrl(this.credentials.publicBaseUrl, this.name),
      returnUrl: back,
      timestamp: requestTimestamp(),
    })
    return { checkoutUrl, wxPayParams: null }
  }

  /**
   * A trade notification (a form post), verified before anything in it is used: RSA2 signature with
   * Alipay's public key over every field but sign and sign_type, then our app_id. Alipay sends
   * TRADE_SUCCESS, TRADE_FINISHED and TRADE_CLOSED for WAP pay (also after a refund: TRADE_SUCCESS for a
   * partial one, TRADE_CLOSED for a full one). WAIT_BUYER_PAY (sent only to merchants who subscribe to
   * it) is genuine but asks nothing: null, so the route answers `success` and Alipay stops resending it
   * (a refusal would have it retried for a day).
   */
  verifyNotification(_headers: Record<string, unknown>, rawBody: string): PaymentNotice | null {
    const fields = parseForm(rawBody)
    if (!fields?.sign) throw new PaymentSignatureError('缺少签名')
    if (fields.sign_type !== 'RSA2') throw new PaymentSignatureError('签名类型须为RSA2')
    let signed = false
    try {
      signed = this.sdk.checkNotifySignV2(fields)
    } catch {
      signed = false
    }
    if (!signed) throw new PaymentSignatureError()
    if (fields.app_id !== this.credentials.appId) {
      throw new PaymentSignatureError('通知不属于本应用')
    }
    const status = TRADE_STATUSES[fields.trade_status]
    const amount = yuanTextToFen(fields.total_amount)
    if (!fields.out_trade_no || !status || amount === null) {
      throw new PaymentNotificationError(400, '通知字段不完整')
    }
    if (status === 'pending') return null
    const { sign: _sign, ...payload } = fields
    return { tradeNo: fields.out_trade_no, status, amount, payload }
  }

  /**
   * Alipay sends no separate refund notification for WAP pay: a refund answers synchronously
   * (fund_change) and its trade notification (refund_fee, gmt_refund) reaches the trade's notify URL.
   * refund() and queryRefund() answer the final state, so nothing is posted here.
   */
  verifyRefundNotification(): RefundNotice {
    throw new PaymentNotificationError(404, '支付宝不发送单独的退款通知')
  }

  /** alipay.trade.query; PaymentProviderRefusal only when Alipay has no such trade (link never opened). */
  async queryTrade(tradeNo: string): Promise<TradeState> {
    let answer: Answer
    try {
      answer = await this.call('alipay.trade.query', { out_trade_no: tradeNo })
    } catch (error) {
      if (error instanceof AlipayRefusal && error.subCode !== 'ACQ.TRADE_NOT_EXIST') {
        // Any other refusal of a query says nothing about the trade: ask again later.
        throw new AlipayError('alipay.trade.query', error.subCode, error.message)
      }
      throw error
    }
    const status = TRADE_STATUSES[answer.trade_status as string]
    const amount = yuanTextToFen(answer.total_amount)
    if (answer.out_trade_no !== tradeNo || !status || amount === null) {
      throw new AlipayError(
        'alipay.trade.query',
        'UNEXPECTED',
        `answer for ${tradeNo} not understood`,
      )
    }
    return {
      tradeNo,
      status,
      amount,
      providerTradeId: status === 'paid' ? ((answer.trade_no as string) ?? null) : null,
      paidAt: status === 'paid' ? parseBeijingTime(answer.send_pay_date) : null,
    }
  }

  /**
   * alipay.trade.close, then the trade as Alipay holds it. A trade already paid cannot be closed
   * (ACQ.TRADE_STATUS_ERROR): the query answers it paid. A link never opened has no trade at Alipay
   * (ACQ.TRADE_NOT_EXIST, thrown as the refusal it is): nothing to close, but the link still opens a
   * trade until its time_expire, so reconciliation waits for that before taking it as over.
   */
  async closeTrade(tradeNo: string): Promise<TradeState> {
    try {
      await this.call('alipay.trade.close', { out_trade_no: tradeNo })
    } catch (error) {
      if (!(error instanceof AlipayRefusal) || error.subCode !== 'ACQ.TRADE_STATUS_ERROR') {
        throw error
      }
    }
    return this.queryTrade(tradeNo)
  }

  /**
   * alipay.trade.refund with out_request_no = refundNo, so asking again never refunds twice. Alipay
   * refunds synchronously: fund_change Y is the money moving now; N (this call moved nothing, e.g. a
   * repeat of a refund done before) is settled by the refund query. A query that finds nothing yet
   * leaves it processing: the next look asks again, and sends it again if Alipay still has nothing.
   */
  async refund(request: RefundRequest): Promise<RefundState> {
    const answer = await this.call('alipay.trade.refund', {
      out_trade_no: request.tradeNo,
      refund_amount: fenToYuanText(request.amount),
      out_request_no: request.refundNo,
      refund_reason: request.reason.slice(0, 256),
    })
    if (answer.fund_change === 'Y') {
      return { ...refundOf(request), status: 'succeeded' }
    }
    const state = await this.queryRefund(request.refundNo, request.tradeNo)
    return state ?? { ...refundOf(request), status: 'processing' }
  }

  /**
   * alipay.trade.fastpay.refund.query (Alipay asks for the trade beside out_request_no). Its 10000
   * says only that the query ran: refund data (REFUND_SUCCESS) is the refund done; no refund data is
   * no refund, and Alipay's documented remedy is to call alipay.trade.refund again with the same
   * out_request_no and amount: null. A trade Alipay does not know has no refund either; any other
   * refusal of the query says nothing about the refund, so it is passing.
   */
  async queryRefund(refundNo: string, tradeNo: string): Promise<RefundState | null> {
    let answer: Answer
    try {
      answer = await this.call('alipay.trade.fastpay.refund.query', {
        out_trade_no: tradeNo,
        out_request_no: refundNo,
      })
    } catch (error) {
      if (!(error instanceof AlipayRefusal)) throw error
      if (error.subCode === 'ACQ.TRADE_NOT_EXIST') return null
      throw new AlipayError('alipay.trade.fastpay.refund.query', error.subCode, error.message)
    }
    const amount = yuanTextToFen(answer.refund_amount)
    if (answer.refund_status !== 'REFUND_SUCCESS' || amount === null) return null
    return { refundNo, tradeNo, status: 'succeeded', amount }
  }

  /**
   * One OpenAPI call whose answer's signature the SDK verifies (validateSign). 10000 answers; a final
   * business refusal throws AlipayRefusal; anything else (ACQ.SYSTEM_ERROR, gateway errors, an answer
   * that fails verification, network errors and timeouts) throws an ordinary error: passing.
   */
  private async call(method: string, bizContent: Record<string, unknown>): Promise<Answer> {
    const answer = await this.sdk.exec(
      method,
      { bizContent, timestamp: requestTimestamp() },
      { validateSign: true },
    )
    if (answer.code === '10000') return answer
    const message = `${answer.sub_msg ?? answer.msg ?? ''}`.slice(0, 200)
    if (isFinalRefusal(answer.code, answer.sub_code)) {
      throw new AlipayRefusal(answer.sub_code!, message)
    }
    throw new AlipayError(method, answer.sub_code ?? answer.code, message)
  }
}

const refundOf = (request: RefundRequest) => ({
  refundNo: request.refundNo,
  tradeNo: request.tradeNo,
  amount: request.amount,
})

/** A form-encoded body as fields; null when a field repeats (Alipay never sends one twice). */
function parseForm(rawBody: string): Record<string, string> | null {
  const fields: Record<string, string> = {}
  for (const [key, value] of new URLSearchParams(rawBody)) {
    if (Object.hasOwn(fields, key)) return null
    fields[key] = value
  }
  return fields
}
