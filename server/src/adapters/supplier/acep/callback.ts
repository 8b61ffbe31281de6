/**
 * ACEP's callback service (回调服务): ACEP posts JSON events to our callback address with an
 * `iPaaS-Auth: auth-v1/{access_key}/{timestamp}/{expire_time}/{signature}` header, signed with the AK/SK
 * pair configured in its console. The guide's attachment holds the exact string to sign; we follow the
 * auth-v1 scheme its header names (the BCE auth-v1 derivation: a signing key = HMAC-SHA256(SK, the
 * header's prefix), the signature = HMAC-SHA256(signing key, raw body), both hex). Check it against the
 * attachment with the console's 连通性测试 (a Ping event) before going live: a mismatch shows as every
 * callback refused (401), and polling (GetTaskInfo) still finishes every task.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

export const CALLBACK_HEADER = 'ipaas-auth'
const AUTH_VERSION = 'auth-v1'
/** How far a callback's timestamp may be ahead of our clock. */
const CLOCK_SKEW_S = 300
/** The longest validity we accept, whatever the header claims. */
const MAX_EXPIRE_S = 1800

const hmacHex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex')

/** The header a callback signed with these keys at `timestamp` (seconds) carries. */
export function signCallback(
  body: string,
  keys: { accessKey: string; secret: string },
  timestamp: number,
  expire = MAX_EXPIRE_S,
): string {
  const prefix = `${AUTH_VERSION}/${keys.accessKey}/${timestamp}/${expire}`
  return `${prefix}/${hmacHex(hmacHex(keys.secret, prefix), body)}`
}

/** Whether a callback comes from ACEP: our access key, within its validity, the body untouched. */
export function verifyCallback(
  header: string | undefined,
  body: string,
  keys: { accessKey: string; secret: string },
  now: Date,
): boolean {
  const parts = (header ?? '').split('/')
  if (parts.length !== 5) return false
  const [version, accessKey, ts, exp, signature] = parts
  if (version !== AUTH_VERSION || accessKey !== keys.accessKey) return false
  if (!/^\d{1,12}$/.test(ts) || !/^\d{1,6}$/.test(exp) || !/^[0-9a-f]{64}$/.test(signature)) {
    return false
  }
  const timestamp = Number(ts)
  const nowS = Math.floor(now.getTime() / 1000)
  const expire = Math.min(Number(exp), MAX_EXPIRE_S)
  if (timestamp > nowS + CLOCK_SKEW_S || timestamp + expire < nowS) return false
  const expected = signCallback(body, keys, timestamp, Number(exp)).split('/')[4]
  return timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
}

/** The parts of a callback event we use (回调事件参考). */
export interface AcepCallback {
  id: string
  event_type: 'AsyncTask' | 'InstanceStatus' | 'Ping' | 'ScreenShot' | string
  event_async_task?: {
    instance_id?: string
    global_task_id?: string
    task_status?: number
    detail?: string
  }[]
  event_screen_shot?: { pod_id?: string; download_url?: string }[]
}
