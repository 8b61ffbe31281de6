/**
 * One signed call to WeChat Pay API v3 and what its answer's signature says, and the verification of
 * notifications, with whichever keys the merchant has: the WeChat Pay public key, the platform
 * certificates (downloaded and rotated by platform-certificates.ts), or both during WeChat Pay's
 * switchover. What an answer means for a payment is the provider's business (wechatpay-provider.ts);
 * the go-live check (wechatpay-check.ts) reads the same answers.
 */
import type { Clock } from '../../../clock'
import { PaymentSignatureError } from '../payment-provider'
import type { WechatPayCredentials } from './credentials'
import { decryptCertificates, keyringOf, PlatformCertificates } from './platform-certificates'
import {
  authorization,
  hasSignature,
  UnknownCertificateError,
  verifySigned,
  type WechatPayKeyring,
} from './protocol'

/** How long one call to WeChat Pay may take before it counts as a passing failure. */
const REQUEST_TIMEOUT_MS = 10_000

/** One answer: its status, body as received, and whether WeChat Pay's signature on it verified. */
export interface WechatPayAnswer {
  status: number
  text: string
  /** `absent`: not signed at all (WeChat Pay signs no answer to a request it could not verify). */
  signature: 'verified' | 'absent' | 'invalid'
  /** Why the signature did not verify. */
  why: string | null
  /** WeChat Pay's business code and message of an error answer ('' when none). */
  code: string
  message: string
}

/** WeChat Pay's keys: the public key by its id, the platform certificates by their serial. */
class Keyring implements WechatPayKeyring {
  constructor(
    private readonly credentials: WechatPayCredentials,
    readonly certificates: PlatformCertificates | null,
  ) {}

  key(serial: string) {
    const { publicKey } = this.credentials
    if (publicKey && serial === publicKey.id) return publicKey.publicKey
    return this.certificates?.key(serial) ?? null
  }
}

export class WechatPayClient {
  private readonly keyring: Keyring

  constructor(
    private readonly credentials: WechatPayCredentials,
    private readonly clock: Clock,
  ) {
    const certificates = credentials.platformCertCache
      ? new PlatformCertificates(
          credentials.platformCertCache,
          () => clock.now(),
          () => this.downloadCertificates(),
        )
      : null
    this.keyring = new Keyring(credentials, certificates)
  }

  /** The platform certificates, when the merchant verifies with them. */
  get certificates(): PlatformCertificates | null {
    return this.keyring.certificates
  }

  /** The signed request, its answer as received. Network errors and timeouts throw. */
  private async request(method: 'GET' | 'POST', urlPath: string, payload?: object) {
    const { credentials } = this
    const body = payload === undefined ? '' : JSON.stringify(payload)
    const response = await fetch(`${credentials.apiBaseUrl}${urlPath}`, {
      method,
      headers: {
        Authorization: authorization(
          {
            mchId: credentials.mchId,
            serialNo: credentials.merchantSerialNo,
            privateKey: credentials.merchantPrivateKey,
          },
          method,
          urlPath,
          body,
          this.clock.now(),
        ),
        Accept: 'application/json',
        'User-Agent': 'cloud-phone-server',
        ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: payload === undefined ? undefined : body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const text = await response.text()
    return { status: response.status, headers: Object.fromEntries(response.headers), text }
  }

  /**
   * One signed call and its answer, the signature checked whenever there is one (a platform
   * certificate not held is downloaded first). Network errors and timeouts throw.
   */
  async send(method: 'GET' | 'POST', urlPath: string, payload?: object): Promise<WechatPayAnswer> {
    this.certificates?.refreshIfStale()
    const { status, headers, text } = await this.request(method, urlPath, payload)
    const { code, message } = errorOf(text)
    const answer = { status, text, code, message }
    if (!hasSignature(headers)) return { ...answer, signature: 'absent', why: '缺少微信支付签名' }
    try {
      await this.verifyFetching(headers, text)
      return { ...answer, signature: 'verified', why: null }
    } catch (error) {
      const why = error instanceof PaymentSignatureError ? error.message : String(error)
      return { ...answer, signature: 'invalid', why }
    }
  }

  /** verifySigned, after downloading the certificates once when the serial is one not held. */
  private async verifyFetching(headers: Record<string, unknown>, text: string) {
    try {
      verifySigned(this.keyring, headers, text, this.clock.now())
    } catch (error) {
      if (!(error instanceof UnknownCertificateError) || !this.certificates) throw error
      await this.certificates.refresh(true).catch(() => undefined)
      verifySigned(this.keyring, headers, text, this.clock.now())
    }
  }

  /**
   * A notification's signature (synchronous: the callback route answers from it). A platform
   * certificate not held yet is refused now and downloaded in the background: WeChat Pay sends the
   * notification again (15 s later, then on its schedule), and then it verifies.
   */
  verifyNotification(headers: Record<string, unknown>, rawBody: string): void {
    this.certificates?.refreshIfStale()
    try {
      verifySigned(this.keyring, headers, rawBody, this.clock.now())
    } catch (error) {
      if (error instanceof UnknownCertificateError) {
        void this.certificates?.refresh(true).catch(() => undefined)
      }
      throw error
    }
  }

  /**
   * 下载平台证书: the list, each certificate opened with the APIv3 key. The answer must be signed by a
   * certificate it lists or one already held: what opens under our APIv3 key is WeChat Pay's, so a
   * first download trusts the certificate it brings, as WeChat Pay's own tools do.
   */
  private async downloadCertificates() {
    const { status, headers, text } = await this.request('GET', '/v3/certificates')
    if (status !== 200) {
      const { code, message } = errorOf(text)
      throw new Error(`下载平台证书失败: HTTP ${status} ${code} ${message}`.trim())
    }
    const records = decryptCertificates(this.credentials.apiV3Key, text)
    const listed = keyringOf(records, () => this.clock.now())
    const either: WechatPayKeyring = {
      key: (serial) => listed.key(serial) ?? this.keyring.key(serial),
    }
    verifySigned(either, headers, text, this.clock.now())
    return records
  }
}

function errorOf(text: string): { code: string; message: string } {
  let parsed: { code?: unknown; message?: unknown } = {}
  try {
    parsed = (JSON.parse(text) as typeof parsed) ?? {}
  } catch {
    // not JSON: no code; the text (cut) is the message
  }
  return {
    code: typeof parsed.code === 'string' ? parsed.code : '',
    message: typeof parsed.message === 'string' ? parsed.message.slice(0, 200) : text.slice(0, 200),
  }
}
