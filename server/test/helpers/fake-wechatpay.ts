/**
 * A local WeChat Pay (API v3, 直连商户), written from its published merchant documents and not from our
 * adapter: it checks every request's Authorization (WECHATPAY2-SHA256-RSA2048 over
 * `METHOD\nURL\ntimestamp\nnonce\nbody\n`) with the merchant public key and answers 401 SIGN_ERROR
 * otherwise, unsigned (签名验证: WeChat Pay signs its answer only when the merchant's request signature
 * verified); signs every other answer (Wechatpay-Signature over `timestamp\nnonce\nbody\n`) with the
 * WeChat Pay public key (Wechatpay-Serial = its PUB_KEY_ID_…), a platform certificate (Wechatpay-Serial =
 * the certificate's serial, listed by 下载平台证书 GET /v3/certificates, each certificate AES-256-GCM
 * encrypted under the APIv3 key), or either in turn, as during WeChat Pay's switchover; keeps trades and refunds;
 * and POSTs notifications to their notify_url later, signed, with the resource AES-256-GCM encrypted
 * under the APIv3 key. Test handles make the buyer pay, drop notifications, fail requests, lose or
 * refuse a refund, and answer "not found" for a trade it has (its delay right after payment).
 */
import { execFileSync } from 'node:child_process'
import {
  createCipheriv,
  createPrivateKey,
  createSign,
  createVerify,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
  type KeyObject,
} from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { assertAnswer, assertNotification, callOf, requestProblem } from './provider-models'

export interface FakeWechatPayOptions {
  mchId: string
  merchantSerialNo: string
  merchantPublicKey: KeyObject
  /** 32 bytes. */
  apiV3Key: string
  /** The fake's clock (the test's): timestamps, pay windows. */
  now: () => Date
  /** How long after the buyer pays, or a refund is asked for, the notification is sent. */
  delayMs?: number
  /**
   * What WeChat Pay signs with: the public key (default), platform certificates, or `both`, in turn
   * (the switchover, when a merchant has both and either may sign).
   */
  signing?: 'publicKey' | 'certificate' | 'both'
}

/** A platform certificate (X.509, made by openssl) and its private key. */
export interface FakeCertificate {
  serialNo: string
  certificate: string
  privateKey: KeyObject
  effectiveTime: Date
  expireTime: Date
}

/**
 * A self-signed platform certificate valid from now for `days`, with a random 40-hex serial (as
 * WeChat Pay's are), made by the openssl command line (Node cannot issue an X.509 certificate).
 */
export function issueCertificate(days = 1825): FakeCertificate {
  const serial = randomBytes(20)
  serial[0] = (serial[0] & 0x7f) | 0x10 // positive, and 40 hex digits without a leading zero
  const serialNo = serial.toString('hex').toUpperCase()
  const pem = execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', '-', '-out', '-'].concat(
      ['-subj', '/C=CN/O=Tenpay.com/CN=Tenpay.com Root CA', '-days', String(days)],
      ['-set_serial', `0x${serialNo}`],
    ),
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  )
  const block = (name: string) =>
    new RegExp(`-----BEGIN ${name}-----[^-]+-----END ${name}-----`).exec(pem)![0]
  const now = Date.now()
  return {
    serialNo,
    certificate: `${block('CERTIFICATE')}\n`,
    privateKey: createPrivateKey(block('PRIVATE KEY')),
    effectiveTime: new Date(now),
    expireTime: new Date(now + days * 86_400_000),
  }
}

/** Sends a notification; answers the HTTP status (default: a real POST with fetch). */
export type Deliver = (
  url: string,
  headers: Record<string, string>,
  body: string,
) => Promise<number>

export interface FakeTrade {
  appid: string
  mchid: string
  description: string
  out_trade_no: string
  transaction_id: string
  trade_type: 'JSAPI' | 'MWEB'
  trade_state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND' | 'REVOKED' | 'PAYERROR' | 'USERPAYING'
  notify_url: string
  time_expire: Date
  total: number
  refunded: number
  payer_openid: string | null
  payer_client_ip: string | null
  prepay_id: string
  success_time: string | null
  /** The order body as received, for a repeat with the same out_trade_no. */
  request: string
}

