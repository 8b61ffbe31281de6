export const SMS_TYPES = [
  'login',
  'changeOld',
  'changeNew',
  'deleteAccount',
  'setPassword',
  'transfer',
] as const
export type SmsType = (typeof SMS_TYPES)[number]

/** Types whose code goes to the caller's own number (the request's mobilePhone is ignored). */
export const OWN_NUMBER_SMS_TYPES: readonly SmsType[] = ['changeOld', 'deleteAccount', 'transfer']

export const SMS_CODE_TTL_MS = 5 * 60_000
export const SMS_RESEND_INTERVAL_MS = 60_000
export const SMS_DAILY_QUOTA = 10
/** Wrong guesses a code takes before it is burned, so 6 digits cannot be brute-forced. */
export const MAX_WRONG_GUESSES = 5

export const isSmsType = (value: string): value is SmsType =>
  (SMS_TYPES as readonly string[]).includes(value)

/** Quota days follow China time (UTC+8), whatever the server's time zone. */
const CHINA_OFFSET_MS = 8 * 3_600_000

export function startOfChinaDay(now: Date): Date {
  const shifted = now.getTime() + CHINA_OFFSET_MS
  return new Date(shifted - (shifted % 86_400_000) - CHINA_OFFSET_MS)
}

/** Whole seconds left before the same number+type may get another code; 0 means it may be sent now. */
export function resendWaitSeconds(lastSentAt: Date | null, now: Date): number {
  if (!lastSentAt) return 0
  const waitMs = lastSentAt.getTime() + SMS_RESEND_INTERVAL_MS - now.getTime()
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0
}
