/**
 * A local Alipay open-platform gateway (OpenAPI 2.0, public-key mode) built from Alipay's published
 * protocol, for the Alipay adapter's tests. Requests are verified like the real gateway does: RSA2
 * (SHA256withRSA) over every parameter but `sign`, sorted, `key=value` joined by `&`, with the
 * application's public key; a bad one answers isv.invalid-signature. Answers are
 * `{"<method>_response":{…},"sign":"…"}`, signed over the inner JSON with the fake's own key (the
 * "Alipay public key" the adapter is given). The WAP checkout link opens the trade (WAIT_BUYER_PAY) as
 * Alipay does; a test then pays it, and the fake posts the signed form notification (RSA2 over every
 * field but sign and sign_type) to notify_url, asynchronously. Trades close when their time_expire
 * passes (by the test's clock), refunds move money synchronously and notify like Alipay (TRADE_SUCCESS
 * with refund_fee for a partial refund, TRADE_CLOSED for a full one).
 */
import { createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  beijingTime,
  fenToYuanText,
  parseBeijingTime,
  yuanTextToFen,
} from '../../src/adapters/payment/alipay/alipay-protocol'
import { assertAnswer, assertNotification, callOf, requestProblem } from './provider-models'

type TradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED'

export interface FakeAlipayTrade {
  outTradeNo: string
  tradeNo: string
  amount: number
  subject: string
  status: TradeStatus
  notifyUrl: string
  timeExpire: Date | null
  paidAt: Date | null
  refunded: number
  refunds: Map<string, { amount: number; at: Date }>
}

/** One notification as posted: its body and what our server answered. */
export interface FakeAlipayDelivery {
  url: string
  body: string
  status: number
  reply: string
}

export type Deliver = (
  url: string,
  body: string,
  contentType: string,
) => Promise<{ status: number; body: string }>

export interface FakeAlipayOptions {
  appId: string
  /** The application's public key (PEM): our requests' signatures are checked with it. */
  appPublicKey: string
  /** The clock trades expire by; default the wall clock. */
  now?: () => Date
  /** How notifications reach notify_url; default a real HTTP POST. */
  deliver?: Deliver
}

const NOTIFY_CONTENT_TYPE = 'application/x-www-form-urlencoded; charset=utf-8'

const httpDeliver: Deliver = async (url, body, contentType) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  })
  return { status: response.status, body: await response.text() }
}

/** Alipay's sign content: the fields sorted by name, `k=v` joined by `&`, empty values left out. */
export function signContent(fields: Record<string, string>, leaveOut: string[]): string {
  return Object.keys(fields)
    .filter((key) => !leaveOut.includes(key) && fields[key] !== '')
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('&')
}

export const rsa2Sign = (content: string, privateKey: string) =>
  createSign('RSA-SHA256').update(content, 'utf8').sign(privateKey, 'base64')

/** A fresh RSA2 key pair as PEM text (application keys in tests). */
export function rsaKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKeyPkcs1: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }
}

export class FakeAlipay {
  readonly trades = new Map<string, FakeAlipayTrade>()
  readonly deliveries: FakeAlipayDelivery[] = []
  /** Every OpenAPI call that passed the signature check, in order. */
  readonly calls: { method: string; biz: Record<string, unknown> }[] = []
  /** When set, paid, closed and refunded trades post no notification (a lost notification). */
  dropNotifications = false
  /**
   * When set, the next alipay.trade.refund answers 10000 with fund_change N but Alipay records no
   * refund (it never took it): its refund query then answers no refund data.
   */
  loseNextRefund = false
  /** How answers are signed: as Alipay does, not at all, or with a key that is not Alipay's. */
  answerSigning: 'signed' | 'unsigned' | 'forged' = 'signed'
  private readonly keys = rsaKeyPair()
  private readonly failures = new Map<string, string>()
  private readonly pending = new Set<Promise<void>>()
  private server!: Server
  private port = 0
  private sequence = 0

  private constructor(private readonly options: FakeAlipayOptions) {}