export interface FakeRefund {
  out_refund_no: string
  out_trade_no: string
  refund_id: string
  transaction_id: string
  status: 'PROCESSING' | 'SUCCESS' | 'CLOSED' | 'ABNORMAL'
  refund: number
  total: number
  reason: string
  notify_url: string | null
  create_time: string
  success_time: string | null
}

export interface Delivery {
  url: string
  headers: Record<string, string>
  body: string
  status: number | 'dropped' | 'error'
  /** What was notified, so a retry can send it again freshly signed. */
  event?: { eventType: string; originalType: string; resource: object }
  /** Sent again by resendFailed. */
  resent?: boolean
}

const ok = (status: number, body: unknown) => ({ status, body })
const fail = (status: number, code: string, message: string) => ({
  status,
  body: { code, message },
})

const OUT_NO = /^[0-9A-Za-z_\-|*]{6,32}$/
const OUT_REFUND_NO = /^[0-9A-Za-z_\-|*@]{1,64}$/
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-]\d\d:\d\d)$/

/** RFC 3339 in Beijing time, as WeChat Pay writes its times. */
function beijing(at: Date) {
  return `${new Date(Math.floor(at.getTime() / 1000) * 1000 + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`
}

export class FakeWechatPay {
  /** The WeChat Pay key pair: tests give the public half to the adapter as WECHATPAY_PUBLIC_KEY_FILE. */
  readonly platformKeys = generateKeyPairSync('rsa', { modulusLength: 2048 })
  readonly publicKeyId = `PUB_KEY_ID_0${randomBytes(12).toString('hex').toUpperCase()}`
  readonly trades = new Map<string, FakeTrade>()
  readonly refunds = new Map<string, FakeRefund>()
  /** Every request: method, path and whether its signature passed. */
  readonly requests: { method: string; path: string; signed: boolean; status: number }[] = []
  /** Every notification sent (or dropped), in order. */
  readonly deliveries: Delivery[] = []
  /** True: notifications are dropped (as if our server were unreachable for all of WeChat's retries). */
  dropNotifications = false
  /** Where notifications go. */
  deliver: Deliver = async (url, headers, body) => {
    const response = await fetch(url, { method: 'POST', headers, body })
    await response.text()
    return response.status
  }
  /** When set, answers are signed with this key instead of WeChat Pay's (a forger in the middle). */
  answerKey: KeyObject | null = null
  /** False: error answers (4xx) come unsigned, as WeChat Pay's SDKs allow them to. */
  signErrors = true
  /** False: no answer is signed (a proxy that strips WeChat Pay's headers). */
  signAnswers = true
  /** The platform certificates 下载平台证书 lists; the last one signs. Empty in public-key mode. */
  readonly certificates: FakeCertificate[] = []
  private signedCount = 0
  /**
   * How the next new refund request goes wrong: `unrecorded` answers 200 PROCESSING but WeChat Pay
   * keeps nothing (its query then answers 404 RESOURCE_NOT_EXISTS); `answerLost` records the refund
   * but its answer never arrives (500, as a timeout would be to the merchant).
   */
  loseNextRefund: 'unrecorded' | 'answerLost' | null = null
  /** The next new refund request is refused for good with this signed 4xx (e.g. 403 USER_ACCOUNT_ABNORMAL). */
  refuseNextRefund: { status: number; code: string; message: string } | null = null

  private server: http.Server | null = null
  private failures: { status: 500 | 429; count: number }[] = []
  private notFound = { query: 0, refund: 0, close: 0 }
  private readonly pending = new Set<Promise<void>>()
  private readonly delayMs: number

  constructor(private readonly options: FakeWechatPayOptions) {
    this.delayMs = options.delayMs ?? 10
    if ((options.signing ?? 'publicKey') !== 'publicKey') this.certificates.push(issueCertificate())
  }

  /** 平台证书轮换: a new certificate is listed beside the old ones and signs from now on. */
  rotateCertificate(days?: number) {
    const certificate = issueCertificate(days)
    this.certificates.push(certificate)
    return certificate
  }

