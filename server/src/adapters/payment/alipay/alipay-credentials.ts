/**
 * What the Alipay adapter needs from the environment, read and checked in one pass so that a misconfigured
 * production start lists every problem at once. Keys are Alipay's 公钥模式 (public-key mode): our RSA2
 * application private key and Alipay's public key, each in a file (PEM, PKCS#1 or PKCS#8, or the bare
 * base64 Alipay's key tool prints). 证书模式 (certificate mode) is not built.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'

export interface AlipayCredentials {
  appId: string
  /** Our application private key, PKCS#8 PEM (normalised whatever form the file held). */
  privateKey: string
  /** Alipay's public key (支付宝公钥), SPKI PEM: verifies notifications and answers. */
  alipayPublicKey: string
  /** The https origin Alipay calls back and returns buyers to, without a trailing slash. */
  publicBaseUrl: string
  /** The OpenAPI gateway; default Alipay's production one. */
  gateway: string
}

export type AlipayCredentialsResult =
  { ok: true; credentials: AlipayCredentials } | { ok: false; problems: string[] }

export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do'

/** A key file's text, or the problem with it. */
function readKeyFile(env: NodeJS.ProcessEnv, name: string): string | { problem: string } {
  const file = env[name]
  if (!file) return { problem: `${name} is not set` }
  try {
    return readFileSync(file, 'utf8').trim()
  } catch (error) {
    return { problem: `${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code})` }
  }
}

/** PEM as written, or the bare base64 DER Alipay's key tool prints, tried as each type in turn. */
function parseKey<T>(text: string, parsers: ((key: string | Buffer) => T)[]): T {
  if (text.includes('-----BEGIN')) return parsers[0](text)
  const der = Buffer.from(text.replace(/\s+/g, ''), 'base64')
  for (const parse of parsers.slice(1)) {
    try {
      return parse(der)
    } catch {
      // the next form
    }
  }
  throw new Error('not a key')
}

const isRsa2048 = (key: KeyObject) =>
  key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048

function urlProblem(name: string, value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `${name} is not a URL: ${value}`
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${name} must be an http(s) URL`
  return null
}

/**
 * ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY_FILE, ALIPAY_PUBLIC_KEY_FILE, PUBLIC_BASE_URL and optionally
 * ALIPAY_GATEWAY: the credentials, or every variable that is missing or wrong.
 */
export function alipayCredentialsFromEnv(env: NodeJS.ProcessEnv): AlipayCredentialsResult {
  const problems: string[] = []
  const appId = env.ALIPAY_APP_ID?.trim() ?? ''
  if (!appId) problems.push('ALIPAY_APP_ID is not set')
  else if (!/^\d{16}$/.test(appId)) problems.push('ALIPAY_APP_ID must be the 16-digit app id')

  let privateKey: KeyObject | null = null
  const privateText = readKeyFile(env, 'ALIPAY_PRIVATE_KEY_FILE')
  if (typeof privateText !== 'string') problems.push(privateText.problem)
  else {
    try {
      privateKey = parseKey(privateText, [
        (key) => createPrivateKey(key),
        (der) => createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }),
        (der) => createPrivateKey({ key: der, format: 'der', type: 'pkcs1' }),
      ])
      if (!isRsa2048(privateKey)) {
        problems.push('ALIPAY_PRIVATE_KEY_FILE must hold an RSA key of 2048 bits or more (RSA2)')
      }
    } catch {
      problems.push('ALIPAY_PRIVATE_KEY_FILE does not hold a private key (PEM PKCS#1/PKCS#8)')
    }
  }

  let alipayKey: KeyObject | null = null
  const publicText = readKeyFile(env, 'ALIPAY_PUBLIC_KEY_FILE')
  if (typeof publicText !== 'string') problems.push(publicText.problem)
  else {
    try {
      alipayKey = parseKey(publicText, [
        (key) => createPublicKey(key),
        (der) => createPublicKey({ key: der, format: 'der', type: 'spki' }),
        (der) => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }),
      ])
      if (!isRsa2048(alipayKey)) {
        problems.push('ALIPAY_PUBLIC_KEY_FILE must hold an RSA key of 2048 bits or more (RSA2)')
      }
    } catch {
      problems.push('ALIPAY_PUBLIC_KEY_FILE does not hold a public key (支付宝公钥, PEM)')
    }
  }
  // The most common mix-up: the application's own public key where Alipay's belongs.
  if (privateKey && alipayKey && createPublicKey(privateKey).equals(alipayKey)) {
    problems.push(
      "ALIPAY_PUBLIC_KEY_FILE holds the application's own public key, not Alipay's (支付宝公钥)",
    )
  }

  const publicBaseUrl = env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, '') ?? ''
  if (!publicBaseUrl) problems.push('PUBLIC_BASE_URL is not set')
  else {
    const problem = urlProblem('PUBLIC_BASE_URL', publicBaseUrl)
    if (problem) problems.push(problem)
  }
  const gateway = env.ALIPAY_GATEWAY?.trim() || ALIPAY_GATEWAY
  const gatewayProblem = urlProblem('ALIPAY_GATEWAY', gateway)
  if (gatewayProblem) problems.push(gatewayProblem)

  if (problems.length > 0 || !privateKey || !alipayKey) {
    return { ok: false, problems: problems.map((problem) => `ALIPAY_PROVIDER=alipay: ${problem}`) }
  }
  return {
    ok: true,
    credentials: {
      appId,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      alipayPublicKey: alipayKey.export({ type: 'spki', format: 'pem' }).toString(),
      publicBaseUrl,
      gateway,
    },
  }
}
