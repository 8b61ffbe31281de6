/**
 * WeChat Pay API v3's wire rules, as its merchant documents publish them (开发指引 → 签名生成, 签名验证,
 * 回调通知 解密, 小程序调起支付): every request we send carries an RSA-SHA256 signature of the merchant
 * private key in Authorization; every answer and notification carries WeChat Pay's signature
 * (Wechatpay-Signature over `timestamp\nnonce\nbody\n`), verified with the WeChat Pay public key whose id
 * is in Wechatpay-Serial; a notification's resource is AES-256-GCM encrypted with the APIv3 key.
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

/** A header by its name in any case (Fastify lowercases them; fetch's Headers too). */
function header(headers: Record<string, unknown>, name: string): string | null {
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return typeof value === 'string' ? value : null
  }
  return null
}

/**
 * 签名验证 of an answer or a notification: Wechatpay-Serial names our WeChat Pay public key, the
 * timestamp is within TIMESTAMP_WINDOW_MS of now, and Wechatpay-Signature verifies over
 * `timestamp\nnonce\nbody\n` (the body exactly as received; '' for a 204). PaymentSignatureError otherwise.
 */
export function verifySigned(
  key: PlatformKey,
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
  if (serial !== key.id) throw new PaymentSignatureError('微信支付公钥ID不符')
  if (!/^\d{1,12}$/.test(timestamp)) throw new PaymentSignatureError('时间戳格式不正确')
  if (Math.abs(Number(timestamp) * 1000 - now.getTime()) > TIMESTAMP_WINDOW_MS) {
    throw new PaymentSignatureError('通知已过期')
  }
  if (!rsaVerify(key.publicKey, `${timestamp}\n${nonceStr}\n${body}\n`, signature)) {
    throw new PaymentSignatureError()
  }
}

/** A notification's encrypted resource, as sent. */
interface EncryptedResource {
  algorithm: string
  ciphertext: string
  associated_data?: string
  nonce: string
  original_type?: string
}

/**
 * 回调通知 解密: a verified notification body's resource, decrypted with AEAD_AES_256_GCM (key: the
 * APIv3 key; iv: resource.nonce; aad: resource.associated_data; the last 16 bytes of the ciphertext
 * are the tag) and parsed. The body must already have passed verifySigned.
 */
export function decryptResource(
  apiV3Key: Buffer,
  rawBody: string,
): { eventType: string; resource: Record<string, unknown> } {
  let body: { event_type?: unknown; resource?: Partial<EncryptedResource> }
  try {
    body = JSON.parse(rawBody) as typeof body
  } catch {
    throw new PaymentSignatureError('通知内容不是JSON')
  }
  const resource = body?.resource
  if (
    typeof body?.event_type !== 'string' ||
    resource?.algorithm !== 'AEAD_AES_256_GCM' ||
    typeof resource.ciphertext !== 'string' ||
    typeof resource.nonce !== 'string'
  ) {
    throw new PaymentSignatureError('通知格式不正确')
  }
  const sealed = Buffer.from(resource.ciphertext, 'base64')
  if (sealed.length <= 16) throw new PaymentSignatureError('通知密文不完整')
  let plain: string
  try {
    const decipher = createDecipheriv('aes-256-gcm', apiV3Key, Buffer.from(resource.nonce))
    decipher.setAuthTag(sealed.subarray(sealed.length - 16))
    decipher.setAAD(Buffer.from(resource.associated_data ?? ''))
    plain = Buffer.concat([
      decipher.update(sealed.subarray(0, sealed.length - 16)),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    throw new PaymentSignatureError('通知解密失败')
  }
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