  /** The key and serial the next answer or notification is signed with (in turn, in `both`). */
  private signer(): { key: KeyObject; serial: string } {
    const signing = this.options.signing ?? 'publicKey'
    const byCertificate =
      signing === 'certificate' || (signing === 'both' && this.signedCount++ % 2 === 1)
    const current = this.certificates.at(-1)
    if (byCertificate && current) return { key: current.privateKey, serial: current.serialNo }
    return { key: this.platformKeys.privateKey, serial: this.publicKeyId }
  }

  get baseUrl() {
    const address = this.server?.address() as AddressInfo | null
    if (!address) throw new Error('fake WeChat Pay not started')
    return `http://127.0.0.1:${address.port}`
  }

  async start() {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const answer = this.handle(
          request.method ?? 'GET',
          request.url ?? '/',
          request.headers,
          body,
        )
        const text = answer.status === 204 ? '' : JSON.stringify(answer.body)
        const signed = answer.signed && this.signAnswers && (answer.status < 400 || this.signErrors)
        const headers: Record<string, string> = signed
          ? this.signedHeaders(text, this.answerKey)
          : {}
        if (text) headers['Content-Type'] = 'application/json; charset=utf-8'
        response.writeHead(answer.status, headers).end(text)
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    return this
  }

  async close() {
    await this.settled()
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    )
  }

  /** The next `count` requests answer `status` (500 SYSTEM_ERROR or 429 FREQUENCY_LIMITED), unsigned. */
  failNext(status: 500 | 429, count = 1) {
    this.failures.push({ status, count })
  }

  /** Drops the failures failNext and notFoundNext queued and not yet used. */
  clearFailures() {
    this.failures = []
    this.notFound = { query: 0, refund: 0, close: 0 }
  }

  /**
   * The next `count` trade queries (`query`: 404 ORDER_NOT_EXIST), refund requests (`refund`: 404
   * RESOURCE_NOT_EXISTS 订单不存在) or closes (`close`: 204, as for any out_trade_no it does not find)
   * do not find a trade WeChat Pay has: the delay its documents warn of right after payment. Signed,
   * as WeChat Pay's answers are; nothing is recorded, so the trade stays payable until its time_expire.
   */
  notFoundNext(call: 'query' | 'refund' | 'close', count = 1) {
    this.notFound[call] += count
  }

  private lagging(call: 'query' | 'refund' | 'close') {
    if (this.notFound[call] === 0) return false
    this.notFound[call]--
    return true
  }

  /** Resolves once every scheduled notification and refund has been sent. */
  async settled() {
    while (this.pending.size > 0) await Promise.all([...this.pending])
  }

  /** The buyer pays in WeChat: the trade succeeds now, its notification follows `delayMs` later. */
  pay(outTradeNo: string) {
    const trade = this.trade(outTradeNo)
    if (!trade || trade.trade_state !== 'NOTPAY') {
      throw new Error(`cannot pay ${outTradeNo}: ${trade?.trade_state ?? 'unknown'}`)
    }
    trade.trade_state = 'SUCCESS'
    trade.success_time = beijing(this.options.now())
    this.later(() =>
      this.notify(trade.notify_url, 'TRANSACTION.SUCCESS', 'transaction', this.transaction(trade)),
    )
  }

  /** The trade, its pay window applied (an unpaid trade past time_expire is closed). */
  trade(outTradeNo: string): FakeTrade | undefined {
    const trade = this.trades.get(outTradeNo)
    if (trade?.trade_state === 'NOTPAY' && this.options.now() >= trade.time_expire) {
      trade.trade_state = 'CLOSED'
    }
    return trade
  }

  /** 支付成功结果通知's decrypted resource for a trade. */
  transaction(trade: FakeTrade) {
    return {
      appid: trade.appid,
      mchid: trade.mchid,
      out_trade_no: trade.out_trade_no,
      transaction_id: trade.trade_state === 'NOTPAY' ? undefined : trade.transaction_id,
      trade_type: trade.trade_type,
      trade_state: trade.trade_state,
      trade_state_desc: trade.trade_state === 'SUCCESS' ? '支付成功' : trade.trade_state,
      bank_type: 'OTHERS',
      attach: '',
      success_time: trade.success_time ?? undefined,
      payer: trade.payer_openid ? { openid: trade.payer_openid } : undefined,
      amount: {
        total: trade.total,
        payer_total: trade.total,
        currency: 'CNY',
        payer_currency: 'CNY',
      },
    }
  }

  private refundResource(refund: FakeRefund) {
    return {
      refund_id: refund.refund_id,
      out_refund_no: refund.out_refund_no,
      transaction_id: refund.transaction_id,
      out_trade_no: refund.out_trade_no,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      success_time: refund.success_time ?? undefined,
      create_time: refund.create_time,
      status: refund.status,
      funds_account: 'AVAILABLE',
      amount: {
        total: refund.total,
        refund: refund.refund,
        payer_total: refund.total,
        payer_refund: refund.refund,
        settlement_refund: refund.refund,
        settlement_total: refund.total,
        discount_refund: 0,
        currency: 'CNY',
      },
    }
  }

  /** The HTTP headers WeChat Pay signs an answer or a notification with. */
  signedHeaders(
    body: string,
    key: KeyObject | null = null,
    overrides: { timestamp?: number; serial?: string } = {},
  ): Record<string, string> {
    const timestamp = String(overrides.timestamp ?? Math.floor(this.options.now().getTime() / 1000))
    const nonce = randomBytes(16).toString('hex')
    const signer = this.signer()
    const signature = createSign('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .sign(key ?? signer.key, 'base64')
    return {
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature': signature,
      'Wechatpay-Serial': overrides.serial ?? signer.serial,
      'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
      'Request-ID': randomUUID(),
    }
  }

  /** A notification body: the resource encrypted with AEAD_AES_256_GCM under the APIv3 key. */
  notificationBody(
    eventType: string,
    originalType: string,
    resource: object,
    apiV3Key = this.options.apiV3Key,
  ) {
    const associatedData = originalType
    const { nonce, ciphertext } = this.seal(JSON.stringify(resource), associatedData, apiV3Key)
    return JSON.stringify({
      id: randomUUID(),
      create_time: beijing(this.options.now()),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary: eventType.startsWith('REFUND') ? '退款状态' : '支付成功',
      resource: {
        original_type: originalType,
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext,
        associated_data: associatedData,
        nonce,
      },
    })
  }

  /** Builds, signs and sends one notification (or records it dropped). */
  async notify(url: string, eventType: string, originalType: string, resource: object) {
    const body = this.notificationBody(eventType, originalType, resource)
    const kind = eventType.startsWith('REFUND.') ? 'refund' : 'transaction'
    assertNotification('wechatpay', kind, JSON.parse(body), resource)
    const headers = { ...this.signedHeaders(body), 'Content-Type': 'application/json' }
    const event = { eventType, originalType, resource }
    const delivery: Delivery = { url, headers, body, status: 'dropped', event }
    this.deliveries.push(delivery)
    if (this.dropNotifications) return
    try {
      delivery.status = await this.deliver(url, headers, body)
    } catch {
      delivery.status = 'error'
    }
  }

  /**
   * WeChat Pay's retry schedule (15s, 15s, 30s, 3m, … up to 24h): every notification not answered 200 or
   * 204 is sent again, signed anew with the current time (the same event and resource).
   */
  async resendFailed() {
    for (const delivery of [...this.deliveries]) {
      if (
        delivery.resent ||
        delivery.status === 200 ||
        delivery.status === 204 ||
        !delivery.event
      ) {
        continue
      }
      delivery.resent = true
      const { eventType, originalType, resource } = delivery.event
      await this.notify(delivery.url, eventType, originalType, resource)
    }
  }

  private later(send: () => Promise<void>) {
    const sending = new Promise<void>((resolve) => setTimeout(resolve, this.delayMs))
      .then(send)
      .finally(() => this.pending.delete(sending))
    this.pending.add(sending)
  }

  /** 签名验证 of our request (the merchant's Authorization); the reason it fails, or null. */
  private authorizationProblem(
    method: string,
    url: string,
    header: string | undefined,
    body: string,
  ) {
    const scheme = 'WECHATPAY2-SHA256-RSA2048 '
    if (!header?.startsWith(scheme)) return 'no WECHATPAY2-SHA256-RSA2048 Authorization'
    const fields = new Map<string, string>()
    for (const part of header.slice(scheme.length).split(',')) {
      const match = /^\s*(\w+)="([^"]*)"\s*$/.exec(part)
      if (match) fields.set(match[1], match[2])
    }
    const [mchid, nonce, signature, timestamp, serial] = [
      'mchid',
      'nonce_str',
      'signature',
      'timestamp',
      'serial_no',
    ].map((name) => fields.get(name))
    if (!mchid || !nonce || !signature || !timestamp || !serial) return 'Authorization incomplete'
    if (mchid !== this.options.mchId) return 'mchid does not match'
    if (serial !== this.options.merchantSerialNo) return 'serial_no does not match'
    if (Math.abs(Number(timestamp) * 1000 - this.options.now().getTime()) > 5 * 60_000) {
      return 'timestamp outside 5 minutes'
    }
    const verified = createVerify('RSA-SHA256')
      .update(`${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`)
      .verify(this.options.merchantPublicKey, signature, 'base64')
    return verified ? null : 'signature does not verify'
  }

  /** One request, answered and its answer held against WeChat Pay's model (provider-models.ts). */
  private handle(
    method: string,
    url: string,
    headers: http.IncomingHttpHeaders,
    body: string,
  ): { status: number; body: unknown; signed: boolean } {
    const answer = this.answer(method, url, headers, body)
    const found = callOf('wechatpay', method, url.split('?')[0])
    if (found) assertAnswer('wechatpay', found[0], String(answer.status), answer.body)
    return answer
  }

  private answer(
    method: string,
    url: string,
    headers: http.IncomingHttpHeaders,
    body: string,
  ): { status: number; body: unknown; signed: boolean } {
    const path = url.split('?')[0]
    const log = { method, path, signed: false, status: 0 }
    this.requests.push(log)
    const failure = this.failures[0]
    if (failure) {
      if (--failure.count <= 0) this.failures.shift()
      log.status = failure.status
      return failure.status === 429
        ? { ...fail(429, 'FREQUENCY_LIMITED', '频率超限'), signed: false }
        : { ...fail(500, 'SYSTEM_ERROR', '系统异常，请稍后重试'), signed: false }
    }
    const problem = this.authorizationProblem(method, url, headers.authorization, body)
    if (problem) {
      log.status = 401
      return { ...fail(401, 'SIGN_ERROR', `签名错误（${problem}）`), signed: false }
    }
    log.signed = true
    let json: Record<string, unknown> = {}
    if (body) {
      try {
        json = JSON.parse(body) as Record<string, unknown>
      } catch {
        return { ...fail(400, 'PARAM_ERROR', '请求体不是JSON'), signed: true }
      }
    }
    // A request off WeChat Pay's model is refused as WeChat Pay refuses one: 400 PARAM_ERROR.
    const found = callOf('wechatpay', method, path)
    const query = Object.fromEntries(new URLSearchParams(url.split('?')[1] ?? ''))
    const offModel = found && requestProblem('wechatpay', found[0], found[1], { body: json, query })
    if (offModel) {
      log.status = 400
      return { ...fail(400, 'PARAM_ERROR', `参数错误（${offModel}）`), signed: true }
    }
    const answer = this.route(method, url, json, body)
    log.status = answer.status
    return { ...answer, signed: true }
  }

  private route(method: string, url: string, json: Record<string, unknown>, raw: string) {
    const [path, query = ''] = url.split('?')
    const params = new URLSearchParams(query)
    let match: RegExpExecArray | null
    if (
      method === 'POST' &&
      (path === '/v3/pay/transactions/jsapi' || path === '/v3/pay/transactions/h5')
    ) {
      return this.order(path.endsWith('jsapi') ? 'JSAPI' : 'MWEB', json, raw)
    }
    if (
      method === 'GET' &&
      (match = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(path))
    ) {
      if (params.get('mchid') !== this.options.mchId)
        return fail(400, 'PARAM_ERROR', 'mchid 不正确')
      const trade = this.trade(decodeURIComponent(match[1]))
      if (!trade || this.lagging('query')) return fail(404, 'ORDER_NOT_EXIST', '订单不存在')
      return ok(200, this.transaction(trade))
    }
    if (
      method === 'POST' &&
      (match = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path))
    ) {
      if (json.mchid !== this.options.mchId) return fail(400, 'PARAM_ERROR', 'mchid 不正确')
      const trade = this.trade(decodeURIComponent(match[1]))
      // 关闭订单 answers 204 for an out_trade_no it does not know, without a word (merchants report it
      // for numbers never ordered: developers.weixin.qq.com/community/pay/doc/00048a1efdc23011142d839d351800),
      // so a close proves nothing about a trade WeChat Pay has not recorded yet.
      if (!trade || this.lagging('close')) return ok(204, null)
      if (trade.trade_state === 'SUCCESS' || trade.trade_state === 'REFUND') {
        return fail(400, 'ORDERPAID', '订单已支付')
      }
      if (trade.trade_state === 'NOTPAY' || trade.trade_state === 'USERPAYING')
        trade.trade_state = 'CLOSED'
      return ok(204, null)
    }
    if (method === 'GET' && path === '/v3/certificates') return ok(200, this.certificateList())
    if (method === 'POST' && path === '/v3/refund/domestic/refunds') return this.refund(json)
    if (method === 'GET' && (match = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(path))) {
      const refundNo = decodeURIComponent(match[1])
      if (!OUT_REFUND_NO.test(refundNo)) return fail(400, 'PARAM_ERROR', 'out_refund_no 不正确')
      const refund = this.refunds.get(refundNo)
      if (!refund) return fail(404, 'RESOURCE_NOT_EXISTS', '退款单不存在')
      return ok(200, this.refundResource(refund))
    }
    return fail(404, 'NOT_FOUND', '接口不存在')
  }

  /** 下载平台证书's answer: every certificate still valid, encrypted under the APIv3 key. */
  private certificateList() {
    const now = this.options.now()
    return {
      data: this.certificates
        .filter((certificate) => certificate.expireTime > now)
        .map((certificate) => ({
          serial_no: certificate.serialNo,
          effective_time: beijing(certificate.effectiveTime),
          expire_time: beijing(certificate.expireTime),
          encrypt_certificate: {
            algorithm: 'AEAD_AES_256_GCM',
            associated_data: 'certificate',
            ...this.seal(certificate.certificate, 'certificate'),
          },
        })),
    }
  }

  /** AEAD_AES_256_GCM under the APIv3 key: a 12-character nonce (the IV) and the base64 ciphertext+tag. */
  private seal(plain: string, associatedData: string, apiV3Key = this.options.apiV3Key) {
    const nonce = randomBytes(6).toString('hex')
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce))
    cipher.setAAD(Buffer.from(associatedData))
    const sealed = Buffer.concat([
      cipher.update(plain, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ])
    return { nonce, ciphertext: sealed.toString('base64') }
  }

  /** JSAPI下单 / H5下单. */
  private order(type: 'JSAPI' | 'MWEB', json: Record<string, unknown>, raw: string) {
    const amount = json.amount as { total?: unknown; currency?: unknown } | undefined
    const payer = json.payer as { openid?: unknown } | undefined
    const scene = json.scene_info as
      { payer_client_ip?: unknown; h5_info?: { type?: unknown } } | undefined
    const notifyUrl = json.notify_url
    if (typeof json.appid !== 'string' || !json.appid) return fail(400, 'PARAM_ERROR', '缺少appid')
    if (json.mchid !== this.options.mchId) return fail(400, 'PARAM_ERROR', 'mchid 不正确')
    if (
      typeof json.description !== 'string' ||
      !json.description ||
      json.description.length > 127
    ) {
      return fail(400, 'PARAM_ERROR', 'description 不正确')
    }
    if (typeof json.out_trade_no !== 'string' || !OUT_NO.test(json.out_trade_no)) {
      return fail(400, 'PARAM_ERROR', 'out_trade_no 须为6-32位数字、字母、_-|*')
    }
    if (typeof json.time_expire !== 'string' || !TIME.test(json.time_expire)) {
      return fail(400, 'PARAM_ERROR', 'time_expire 格式不正确')
    }
    if (typeof notifyUrl !== 'string' || !/^https:\/\/[^?#]+$/.test(notifyUrl)) {
      return fail(400, 'PARAM_ERROR', 'notify_url 须为https地址且不能携带参数')
    }
    if (
      !Number.isInteger(amount?.total) ||
      Number(amount?.total) < 1 ||
      amount?.currency !== 'CNY'
    ) {
      return fail(400, 'PARAM_ERROR', 'amount 不正确')
    }
    if (type === 'JSAPI' && (typeof payer?.openid !== 'string' || !payer.openid)) {
      return fail(400, 'PARAM_ERROR', '缺少payer.openid')
    }
    if (
      type === 'MWEB' &&
      (typeof scene?.payer_client_ip !== 'string' || scene.h5_info?.type !== 'Wap')
    ) {
      return fail(400, 'PARAM_ERROR', 'scene_info 不正确')
    }
    const expires = new Date(json.time_expire)
    if (expires <= this.options.now()) return fail(400, 'INVALID_REQUEST', '订单已过期')
    const existing = this.trades.get(json.out_trade_no)
    if (existing && existing.request !== raw) return fail(400, 'INVALID_REQUEST', '商户订单号重复')
    const trade: FakeTrade = existing ?? {
      appid: json.appid,
      mchid: this.options.mchId,
      description: json.description,
      out_trade_no: json.out_trade_no,
      transaction_id: `42000${randomBytes(12).toString('hex').replace(/\D/g, '').padEnd(23, '7')}`,
      trade_type: type,
      trade_state: 'NOTPAY',
      notify_url: notifyUrl,
      time_expire: expires,
      total: Number(amount!.total),
      refunded: 0,
      payer_openid: type === 'JSAPI' ? String(payer!.openid) : null,
      payer_client_ip: type === 'MWEB' ? String(scene!.payer_client_ip) : null,
      prepay_id: `wx${randomBytes(14).toString('hex')}`,
      success_time: null,
      request: raw,
    }
    this.trades.set(trade.out_trade_no, trade)
    if (type === 'JSAPI') return ok(200, { prepay_id: trade.prepay_id })
    return ok(200, {
      h5_url: `https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=${trade.prepay_id}&package=${randomBytes(4).readUInt32BE()}`,
    })
  }

  /** 申请退款: accepted as PROCESSING, finished (and notified) `delayMs` later. */
  private refund(json: Record<string, unknown>) {
    const amount = json.amount as
      { refund?: unknown; total?: unknown; currency?: unknown } | undefined
    if (typeof json.out_refund_no !== 'string' || !OUT_REFUND_NO.test(json.out_refund_no)) {
      return fail(400, 'PARAM_ERROR', 'out_refund_no 不正确')
    }
    if (typeof json.out_trade_no !== 'string') return fail(400, 'PARAM_ERROR', '缺少out_trade_no')
    if (
      !Number.isInteger(amount?.refund) ||
      Number(amount?.refund) < 1 ||
      amount?.currency !== 'CNY'
    ) {
      return fail(400, 'PARAM_ERROR', 'amount 不正确')
    }
    const trade = this.trade(json.out_trade_no)
    if (!trade || this.lagging('refund')) return fail(404, 'RESOURCE_NOT_EXISTS', '订单不存在')
    if (amount?.total !== trade.total) return fail(400, 'PARAM_ERROR', '订单金额与实际不符')
    const existing = this.refunds.get(json.out_refund_no)
    if (existing) {
      if (existing.out_trade_no !== trade.out_trade_no || existing.refund !== amount.refund) {
        return fail(400, 'INVALID_REQUEST', '退款单号已用于另一笔退款')
      }
      return ok(200, this.refundResource(existing))
    }
    const refusal = this.refuseNextRefund
    this.refuseNextRefund = null
    if (refusal) return fail(refusal.status, refusal.code, refusal.message)
    if (trade.trade_state !== 'SUCCESS' && trade.trade_state !== 'REFUND') {
      return fail(400, 'INVALID_REQUEST', '订单未支付，不能退款')
    }
    if (trade.refunded + Number(amount.refund) > trade.total) {
      return fail(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额')
    }
    const refund: FakeRefund = {
      out_refund_no: json.out_refund_no,
      out_trade_no: trade.out_trade_no,
      refund_id: `50000${randomBytes(12).toString('hex').replace(/\D/g, '').padEnd(24, '3')}`,
      transaction_id: trade.transaction_id,
      status: 'PROCESSING',
      refund: Number(amount.refund),
      total: trade.total,
      reason: typeof json.reason === 'string' ? json.reason : '',
      notify_url: typeof json.notify_url === 'string' ? json.notify_url : null,
      create_time: beijing(this.options.now()),
      success_time: null,
    }
    const lose = this.loseNextRefund
    this.loseNextRefund = null
    if (lose === 'unrecorded') return ok(200, this.refundResource(refund))
    trade.refunded += refund.refund
    trade.trade_state = 'REFUND'
    this.refunds.set(refund.out_refund_no, refund)
    this.later(async () => {
      refund.status = 'SUCCESS'
      refund.success_time = beijing(this.options.now())
      if (!refund.notify_url) return
      await this.notify(refund.notify_url, 'REFUND.SUCCESS', 'refund', {
        mchid: this.options.mchId,
        out_trade_no: refund.out_trade_no,
        transaction_id: refund.transaction_id,
        out_refund_no: refund.out_refund_no,
        refund_id: refund.refund_id,
        refund_status: refund.status,
        success_time: refund.success_time,
        user_received_account: '支付用户零钱',
        amount: {
          total: refund.total,
          refund: refund.refund,
          payer_total: refund.total,
          payer_refund: refund.refund,
        },
      })
    })
    if (lose === 'answerLost') return fail(500, 'SYSTEM_ERROR', '系统异常，请稍后重试')
    return ok(200, this.refundResource(refund))
  }
}

/** A merchant's keys and environment against a started fake: what a test's adapter is built from. */
export interface WechatPayWorld {
  fake: FakeWechatPay
  env: NodeJS.ProcessEnv
  merchantKeys: { publicKey: KeyObject; privateKey: KeyObject }
  dir: string
}

export const TEST_MCHID = '1900009191'
export const TEST_APIV3_KEY = 'aK9fLmQ2xR7tZ4vB8nW3cE6yH1jD5gS0'
export const TEST_PUBLIC_BASE_URL = 'https://cloudphone.example.cn'

/**
 * Generates the merchant key pair, starts a fake WeChat Pay that knows its public half, and writes
 * both PEM files and the environment the adapter reads (WECHATPAY_BASE_URL = the fake). Closed after the test.
 */
export async function wechatPayWorld(
  t: { after: (fn: () => Promise<void> | void) => void },
  now: () => Date,
  signing: FakeWechatPayOptions['signing'] = 'publicKey',
): Promise<WechatPayWorld> {
  const merchantKeys = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const merchantSerialNo = randomBytes(20).toString('hex').toUpperCase()
  const fake = await new FakeWechatPay({
    mchId: TEST_MCHID,
    merchantSerialNo,
    merchantPublicKey: merchantKeys.publicKey,
    apiV3Key: TEST_APIV3_KEY,
    now,
    signing,
  }).start()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wechatpay-'))
  const privateKeyFile = path.join(dir, 'apiclient_key.pem')
  const publicKeyFile = path.join(dir, 'pub_key.pem')
  fs.writeFileSync(
    privateKeyFile,
    merchantKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  )
  fs.writeFileSync(
    publicKeyFile,
    fake.platformKeys.publicKey.export({ type: 'spki', format: 'pem' }) as string,
  )
  t.after(async () => {
    await fake.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  // The merchant's side of each mode: the public key's file and id, the certificate cache, or both.
  const byPublicKey = signing !== 'certificate'
  const byCertificate = signing !== 'publicKey'
  const env: NodeJS.ProcessEnv = {
    WECHATPAY_MCHID: TEST_MCHID,
    WECHATPAY_MERCHANT_SERIAL_NO: merchantSerialNo,
    WECHATPAY_PRIVATE_KEY_FILE: privateKeyFile,
    WECHATPAY_APIV3_KEY: TEST_APIV3_KEY,
    ...(byPublicKey
      ? { WECHATPAY_PUBLIC_KEY_FILE: publicKeyFile, WECHATPAY_PUBLIC_KEY_ID: fake.publicKeyId }
      : {}),
    ...(byCertificate
      ? { WECHATPAY_PLATFORM_CERT_CACHE: path.join(dir, 'wechatpay-platform-certs.json') }
      : {}),
    WECHAT_APPID: 'wx0mini0program01',
    WECHAT_OA_APPID: 'wx0official0acct1',
    PUBLIC_BASE_URL: TEST_PUBLIC_BASE_URL,
    WECHATPAY_BASE_URL: fake.baseUrl,
  }
  return { fake, env, merchantKeys, dir }
}
