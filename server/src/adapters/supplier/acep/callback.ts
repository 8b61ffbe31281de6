/**
 * ACEP's callback service (回调服务接入指南, docs 6394/177474): ACEP posts JSON events to our callback
 * address with an `iPaaS-Auth: auth-v1/{access_key}/{timestamp}/{expire_time}/{signature}` header,
 * signed with the AK/SK pair configured in its console. The exact string to sign is in the guide's
 * attachment, which no document we could read reproduces; we follow the auth-v1 scheme its header
 * names (the BCE auth-v1 derivation: a signing key = HMAC-SHA256(SK, the header's prefix), the
 * signature = HMAC-SHA256(signing key, raw body), both hex). A wrong guess costs latency only: a
 * callback never decides a task's outcome (acep-tasks.ts asks GetTaskInfo or ListBackupData, which
 * the jobs poll anyway). The console's 连通性测试 (a Ping event) confirms it on a real account
 * (docs/deploy.md); a refused callback is logged with the reason.
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

/**
 * Why a callback was refused, in words safe to log (no key, no signature): which check failed, and
 * the header's timestamp against our clock when it got that far.
 */
export type CallbackCheck = { ok: true } | { ok: false; reason: string; skewSeconds?: number }

/** Whether a callback comes from ACEP: our access key, within its validity, the body untouched. */
export function verifyCallback(
  header: string | undefined,
  body: string,
  keys: { accessKey: string; secret: string },
  now: Date,
): CallbackCheck {
  if (!header) return { ok: false, reason: 'no iPaaS-Auth header' }
  const parts = header.split('/')
  if (parts.length !== 5 || parts[0] !== AUTH_VERSION) {
    return { ok: false, reason: `iPaaS-Auth is not ${AUTH_VERSION}/{ak}/{ts}/{expire}/{signature}` }
  }
  const [, accessKey, ts, exp, signature] = parts
  if (!/^\d{1,12}$/.test(ts) || !/^\d{1,6}$/.test(exp) || !/^[0-9a-f]{64}$/.test(signature)) {
    return { ok: false, reason: 'iPaaS-Auth timestamp, expiry or signature malformed' }
  }
  if (accessKey !== keys.accessKey) {
    return {
      ok: false,
      reason: 'iPaaS-Auth names another access key than ACEP_CALLBACK_ACCESS_KEY',
    }
  }
  const timestamp = Number(ts)
  const nowS = Math.floor(now.getTime() / 1000)
  const skewSeconds = timestamp - nowS
  const expire = Math.min(Number(exp), MAX_EXPIRE_S)
  if (timestamp > nowS + CLOCK_SKEW_S || timestamp + expire < nowS) {
    return { ok: false, reason: 'iPaaS-Auth timestamp outside its validity', skewSeconds }
  }
  const expected = signCallback(body, keys, timestamp, Number(exp)).split('/')[4]
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return { ok: false, reason: 'iPaaS-Auth signature does not match', skewSeconds }
  }
  return { ok: true }
}

/** The events of the guide (回调服务接入指南): asynchronous tasks, instance status, the console's Ping. */
export interface AcepCallback {
  id: string
  event_type: 'AsyncTask' | 'InstanceStatus' | 'Ping' | string
  event_async_task?: {
    instance_id?: string
    host_id?: string
    global_task_id?: string
    task_status?: number
  }[]
}
