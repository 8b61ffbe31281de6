import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common'
import { LoginResult } from './auth'

export const ScanLoginStatus = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('scanned'),
    Type.Literal('confirmed'),
    Type.Literal('refused'),
    Type.Literal('expired'),
    Type.Literal('consumed'),
  ],
  { description: 'pending | scanned | confirmed | refused | expired | consumed' },
)
export type ScanLoginStatus = Static<typeof ScanLoginStatus>

/** What the logged-out browser gets: the QR to show and the key only it knows for polling. */
export const ScanLoginSession = Type.Object({
  /** In the QR as `cloudphone:login:<sessionId>`; the phone that scans uses it. */
  sessionId: Type.String(),
  /** Secret of the browser that created the session; only it can collect the login (sessionId = its hash). */
  pollKey: Type.String(),
  qrImage: Type.String({ description: 'PNG data URL of the QR' }),
  expiresAt: Type.Integer(),
})
export type ScanLoginSession = Static<typeof ScanLoginSession>

export const ScanLoginStatusQuery = Type.Object({
  pollKey: Type.String({ minLength: 64, maxLength: 64, pattern: '^[0-9a-f]{64}$' }),
})
export type ScanLoginStatusQuery = Static<typeof ScanLoginStatusQuery>

/** login is present exactly once: on the first poll after the phone confirmed. */
export const ScanLoginState = Type.Object({
  status: ScanLoginStatus,
  expiresAt: Type.Integer(),
  login: Nullable(LoginResult),
})
export type ScanLoginState = Static<typeof ScanLoginState>

export const ScanLoginIdBody = Type.Object({
  sessionId: Type.String({ minLength: 64, maxLength: 64, pattern: '^[0-9a-f]{64}$' }),
})
export type ScanLoginIdBody = Static<typeof ScanLoginIdBody>

/** What the confirming phone shows: where the login was asked from. */
export const ScanLoginRequest = Type.Object({
  requester: Type.String(),
  ip: Type.String(),
  createdAt: Type.Integer(),
  expiresAt: Type.Integer(),
})
export type ScanLoginRequest = Static<typeof ScanLoginRequest>
