/**
 * WeChat Pay API v3's wire rules, as its merchant documents publish them (开发指引 → 签名生成, 签名验证,
 * 回调通知 解密, 小程序调起支付): every request we send carries an RSA-SHA256 signature of the merchant
 * private key in Authorization; every answer and notification carries WeChat Pay's signature
 * (Wechatpay-Signature over `timestamp\nnonce\nbody\n`), verified with the WeChat Pay public key whose id
 * or the platform certificate whose serial is in Wechatpay-Serial; a notification's resource and a
 * downloaded platform certificate are AES-256-GCM encrypted with the APIv3 key.
 */
import {
  createDecipheriv,
  createSign,
  createVerify,
  randomBytes,
  type KeyObject,
} from 'node:crypto'
import { PaymentSignatureError } from '../payment-provider'

/** The scheme name in Authorization (SHA256 with RSA, 2048-bit merchant key). */
export const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048'

/** WeChat Pay refuses a notification or answer whose timestamp is further than this from now; so do we. */
export const TIMESTAMP_WINDOW_MS = 5 * 60_000

/** 32 hex characters: the documents ask for a random string of at most 32. */
export const nonce = () => randomBytes(16).toString('hex')

export function rsaSign(privateKey: KeyObject, message: string): string {
  return createSign('RSA-SHA256').update(message).sign(privateKey, 'base64')
}

export function rsaVerify(publicKey: KeyObject, message: string, signature: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message).verify(publicKey, signature, 'base64')
  } catch {
    return false
  }
}

/** 签名生成: the Authorization header of one request (`urlPath` with its query string, `body` '' for GET). */
export function authorization(
  merchant: { mchId: string; serialNo: string; privateKey: KeyObject },
  method: string,
  urlPath: string,
  body: string,
  now: Date,
): string {
  const timestamp = String(Math.floor(now.getTime() / 1000))
  const nonceStr = nonce()
  const signature = rsaSign(
    merchant.privateKey,
    `${method}\n${urlPath}\n${timestamp}\n${nonceStr}\n${body}\n`,
  )
  return (
    `${AUTH_SCHEME} mchid="${merchant.mchId}",nonce_str="${nonceStr}",` +
    `signature="${signature}",timestamp="${timestamp}",serial_no="${merchant.serialNo}"`
  )
}

/** The WeChat Pay public key and its id (PUB_KEY_ID_…), which Wechatpay-Serial names. */
export interface PlatformKey {
  id: string
  publicKey: KeyObject
}

/** A public key's id starts so; any other Wechatpay-Serial is a platform certificate's serial. */
export const PUBLIC_KEY_ID_PREFIX = 'PUB_KEY_ID_'

/**
 * The keys WeChat Pay signs with, by the serial Wechatpay-Serial names: the public key (公钥模式), the
 * platform certificates (平台证书模式), or both while WeChat Pay switches a merchant from one to the other
 * and signs either way.
 */
export interface WechatPayKeyring {
  /** The key for this serial, or null when none is held. */
  key(serial: string): KeyObject | null
}

/** The signature names a platform certificate we do not hold (yet): downloading them may find it. */
export class UnknownCertificateError extends PaymentSignatureError {
  constructor(readonly serial: string) {
    super('平台证书序列号未知')
    this.name = 'UnknownCertificateError'
  }
}

/** A header by its name in any case (Fastify lowercases them; fetch's Headers too). */
export function header(headers: Record<string, unknown>, name: string): string | null {
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return typeof value === 'string' ? value : null
  }
  return null
}

/** Whether WeChat Pay signed this at all (it signs no answer to a request it could not verify). */
export const hasSignature = (headers: Record<string, unknown>) =>
  header(headers, 'wechatpay-signature') !== null

/**
 * 签名验证 of an answer or a notification: Wechatpay-Serial names a key of the keyring, the timestamp
 * is within TIMESTAMP_WINDOW_MS of now, and Wechatpay-Signature verifies over
 * `timestamp\nnonce\nbody\n` (the body exactly as received; '' for a 204). PaymentSignatureError
 * otherwise (UnknownCertificateError for a platform certificate not held).
 */
