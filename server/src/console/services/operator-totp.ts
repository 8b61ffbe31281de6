import { generateSecret, generateURI, verifySync } from 'otplib'

/** Shown by authenticator apps above the code. */
const ISSUER = '云手机运营后台'
/** RFC 6238's 30 s step; a code of the step before or after the server's is accepted too (clock drift). */
const TOLERANCE_SECONDS = 30

/** A fresh 160-bit secret, base32 (what authenticator apps take). */
export const newTotpSecret = (): string => generateSecret()

/** otpauth://totp/… for the operator's authenticator app (its QR code). */
export const otpauthUrl = (name: string, secret: string): string =>
  generateURI({ issuer: ISSUER, label: name, secret })

/**
 * The time step `code` belongs to when it is valid now (±1 step) and later than `afterStep`, the last
 * step this operator used: a code is good once. null for any other code, including malformed ones.
 */
export function acceptedTotpStep(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null
  try {
    const result = verifySync({
      secret,
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: TOLERANCE_SECONDS,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    })
    return result.valid && 'timeStep' in result ? result.timeStep : null
  } catch {
    return null
  }
}
