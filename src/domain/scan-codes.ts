/**
 * QR texts of the app (docs/decisions.md "QR formats"): `cloudphone:<kind>:<code>`, plus a bare activation
 * code (16 characters of the code alphabet, spaces/dashes ignored) read as activate. Pure: the server
 * builds payloads with scanPayload, the scan pages read them with parseScanCode.
 */
import { ACTIVATION_CODE_PATTERN, normaliseActivationCode } from './activation-codes'

export type ScanKind = 'activate' | 'share' | 'login'
export type ScanCode = { kind: ScanKind; code: string } | { kind: 'unknown'; text: string }

export const SCAN_PREFIX = 'cloudphone:'
/** How long a scan-login QR stays usable. */
export const SCAN_LOGIN_TTL_MS = 120_000

const KINDS: readonly ScanKind[] = ['activate', 'share', 'login']
const CODE_OF: Record<ScanKind, RegExp> = {
  activate: /^[A-Za-z0-9-]{4,40}$/,
  share: /^[A-Za-z0-9_-]{4,64}$/,
  login: /^[0-9a-f]{64}$/,
}

export function scanPayload(kind: ScanKind, code: string): string {
  return `${SCAN_PREFIX}${kind}:${code}`
}

export function parseScanCode(text: string | null | undefined): ScanCode {
  const raw = typeof text === 'string' ? text : ''
  const trimmed = raw.trim()
  const unknown: ScanCode = { kind: 'unknown', text: raw }
  if (!trimmed) return unknown
  if (trimmed.toLowerCase().startsWith(SCAN_PREFIX)) {
    const rest = trimmed.slice(SCAN_PREFIX.length)
    const colon = rest.indexOf(':')
    if (colon < 0) return unknown
    const kind = rest.slice(0, colon).toLowerCase() as ScanKind
    const code = rest.slice(colon + 1).trim()
    if (!KINDS.includes(kind) || !CODE_OF[kind].test(code)) return unknown
    return { kind, code: kind === 'activate' ? normaliseActivationCode(code) : code }
  }
  const bare = normaliseActivationCode(trimmed)
  return ACTIVATION_CODE_PATTERN.test(bare) ? { kind: 'activate', code: bare } : unknown
}
