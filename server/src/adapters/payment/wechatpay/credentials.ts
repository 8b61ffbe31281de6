/**
 * What the WeChat Pay adapter needs, read from the environment. Every missing or unusable variable is
 * reported at once, so a production start lists them all in one error.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import type { PlatformKey } from './protocol'

export const WECHATPAY_DEFAULT_BASE_URL = 'https://api.mch.weixin.qq.com'

export interface WechatPayCredentials {
  /** 商户号. */
  mchId: string
  /** The merchant API certificate's serial number (serial_no in Authorization). */
  merchantSerialNo: string
  merchantPrivateKey: KeyObject
  /** The APIv3 key: 32 bytes, the AES-256-GCM key of notifications. */
  apiV3Key: Buffer
  /**
   * 微信支付公钥 and its id (PUB_KEY_ID_…), when the merchant has one: verifies what Wechatpay-Serial says
   * it signed. null: the merchant is on platform certificates only.
   */
  publicKey: PlatformKey | null
  /**
   * Where the downloaded platform certificates (平台证书) are kept, when the merchant still verifies with
   * them (alone, or beside the public key during WeChat Pay's switchover). null: public key only.
   */
  platformCertCache: string | null
  /** The mini-program's appid (JSAPI in the mini-program). */
  miniProgramAppId: string
  /** The official account's appid (JSAPI in the WeChat browser, and H5 pay). */
  officialAccountAppId: string
  /** Our own https origin: notify_url and H5 pay's redirect_url are built on it. */
  publicBaseUrl: string
  /** WeChat Pay's API origin (tests point it at the fake). */
  apiBaseUrl: string
}

export type WechatPayCredentialsResult =
  { ok: true; credentials: WechatPayCredentials } | { ok: false; problems: string[] }

function readKey<T>(
  path: string | undefined,
  name: string,
  parse: (pem: string) => T,
  problems: string[],
): T | null {
  if (!path) {
    problems.push(`${name} is not set`)
    return null
  }
  let pem: string
  try {
    pem = fs.readFileSync(path, 'utf8')
  } catch (error) {
    problems.push(`${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`)
    return null
  }
  try {
    return parse(pem)
  } catch {
    problems.push(`${name}: ${path} is not a PEM key`)
    return null
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * An http(s) origin (and path) without a trailing slash, or null. `requireHttps`: plain http only on
 * the loopback (the fakes deploy-check runs against); WeChat Pay calls only https notify URLs.
 */
function origin(value: string | undefined, requireHttps: boolean): string | null {
  if (!value) return null
  try {
    const url = new URL(value)
    const http = url.protocol === 'http:' && (!requireHttps || LOOPBACK.has(url.hostname))
    if (url.protocol !== 'https:' && !http) return null
    if (url.search || url.hash || url.username) return null
    return url.href.replace(/\/+$/, '')
  } catch {
    return null
  }
}

/** 微信支付公钥 and its id, each problem with them pushed. */
function publicKeyFromEnv(
  env: NodeJS.ProcessEnv,
  required: (name: string, pattern: RegExp, rule: string) => string,
  problems: string[],
): PlatformKey | null {
  const id = required(
    'WECHATPAY_PUBLIC_KEY_ID',
    /^PUB_KEY_ID_\w+$/,
    "the WeChat Pay public key's id (PUB_KEY_ID_…)",
  )
  const publicKey = readKey(
    env.WECHATPAY_PUBLIC_KEY_FILE,
    'WECHATPAY_PUBLIC_KEY_FILE',
    (pem) => createPublicKey(pem),
    problems,
  )
  return id && publicKey ? { id, publicKey } : null
}

/** The certificate cache's path, when set: its directory must exist and be ours to write. */
function certificateCache(value: string | undefined, problems: string[]): string | null {
  const file = value?.trim()
  if (!file) return null
  const dir = path.dirname(path.resolve(file))
  try {
    fs.accessSync(dir, fs.constants.W_OK)
  } catch {
    problems.push(`WECHATPAY_PLATFORM_CERT_CACHE: cannot write in ${dir}`)
    return null
  }
  return path.resolve(file)
}

export function wechatPayCredentialsFromEnv(env: NodeJS.ProcessEnv): WechatPayCredentialsResult {
  const problems: string[] = []
  const required = (name: string, pattern: RegExp, rule: string) => {
    const value = env[name]?.trim()
    if (!value) problems.push(`${name} is not set`)
    else if (!pattern.test(value)) problems.push(`${name} must be ${rule}`)
    else return value
    return ''
  }
  const mchId = required('WECHATPAY_MCHID', /^\d{8,12}$/, 'the merchant number (digits)')
  const merchantSerialNo = required(
    'WECHATPAY_MERCHANT_SERIAL_NO',
    /^[0-9A-Fa-f]{16,64}$/,
    "the merchant certificate's serial number (hex)",
  )
  const merchantPrivateKey = readKey(
    env.WECHATPAY_PRIVATE_KEY_FILE,
    'WECHATPAY_PRIVATE_KEY_FILE',
    (pem) => createPrivateKey(pem),
    problems,
  )
  const platformCertCache = certificateCache(env.WECHATPAY_PLATFORM_CERT_CACHE, problems)
  // The public key is needed unless the platform certificates verify instead; given, it must be whole.
  const publicKey =
    platformCertCache !== null && !env.WECHATPAY_PUBLIC_KEY_ID && !env.WECHATPAY_PUBLIC_KEY_FILE
      ? null
      : publicKeyFromEnv(env, required, problems)
  const apiV3Key = env.WECHATPAY_APIV3_KEY ?? ''
  if (!apiV3Key) problems.push('WECHATPAY_APIV3_KEY is not set')
  else if (Buffer.byteLength(apiV3Key) !== 32) problems.push('WECHATPAY_APIV3_KEY must be 32 bytes')
  const miniProgramAppId = env.WECHAT_APPID?.trim() ?? ''
  if (!miniProgramAppId) problems.push('WECHAT_APPID is not set')
  const publicBaseUrl = origin(env.PUBLIC_BASE_URL, true)
  // Worded as the production check words it, so the one refusal names it once.
  if (!env.PUBLIC_BASE_URL) problems.push('PUBLIC_BASE_URL is not set')
  else if (!publicBaseUrl) problems.push('PUBLIC_BASE_URL must be our https origin (notify_url)')
  const apiBaseUrl = env.WECHATPAY_BASE_URL
    ? origin(env.WECHATPAY_BASE_URL, false)
    : WECHATPAY_DEFAULT_BASE_URL
  if (!apiBaseUrl) problems.push('WECHATPAY_BASE_URL must be an http(s) origin')
  if (problems.length > 0 || !merchantPrivateKey) {
    return { ok: false, problems }
  }
  return {
    ok: true,
    credentials: {
      mchId,
      merchantSerialNo,
      merchantPrivateKey,
      apiV3Key: Buffer.from(apiV3Key),
      publicKey,
      platformCertCache,
      miniProgramAppId,
      officialAccountAppId: env.WECHAT_OA_APPID?.trim() || miniProgramAppId,
      publicBaseUrl: publicBaseUrl!,
      apiBaseUrl: apiBaseUrl!,
    },
  }
}
