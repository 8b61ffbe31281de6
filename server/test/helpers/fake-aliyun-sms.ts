/**
 * A local Aliyun Dysms (2017-05-25, POP RPC), for the SMS adapter and its go-live check. It verifies
 * each request as POP does: the AccessKey is one it knows (else 404 InvalidAccessKeyId.NotFound), the
 * Signature is HMAC-SHA1 of the secret over `GET&%2F&` and the percent-encoded sorted query (RFC 3986,
 * written here byte by byte, apart from our signer; else 400 SignatureDoesNotMatch), the nonce is new
 * and the timestamp within 15 minutes; then the parameters fit the action's model
 * (provider-models/aliyun-sms.json, from Aliyun's own SDK) or it answers isv.INVALID_PARAMETERS. Every
 * answer is held against the model. SendSms, GetSmsSign and GetSmsTemplate answer from the signs and
 * templates the test gives it; a sign or template not on the account answers the code SendSms's error
 * table gives for it (isv.SMS_SIGNATURE_ILLEGAL / isv.SMS_TEMPLATE_ILLEGAL).
 */
import { createHmac, randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { assertAnswer, callOf, requestProblem } from './provider-models'

export interface FakeAliyunSmsOptions {
  accessKeyId: string
  accessKeySecret: string
  /** Sign names on the account and their SignStatus (0 审核中, 1 审核通过, 2 审核失败). */
  signs: Record<string, number>
  /** Template codes on the account and their TemplateStatus. */
  templates: Record<string, number>
}

/** RFC 3986 percent-encoding of UTF-8 text: every byte but A-Z a-z 0-9 - _ . ~ as %XX. */
function rfc3986(text: string): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte)
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

const requestId = () => randomUUID().toUpperCase()

export class FakeAliyunSms {
  /** Every SendSms that went through: the number, sign, template and parameters. */
  readonly sent: {
    phoneNumbers: string
    signName: string
    templateCode: string
    templateParam: string
  }[] = []
  /** Every request's action and the answer's Code. */
  readonly requests: { action: string; code: string }[] = []
  private readonly nonces = new Set<string>()
  private server: http.Server | null = null

  constructor(readonly options: FakeAliyunSmsOptions) {}

  get endpoint() {
    const address = this.server?.address() as AddressInfo | null
    if (!address) throw new Error('fake Aliyun SMS not started')
    return `http://127.0.0.1:${address.port}/`
  }

  async start() {
    this.server = http.createServer((request, response) => {
      const { status, body } = this.handle(new URL(request.url ?? '/', 'http://127.0.0.1'))
      response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' })
      response.end(JSON.stringify(body))
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    return this
  }

  async close() {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    )
  }

  private handle(url: URL): { status: number; body: Record<string, unknown> } {
    const params = Object.fromEntries(url.searchParams)
    const action = params.Action ?? ''
    const answer = this.answer(action, params)
    const outcome = answer.body.Code === 'OK' ? 'OK' : 'error'
    if (callOf('aliyun-sms', '', action)) assertAnswer('aliyun-sms', action, outcome, answer.body)
    this.requests.push({ action, code: String(answer.body.Code) })
    return answer
  }

  private answer(action: string, params: Record<string, string>) {
    const error = (status: number, code: string, message: string) => ({
      status,
      body: {
        RequestId: requestId(),
        HostId: 'dysmsapi.aliyuncs.com',
        Code: code,
        Message: message,
      },
    })
    if (params.AccessKeyId !== this.options.accessKeyId) {
      return error(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.')
    }
    const { Signature: signature, ...signed } = params
    const canonical = Object.keys(signed)
      .sort()
      .map((key) => `${rfc3986(key)}=${rfc3986(signed[key])}`)
      .join('&')
    const expected = createHmac('sha1', `${this.options.accessKeySecret}&`)
      .update(`GET&${rfc3986('/')}&${rfc3986(canonical)}`)
      .digest('base64')
    if (signature !== expected) {
      return error(
        400,
        'SignatureDoesNotMatch',
        'Specified signature is not matched with our calculation.',
      )
    }
    if (this.nonces.has(params.SignatureNonce)) {
      return error(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.')
    }
    this.nonces.add(params.SignatureNonce)
    if (Math.abs(Date.parse(params.Timestamp) - Date.now()) > 15 * 60_000) {
      return error(
        400,
        'InvalidTimeStamp.Expired',
        'Specified time stamp or date value is expired.',
      )
    }
    const found = callOf('aliyun-sms', '', action)
    if (!found) return error(404, 'InvalidAction.NotFound', 'Specified api is not found.')
    const problem = requestProblem('aliyun-sms', action, found[1], { query: params })
    if (problem) return error(400, 'isv.INVALID_PARAMETERS', `参数异常（${problem}）`)
    const ok = (fields: Record<string, unknown>) => ({
      status: 200,
      body: { RequestId: requestId(), Code: 'OK', Message: 'OK', ...fields },
    })
    const { signs, templates } = this.options
    const signMissing = () => error(200, 'isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名')
    const templateMissing = () => error(200, 'isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板')
    switch (action) {
      case 'GetSmsSign':
        if (!(params.SignName in signs)) return signMissing()
        return ok({
          SignName: params.SignName,
          SignStatus: signs[params.SignName],
          CreateDate: '2026-03-02 10:00:00',
          OrderId: '20044156924',
        })
      case 'GetSmsTemplate':
        if (!(params.TemplateCode in templates)) return templateMissing()
        return ok({
          TemplateCode: params.TemplateCode,
          TemplateStatus: String(templates[params.TemplateCode]),
          TemplateName: '验证码',
          TemplateContent: '您的验证码为：${code}，5分钟内有效。',
          TemplateType: '0',
          CreateDate: '2026-03-02 10:00:00',
        })
      default: {
        if (signs[params.SignName] !== 1) return signMissing()
        if (templates[params.TemplateCode] !== 1) return templateMissing()
        if (!/^1[3-9]\d{9}$/.test(params.PhoneNumbers)) {
          return error(200, 'isv.MOBILE_NUMBER_ILLEGAL', '非法手机号')
        }
        this.sent.push({
          phoneNumbers: params.PhoneNumbers,
          signName: params.SignName,
          templateCode: params.TemplateCode,
          templateParam: params.TemplateParam ?? '',
        })
        return ok({ BizId: `${Date.now()}^0` })
      }
    }
  }
}
