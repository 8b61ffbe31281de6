/**
 * Volcengine's OpenAPI request signature (HMAC-SHA256, "V4", the scheme of AWS SigV4 with X-Date and
 * X-Content-Sha256), written with node:crypto from the published algorithm rather than taken from
 * @volcengine/openapi: the SDK signs through crypto-js and ships axios and a dozen services we do not use,
 * while the algorithm is thirty lines. The SDK's own Signer checks these signatures in the tests
 * (test/helpers/fake-acep.ts verifies every request with it), so the two cannot drift apart unseen.
 */
import { createHash, createHmac } from 'node:crypto'

export interface SigningKeys {
  accessKeyId: string
  secretAccessKey: string
  region: string
  service: string
}

export interface RequestToSign {
  method: 'GET' | 'POST'
  /** Query parameters (Action, Version and the GET parameters). */
  query: Record<string, string>
  /** The exact body bytes sent ('' for a GET). */
  body: string
  date: Date
}

const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest()
export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex')

/** RFC 3986 escaping, as the SDK's uriEscape does (every reserved character, `*` too). */
const escape = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  )

/** The canonical query string: keys sorted, each key and value escaped. */
export function canonicalQuery(query: Record<string, string>): string {
  return Object.keys(query)
    .sort()
    .map((key) => `${escape(key)}=${escape(query[key])}`)
    .join('&')
}

/** 20261126T225540Z */
export const xDate = (date: Date) => date.toISOString().replace(/[:-]|\.\d{3}/g, '')

/** The headers that carry the signature: X-Date, X-Content-Sha256 and Authorization. */
export function signRequest(request: RequestToSign, keys: SigningKeys): Record<string, string> {
  const datetime = xDate(request.date)
  const bodyHash = sha256Hex(request.body)
  // Signed headers, lower-cased and sorted; content-type is not signed (as in the SDK).
  const signed: [string, string][] = [
    ['x-content-sha256', bodyHash],
    ['x-date', datetime],
  ]
  const canonical = [
    request.method,
    '/',
    canonicalQuery(request.query),
    `${signed.map(([k, v]) => `${k}:${v}`).join('\n')}\n`,
    signed.map(([k]) => k).join(';'),
    bodyHash,
  ].join('\n')
  const scope = `${datetime.slice(0, 8)}/${keys.region}/${keys.service}/request`
  const stringToSign = ['HMAC-SHA256', datetime, scope, sha256Hex(canonical)].join('\n')
  const kDate = hmac(keys.secretAccessKey, datetime.slice(0, 8))
  const kSigning = hmac(hmac(hmac(kDate, keys.region), keys.service), 'request')
  const signature = createHmac('sha256', kSigning).update(stringToSign).digest('hex')
  return {
    'X-Date': datetime,
    'X-Content-Sha256': bodyHash,
    Authorization: `HMAC-SHA256 Credential=${keys.accessKeyId}/${scope}, SignedHeaders=${signed
      .map(([k]) => k)
      .join(';')}, Signature=${signature}`,
  }
}
