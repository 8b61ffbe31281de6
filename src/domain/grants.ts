/** Authorisation center rules shared by the client and the server (docs/cloud-phones.md "Authorisation"). */

export const GrantPermission = { view: 1, control: 2 } as const
export type GrantPermissionValue = (typeof GrantPermission)[keyof typeof GrantPermission]

export const GRANT_PERMISSION_LABELS: Record<GrantPermissionValue, string> = {
  1: '仅查看',
  2: '可控制',
}

/** How long an authorisation may last, in days. */
export const GRANT_DAYS = [1, 7, 30, 90] as const

/** A QR share is accepted once, within this time. */
export const SHARE_CODE_TTL_MS = 24 * 3_600_000

/** What a share's QR code says (the scanner recognises this prefix). */
export const SHARE_QR_PREFIX = 'cloudphone:share:'

export function isGrantDays(days: number): boolean {
  return (GRANT_DAYS as readonly number[]).includes(days)
}

/** Whether a grant with `permission` allows what is asked: view needs any grant, control needs 2. */
export function grantAllows(permission: number, need: 'view' | 'control'): boolean {
  return need === 'view' ? permission === 1 || permission === 2 : permission === 2
}
