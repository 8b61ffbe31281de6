/**
 * Aliyun's POP RPC API (signature version 1.0), which Dysms answers on: the request is its parameters
 * in the query string, signed with HMAC-SHA1 of the AccessKey secret over
 * `GET&%2F&<percent-encoded canonical query>`. The rules are those of @alicloud/pop-core, the signer
 * @alicloud/dysmsapi-2017-05-25 is built on; aliyun-pop.test.ts holds ours against it.
 */
import { createHmac, randomUUID } from 'node:crypto'

export interface PopCredentials {
  accessKeyId: string
  accessKeySecret: string
  /** The API's origin and path, e.g. https://dysmsapi.aliyuncs.com/. */
  endpoint: string
}

/** Dysms's API version and region, as every Dysms request names them. */
export const DYSMS_VERSION = '2017-05-25'
const DYSMS_REGION = 'cn-hangzhou'

/** How long one call may take before it counts as unreachable. */
const REQUEST_TIMEOUT_MS = 10_000

/**
 * POP's percent-encoding (RFC 3986): every byte of the UTF-8 text but `A-Z a-z 0-9 - _ . ~`. A sign
 * name such as 云手机(测试) signs differently when `( )` are left bare, and Aliyun refuses the request.
 */
export const popPercentEncode = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )

/** The signed query string of one GET request with these parameters (Signature included). */
export function popSignedQuery(params: Record<string, string>, accessKeySecret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${popPercentEncode(key)}=${popPercentEncode(params[key])}`)
    .join('&')
  const signature = createHmac('sha1', `${accessKeySecret}&`)
    .update(`GET&${popPercentEncode('/')}&${popPercentEncode(canonical)}`)
    .digest('base64')
  return `Signature=${popPercentEncode(signature)}&${canonical}`
}

/** What Aliyun answered: HTTP status and the JSON body (Code, Message, RequestId, the action's fields). */
export interface PopAnswer {
  status: number
  body: Record<string, unknown> & { Code?: unknown; Message?: unknown }
}

/** Aliyun could not be reached (DNS, TLS, refused, timed out) or answered something that is not JSON. */
export class PopUnreachable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PopUnreachable'
  }
}

/** The common parameters POP asks of every request, beside the action's own. */
export function popParams(
  credentials: Pick<PopCredentials, 'accessKeyId'>,
  action: string,
  params: Record<string, string>,
  now: Date,
): Record<string, string> {
  return {
    AccessKeyId: credentials.accessKeyId,
    Action: action,
    Format: 'JSON',
    RegionId: DYSMS_REGION,
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: DYSMS_VERSION,
    ...params,
  }
}

/** One signed Dysms call. PopUnreachable when there is no JSON answer. */
export async function callPop(
  credentials: PopCredentials,
  action: string,
  params: Record<string, string>,
  now = new Date(),
): Promise<PopAnswer> {
  const query = popSignedQuery(
    popParams(credentials, action, params, now),
    credentials.accessKeySecret,
  )
  let response: Response
  try {
    response = await fetch(`${credentials.endpoint}?${query}`, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    throw new PopUnreachable(`aliyun request failed: ${cause ?? (error as Error).message}`)
  }
  const text = await response.text()
  try {
    const body = JSON.parse(text) as unknown
    if (typeof body !== 'object' || body === null) throw new Error('not an object')
    return { status: response.status, body: body as PopAnswer['body'] }
  } catch {
    throw new PopUnreachable(`aliyun answered HTTP ${response.status} without JSON`)
  }
}