export function verifySigned(
  keyring: WechatPayKeyring,
  headers: Record<string, unknown>,
  body: string,
  now: Date,
): void {
  const timestamp = header(headers, 'wechatpay-timestamp')
  const nonceStr = header(headers, 'wechatpay-nonce')
  const signature = header(headers, 'wechatpay-signature')
  const serial = header(headers, 'wechatpay-serial')
  if (!timestamp || !nonceStr || !signature || !serial) {
    throw new PaymentSignatureError('缺少微信支付签名')
  }
  const key = keyring.key(serial)
  if (!key) {
    if (serial.startsWith(PUBLIC_KEY_ID_PREFIX))
      throw new PaymentSignatureError('微信支付公钥ID不符')
    throw new UnknownCertificateError(serial)
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new PaymentSignatureError('时间戳格式不正确')
  if (Math.abs(Number(timestamp) * 1000 - now.getTime()) > TIMESTAMP_WINDOW_MS) {
    throw new PaymentSignatureError('通知已过期')
  }
  if (!rsaVerify(key, `${timestamp}\n${nonceStr}\n${body}\n`, signature)) {
    throw new PaymentSignatureError()
  }
}

/** What WeChat Pay encrypts with the APIv3 key (a notification's resource, a certificate), as sent. */
interface Sealed {
  algorithm?: unknown
  ciphertext?: unknown
  associated_data?: unknown
  nonce?: unknown
}

/**
 * AEAD_AES_256_GCM, as 回调通知 解密 and 下载平台证书 describe it: key the APIv3 key, iv the nonce,
 * aad the associated_data, the last 16 bytes of the base64 ciphertext the tag. The plain text, or
 * PaymentSignatureError (`what` names it): only WeChat Pay and we hold the key, so what opens is WeChat
 * Pay's.
 */
export function aeadDecrypt(apiV3Key: Buffer, sealed: Sealed | undefined, what: string): string {
  if (
    sealed?.algorithm !== 'AEAD_AES_256_GCM' ||
    typeof sealed.ciphertext !== 'string' ||
    typeof sealed.nonce !== 'string'
  ) {
    throw new PaymentSignatureError(`${what}格式不正确`)
  }
  const bytes = Buffer.from(sealed.ciphertext, 'base64')
  if (bytes.length <= 16) throw new PaymentSignatureError(`${what}密文不完整`)
  const aad = typeof sealed.associated_data === 'string' ? sealed.associated_data : ''
  try {
    const decipher = createDecipheriv('aes-256-gcm', apiV3Key, Buffer.from(sealed.nonce))
    decipher.setAuthTag(bytes.subarray(bytes.length - 16))
    decipher.setAAD(Buffer.from(aad))
    return Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - 16)),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    throw new PaymentSignatureError(`${what}解密失败`)
  }
}

/**
 * 回调通知 解密: a verified notification body's resource, decrypted (aeadDecrypt) and parsed. The body
 * must already have passed verifySigned.
 */
export function decryptResource(
  apiV3Key: Buffer,
  rawBody: string,
): { eventType: string; resource: Record<string, unknown> } {
  let body: { event_type?: unknown; resource?: Sealed }
  try {
    body = JSON.parse(rawBody) as typeof body
  } catch {
    throw new PaymentSignatureError('通知内容不是JSON')
  }
  if (typeof body?.event_type !== 'string') throw new PaymentSignatureError('通知格式不正确')
  const plain = aeadDecrypt(apiV3Key, body.resource, '通知')
  try {
    const parsed = JSON.parse(plain) as unknown
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object')
    return { eventType: body.event_type, resource: parsed as Record<string, unknown> }
  } catch {
    throw new PaymentSignatureError('通知内容不正确')
  }
}

/**
 * 小程序调起支付 / JSAPI调起支付: the parameters wx.requestPayment and WeixinJSBridge's
 * getBrandWCPayRequest take, paySign being the merchant's RSA-SHA256 over
 * `appId\ntimeStamp\nnonceStr\npackage\n`.
 */
export function payParams(privateKey: KeyObject, appId: string, prepayId: string, now: Date) {
  const timeStamp = String(Math.floor(now.getTime() / 1000))
  const nonceStr = nonce()
  const pkg = `prepay_id=${prepayId}`
  return {
    appId,
    timeStamp,
    nonceStr,
    package: pkg,
    signType: 'RSA' as const,
    paySign: rsaSign(privateKey, `${appId}\n${timeStamp}\n${nonceStr}\n${pkg}\n`),
  }
}

/** RFC 3339 in Beijing time, as time_expire is written (2026-03-02T10:15:00+08:00). */
export function beijingTime(at: Date): string {
  const shifted = new Date(Math.floor(at.getTime() / 1000) * 1000 + 8 * 3600_000)
  return `${shifted.toISOString().slice(0, 19)}+08:00`
}