  static async start(options: FakeAlipayOptions): Promise<FakeAlipay> {
    const fake = new FakeAlipay(options)
    fake.server = createServer((request, response) => {
      fake.handle(request).then(
        ({ status, type, body }) => {
          response.writeHead(status, { 'content-type': type })
          response.end(body)
        },
        (error: Error) => {
          response.writeHead(500, { 'content-type': 'text/plain' })
          response.end(error.message)
        },
      )
    })
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve))
    fake.port = (fake.server.address() as AddressInfo).port
    return fake
  }

  get gateway() {
    return `http://127.0.0.1:${this.port}/gateway.do`
  }

  /** Alipay's public key as the merchant downloads it (the fake's own). */
  get alipayPublicKey() {
    return this.keys.publicKey
  }

  async close() {
    await this.settled()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  /** The next call of `method` answers this business failure (default ACQ.SYSTEM_ERROR). */
  failNext(method: string, subCode = 'ACQ.SYSTEM_ERROR') {
    this.failures.set(method, subCode)
  }

  /** Waits for every notification on its way. */
  async settled() {
    while (this.pending.size > 0) await Promise.all([...this.pending])
  }

  /** The buyer pays an opened trade; its notification follows asynchronously. */
  pay(outTradeNo: string) {
    const trade = this.trade(outTradeNo)
    if (!trade) throw new Error(`no trade ${outTradeNo}: the checkout link was never opened`)
    if (trade.status !== 'WAIT_BUYER_PAY') throw new Error(`trade ${outTradeNo} is ${trade.status}`)
    trade.status = 'TRADE_SUCCESS'
    trade.paidAt = this.now()
    this.notify(trade)
  }

  /** The form body Alipay would post for the trade now, with `extra` fields, signed. */
  notificationBody(trade: FakeAlipayTrade, extra: Record<string, string> = {}): string {
    const now = this.now()
    const fields: Record<string, string> = {
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(16).toString('hex'),
      notify_time: beijingTime(now),
      app_id: this.options.appId,
      auth_app_id: this.options.appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      trade_status: trade.status,
      total_amount: fenToYuanText(trade.amount),
      subject: trade.subject,
      gmt_create: beijingTime(now),
      ...(trade.paidAt
        ? {
            gmt_payment: beijingTime(trade.paidAt),
            receipt_amount: fenToYuanText(trade.amount),
            buyer_pay_amount: fenToYuanText(trade.amount),
            buyer_id: '2088102177846880',
            fund_bill_list: JSON.stringify([
              { amount: fenToYuanText(trade.amount), fundChannel: 'ALIPAYACCOUNT' },
            ]),
          }
        : {}),
      ...extra,
    }
    return this.signForm(fields)
  }

  /** The fields as a form body signed by `privateKey` (the fake's own key unless a test forges). */
  signForm(fields: Record<string, string>, privateKey = this.keys.privateKey): string {
    const sign = rsa2Sign(signContent(fields, ['sign', 'sign_type']), privateKey)
    return new URLSearchParams({ ...fields, sign }).toString()
  }

  /** Posts a notification body to the trade's notify_url again (a replay). */
  async redeliver(delivery: FakeAlipayDelivery) {
    return this.post(delivery.url, delivery.body)
  }

  trade(outTradeNo: string): FakeAlipayTrade | undefined {
    const trade = this.trades.get(outTradeNo)
    if (trade?.status === 'WAIT_BUYER_PAY' && trade.timeExpire && this.now() >= trade.timeExpire) {
      trade.status = 'TRADE_CLOSED'
      this.notify(trade)
    }
    return trade
  }

  private now() {
    return this.options.now?.() ?? new Date()
  }

  private notify(trade: FakeAlipayTrade, extra: Record<string, string> = {}) {
    if (this.dropNotifications) return
    const body = this.notificationBody(trade, extra)
    assertNotification('alipay', 'trade', Object.fromEntries(new URLSearchParams(body)))
    const sent: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.post(trade.notifyUrl, body))
      .then(() => undefined)
      .finally(() => this.pending.delete(sent))
    this.pending.add(sent)
  }

  private async post(url: string, body: string) {
    const reply = await (this.options.deliver ?? httpDeliver)(url, body, NOTIFY_CONTENT_TYPE)
    const delivery = { url, body, status: reply.status, reply: reply.body }
    this.deliveries.push(delivery)
    return delivery
  }

  private async handle(request: IncomingMessage) {
    const url = new URL(request.url ?? '/', this.gateway)
    if (url.pathname !== '/gateway.do')
      return { status: 404, type: 'text/plain', body: 'not found' }
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const params: Record<string, string> = Object.fromEntries(url.searchParams)
    for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
      params[key] = value
    }
    const method = params.method ?? ''
    const refusal = this.checkRequest(params)
    if (request.method === 'GET') return this.checkoutPage(params, refusal)
    if (refusal) return this.answer(method, refusal)
    let biz: Record<string, unknown>
    try {
      biz = JSON.parse(params.biz_content ?? '{}') as Record<string, unknown>
    } catch {
      return this.answer(method, invalid('isv.invalid-biz-content', 'biz_content 不是JSON'))
    }
    // Off Alipay's model: refused as the gateway refuses a malformed request.
    const found = callOf('alipay', '', method)
    const offModel =
      found && requestProblem('alipay', method, found[1], { body: params, bizContent: biz })
    if (offModel)
      return this.answer(method, business('ACQ.INVALID_PARAMETER', `参数无效（${offModel}）`))
    this.calls.push({ method, biz })
    const failure = this.failures.get(method)
    if (failure) {
      this.failures.delete(method)
      return this.answer(method, business(failure, '系统繁忙'))
    }
    switch (method) {
      case 'alipay.trade.query':
        return this.answer(method, this.query(String(biz.out_trade_no)))
      case 'alipay.trade.close':
        return this.answer(method, this.closeTrade(String(biz.out_trade_no)))
      case 'alipay.trade.refund':
        return this.answer(method, this.refund(biz))
      case 'alipay.trade.fastpay.refund.query':
        return this.answer(method, this.refundQuery(biz))
      default:
        return this.answer(method, invalid('isv.invalid-method', '不存在的方法名'))
    }
  }

  /** The gateway's own checks: a well-formed request from our app, signed with its key. */
  private checkRequest(params: Record<string, string>): Record<string, string> | null {
    if (params.app_id !== this.options.appId)
      return invalid('isv.invalid-app-id', '无效的AppID参数')
    if (params.sign_type !== 'RSA2') return invalid('isv.invalid-signature-type', '无效的签名类型')
    if (params.charset !== 'utf-8' || params.version !== '1.0') {
      return invalid('isv.invalid-charset', '字符集或版本不正确')
    }
    // timestamp: the request's time in Beijing time, judged by the wall clock (the test clock may be
    // anywhere), within a tolerance taken here as 10 minutes.
    const stamped = parseBeijingTime(params.timestamp)
    if (!stamped || Math.abs(stamped.getTime() - Date.now()) > 10 * 60_000) {
      return invalid('isv.invalid-timestamp', '非法的时间戳参数')
    }
    const signed =
      !!params.sign &&
      createVerify('RSA-SHA256')
        .update(signContent(params, ['sign']), 'utf8')
        .verify(this.options.appPublicKey, params.sign, 'base64')
    return signed ? null : invalid('isv.invalid-signature', '验签出错')
  }

  /** The WAP checkout link, opened by the buyer: opens the trade (or shows Alipay's error page). */
  private checkoutPage(params: Record<string, string>, refusal: Record<string, string> | null) {
    const page = (text: string) => ({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: `<p>${text}</p>`,
    })
    if (refusal) return page(`错误代码 ${refusal.sub_code}`)
    if (params.method !== 'alipay.trade.wap.pay') return page('错误代码 isv.invalid-method')
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>
    const found = callOf('alipay', '', params.method)
    if (
      found &&
      requestProblem('alipay', params.method, found[1], { body: params, bizContent: biz })
    ) {
      return page('错误代码 ACQ.INVALID_PARAMETER')
    }
    const amount = yuanTextToFen(biz.total_amount)
    if (biz.product_code !== 'QUICK_WAP_WAY' || amount === null || amount <= 0 || !biz.subject) {
      return page('错误代码 ACQ.INVALID_PARAMETER')
    }
    const existing = this.trade(biz.out_trade_no)
    if (existing) {
      if (existing.amount !== amount) return page('错误代码 ACQ.CONTEXT_INCONSISTENT')
    } else {
      const timeExpire = biz.time_expire ? parseBeijingTime(biz.time_expire) : null
      if (biz.time_expire && !timeExpire) return page('错误代码 ACQ.INVALID_PARAMETER')
      if (timeExpire && this.now() >= timeExpire) return page('错误代码 ACQ.TRADE_HAS_CLOSED')
      this.trades.set(biz.out_trade_no, {
        outTradeNo: biz.out_trade_no,
        tradeNo: `2026${String(++this.sequence).padStart(24, '0')}`,
        amount,
        subject: biz.subject,
        status: 'WAIT_BUYER_PAY',
        notifyUrl: params.notify_url,
        timeExpire,
        paidAt: null,
        refunded: 0,
        refunds: new Map(),
      })
    }
    return page(`支付宝 ${biz.subject} ¥${biz.total_amount}`)
  }

  private query(outTradeNo: string) {
    const trade = this.trade(outTradeNo)
    if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在')
    return success({
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      buyer_logon_id: '159****5620',
      trade_status: trade.status,
      total_amount: fenToYuanText(trade.amount),
      ...(trade.paidAt ? { send_pay_date: beijingTime(trade.paidAt) } : {}),
    })
  }

  private closeTrade(outTradeNo: string) {
    const trade = this.trade(outTradeNo)
    if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在')
    if (trade.status !== 'WAIT_BUYER_PAY')
      return business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法')
    trade.status = 'TRADE_CLOSED'
    this.notify(trade)
    return success({ trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo })
  }

  private refund(biz: Record<string, unknown>) {
    const trade = this.trade(String(biz.out_trade_no))
    if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在')
    const amount = yuanTextToFen(biz.refund_amount)
    const requestNo = String(biz.out_request_no ?? trade.outTradeNo)
    const answer = (fundChange: 'Y' | 'N') =>
      success({
        trade_no: trade.tradeNo,
        out_trade_no: trade.outTradeNo,
        buyer_logon_id: '159****5620',
        fund_change: fundChange,
        refund_fee: fenToYuanText(trade.refunded),
        gmt_refund_pay: beijingTime(this.now()),
      })
    const done = trade.refunds.get(requestNo)
    if (done) {
      if (done.amount !== amount) return business('ACQ.DISCORDANT_REPEAT_REQUEST', '请求信息不一致')
      return answer('N')
    }
    if (this.loseNextRefund) {
      this.loseNextRefund = false
      return answer('N')
    }
    if (trade.status !== 'TRADE_SUCCESS')
      return business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法')
    if (amount === null || amount <= 0 || trade.refunded + amount > trade.amount) {
      return business('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限')
    }
    const at = this.now()
    trade.refunds.set(requestNo, { amount, at })
    trade.refunded += amount
    if (trade.refunded === trade.amount) trade.status = 'TRADE_CLOSED'
    this.notify(trade, {
      refund_fee: fenToYuanText(trade.refunded),
      gmt_refund: beijingTime(at),
      out_biz_no: requestNo,
      ...(trade.status === 'TRADE_CLOSED' ? { gmt_close: beijingTime(at) } : {}),
    })
    return answer('Y')
  }

  private refundQuery(biz: Record<string, unknown>) {
    const trade = this.trade(String(biz.out_trade_no))
    if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在')
    const requestNo = String(biz.out_request_no)
    const done = trade.refunds.get(requestNo)
    // No refund under that number: Alipay answers 10000 with no refund data.
    if (!done) return success({ out_trade_no: trade.outTradeNo, trade_no: trade.tradeNo })
    return success({
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      out_request_no: requestNo,
      total_amount: fenToYuanText(trade.amount),
      refund_amount: fenToYuanText(done.amount),
      refund_status: 'REFUND_SUCCESS',
      gmt_refund_pay: beijingTime(done.at),
    })
  }

  /** `{"<method>_response":{…},"sign":"…"}`, signed over the inner JSON exactly as written. */
  private answer(method: string, content: Record<string, string>) {
    if (callOf('alipay', '', method)) {
      assertAnswer('alipay', method, content.code === '10000' ? '10000' : 'error', content)
    }
    const inner = JSON.stringify(content)
    const signer = this.answerSigning === 'forged' ? rsaKeyPair().privateKey : this.keys.privateKey
    const sign = rsa2Sign(inner, signer)
    const key = `${method.replaceAll('.', '_')}_response`
    const signed = this.answerSigning === 'unsigned' ? '' : `,"sign":"${sign}"`
    return {
      status: 200,
      type: 'application/json;charset=utf-8',
      body: `{"${key}":${inner}${signed}}`,
    }
  }
}

const success = (fields: Record<string, string>) => ({ code: '10000', msg: 'Success', ...fields })
const business = (subCode: string, subMsg: string) => ({
  code: '40004',
  msg: 'Business Failed',
  sub_code: subCode,
  sub_msg: subMsg,
})
const invalid = (subCode: string, subMsg: string) => ({
  code: '40002',
  msg: 'Invalid Arguments',
  sub_code: subCode,
  sub_msg: subMsg,
})
