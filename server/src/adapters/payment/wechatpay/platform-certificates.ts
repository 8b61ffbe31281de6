/**
 * 平台证书 (WeChat Pay's platform certificates), for merchants not yet on the WeChat Pay public key, and
 * for WeChat Pay's switchover from one to the other, when answers and notifications come signed either
 * way. The certificates are downloaded with 下载平台证书 (GET /v3/certificates, each certificate
 * AES-256-GCM encrypted under the APIv3 key), held by serial, several at once (WeChat Pay lists the new
 * one beside the old before it signs with it), and kept in a cache file, so a restart verifies
 * notifications before WeChat Pay can be asked again.
 *
 * When they are downloaded: when none is held, when the last download is older than REFRESH_EVERY_MS
 * (in the background), and when an answer or a notification names a serial we do not hold (at most once
 * per REFRESH_MIN_INTERVAL_MS, so a flood of forged serials asks WeChat Pay once a minute at most).
 */
import fs from 'node:fs'
import path from 'node:path'
import { X509Certificate, type KeyObject } from 'node:crypto'
import { PaymentSignatureError } from '../payment-provider'
import { aeadDecrypt, TIMESTAMP_WINDOW_MS, type WechatPayKeyring } from './protocol'

/** How often certificates are downloaded anew without being asked (WeChat Pay rotates them yearly). */
export const REFRESH_EVERY_MS = 60 * 60_000
/** The least time between two downloads prompted by an unknown serial. */
export const REFRESH_MIN_INTERVAL_MS = 60_000

/** One platform certificate as 下载平台证书 lists it, decrypted. */
export interface PlatformCertificate {
  serialNo: string
  effectiveTime: string
  expireTime: string
  /** The X.509 certificate, PEM. */
  certificate: string
}

interface Held {
  publicKey: KeyObject
  validFrom: number
  validTo: number
  record: PlatformCertificate
}

const sameSerial = (a: string, b: string) =>
  a.replace(/^0+/, '').toUpperCase() === b.replace(/^0+/, '').toUpperCase()

/** The certificate's key and validity, or PaymentSignatureError when it is not what the list says. */
function hold(record: PlatformCertificate): Held {
  let x509: X509Certificate
  try {
    x509 = new X509Certificate(record.certificate)
  } catch {
    throw new PaymentSignatureError('平台证书无法解析')
  }
  if (!sameSerial(x509.serialNumber, record.serialNo)) {
    throw new PaymentSignatureError('平台证书序列号与列表不符')
  }
  const validTo = Math.min(Date.parse(x509.validTo), Date.parse(record.expireTime) || Infinity)
  return {
    publicKey: x509.publicKey,
    validFrom: Date.parse(x509.validFrom),
    validTo,
    record,
  }
}

/**
 * 下载平台证书's answer body, each certificate decrypted with the APIv3 key and checked against its
 * serial_no. PaymentSignatureError when any of it does not open or does not match.
 */
export function decryptCertificates(apiV3Key: Buffer, body: string): PlatformCertificate[] {
  let parsed: { data?: unknown }
  try {
    parsed = JSON.parse(body) as { data?: unknown }
  } catch {
    throw new PaymentSignatureError('平台证书列表不是JSON')
  }
  if (!Array.isArray(parsed?.data)) throw new PaymentSignatureError('平台证书列表格式不正确')
  return parsed.data.map((item: Record<string, unknown>) => {
    const { serial_no, effective_time, expire_time, encrypt_certificate } = item ?? {}
    if (typeof serial_no !== 'string' || typeof expire_time !== 'string') {
      throw new PaymentSignatureError('平台证书列表格式不正确')
    }
    const record: PlatformCertificate = {
      serialNo: serial_no,
      effectiveTime: typeof effective_time === 'string' ? effective_time : '',
      expireTime: expire_time,
      certificate: aeadDecrypt(apiV3Key, encrypt_certificate as object | undefined, '平台证书'),
    }
    hold(record)
    return record
  })
}

/**
 * The key of the certificate with this serial, within its validity at `now` (our clock may be behind
 * WeChat Pay's by as much as a signature's timestamp may, TIMESTAMP_WINDOW_MS).
 */
function keyOf(held: Iterable<Held>, serial: string, now: Date): KeyObject | null {
  const at = now.getTime()
  for (const one of held) {
    const valid = one.validFrom - TIMESTAMP_WINDOW_MS <= at && at <= one.validTo
    if (sameSerial(one.record.serialNo, serial) && valid) {
      return one.publicKey
    }
  }
  return null
}

/** A keyring of just these certificates (a download's answer is verified with what it brings). */
export function keyringOf(records: PlatformCertificate[], now: () => Date): WechatPayKeyring {
  const held = records.map(hold)
  return { key: (serial) => keyOf(held, serial, now()) }
}

/** The certificates held, by serial, kept in `cacheFile`; `download` asks WeChat Pay for the list. */
export class PlatformCertificates implements WechatPayKeyring {
  private readonly held = new Map<string, Held>()
  private downloadedAt = 0
  private lastAttempt = Number.NEGATIVE_INFINITY
  private inFlight: Promise<void> | null = null
  /** Why the last download failed (the smoke check prints it); null after one that worked. */
  lastError: string | null = null

  constructor(
    readonly cacheFile: string,
    private readonly now: () => Date,
    private readonly download: () => Promise<PlatformCertificate[]>,
  ) {
    this.load()
  }

  /** The serials held now, newest expiry last. */
  get serials(): string[] {
    return [...this.held.values()]
      .sort((a, b) => a.validTo - b.validTo)
      .map((held) => held.record.serialNo)
  }

  key(serial: string): KeyObject | null {
    return keyOf(this.held.values(), serial, this.now())
  }

  /** Downloads in the background when none is held or the last download is older than REFRESH_EVERY_MS. */
  refreshIfStale(): void {
    if (this.held.size > 0 && this.now().getTime() - this.downloadedAt < REFRESH_EVERY_MS) return
    void this.refresh().catch(() => undefined)
  }

  /**
   * Downloads the list now and holds what it adds, one download at a time; `prompted` (an unknown
   * serial): not again within REFRESH_MIN_INTERVAL_MS of the last try.
   */
  refresh(prompted = false): Promise<void> {
    if (this.inFlight) return this.inFlight
    const at = this.now().getTime()
    if (prompted && at - this.lastAttempt < REFRESH_MIN_INTERVAL_MS) return Promise.resolve()
    this.lastAttempt = at
    this.inFlight = this.download()
      .then(
        (records) => {
          this.add(records)
          this.downloadedAt = this.now().getTime()
          this.lastError = null
          try {
            this.save()
          } catch (error) {
            // held in memory all the same; only a restart before the next download loses them
            this.lastError = `cannot write ${this.cacheFile}: ${(error as Error).message}`
          }
        },
        (error: unknown) => {
          this.lastError = error instanceof Error ? error.message : String(error)
          throw error
        },
      )
      .finally(() => {
        this.inFlight = null
      })
    return this.inFlight
  }

  /** Holds these beside the others and drops any past its expiry. */
  private add(records: PlatformCertificate[]) {
    for (const record of records) this.held.set(record.serialNo.toUpperCase(), hold(record))
    const at = this.now().getTime()
    for (const [serial, held] of this.held) if (held.validTo < at) this.held.delete(serial)
  }

  /** The cache as the last process left it; a missing or damaged file is an empty cache. */
  private load() {
    let cached: { downloadedAt?: unknown; certificates?: unknown }
    try {
      cached = JSON.parse(fs.readFileSync(this.cacheFile, 'utf8')) as typeof cached
    } catch {
      return
    }
    if (!Array.isArray(cached?.certificates)) return
    for (const record of cached.certificates as PlatformCertificate[]) {
      try {
        this.add([record])
      } catch {
        // a damaged entry is dropped; the next download brings the certificate back
      }
    }
    if (typeof cached.downloadedAt === 'number') this.downloadedAt = cached.downloadedAt
  }

  /** Written whole under another name, then renamed: a reader never sees half a file. */
  private save() {
    const text = JSON.stringify(
      {
        downloadedAt: this.downloadedAt,
        certificates: [...this.held.values()].map((held) => held.record),
      },
      null,
      2,
    )
    const temporary = path.join(
      path.dirname(this.cacheFile),
      `.${path.basename(this.cacheFile)}.${process.pid}.tmp`,
    )
    fs.writeFileSync(temporary, text, { mode: 0o600 })
    fs.renameSync(temporary, this.cacheFile)
  }
}
