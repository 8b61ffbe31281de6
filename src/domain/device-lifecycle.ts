/** Cloud-phone lifecycle (docs/cloud-phones.md "Devices"): running → expired at expireAt → released 2 h later. */
import { formatDateTime } from './formatters'

export const DeviceStatus = {
  creating: 0,
  running: 1,
  expired: 2,
  released: 3,
  rebooting: 4,
  failed: 5,
} as const
export type DeviceStatus = (typeof DeviceStatus)[keyof typeof DeviceStatus]

export const deviceStatusLabels: Record<DeviceStatus, string> = {
  0: '创建中',
  1: '运行中',
  2: '已到期',
  3: '已释放',
  4: '重启中',
  5: '创建失败',
}

/** Expired phones are kept this long before release (SPEC 1). */
export const RETENTION_MS = 2 * 3600_000
/** A running phone with less than this left is "expiring soon" (and see isExpiringSoon). */
export const EXPIRING_SOON_MS = 3 * 86_400_000

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const DAY_MS = 24 * HOUR_MS

const isLive = (status: number) =>
  status === DeviceStatus.running || status === DeviceStatus.rebooting

/**
 * Where time has taken a phone: live phones expire at expireAt, expired ones are released RETENTION_MS
 * later. A live phone found past both (e.g. after downtime) goes straight to released.
 */
export function nextStatus(d: { status: number; expireAt: number }, now: number): number {
  if (!isLive(d.status) && d.status !== DeviceStatus.expired) return d.status
  if (now >= releaseAt(d.expireAt)) return DeviceStatus.released
  if (now >= d.expireAt) return DeviceStatus.expired
  return d.status
}

export function releaseAt(expireAt: number): number {
  return expireAt + RETENTION_MS
}

export function remainingMs(expireAt: number, now: number): number {
  return Math.max(0, expireAt - now)
}

/** '剩余3天5小时', '剩余5小时12分', '剩余12分钟', '已到期'. */
export function remainingText(expireAt: number, now: number): string {
  const left = remainingMs(expireAt, now)
  if (left <= 0) return '已到期'
  const days = Math.floor(left / DAY_MS)
  const hours = Math.floor((left % DAY_MS) / HOUR_MS)
  const minutes = Math.floor((left % HOUR_MS) / MINUTE_MS)
  if (days > 0) return hours > 0 ? `剩余${days}天${hours}小时` : `剩余${days}天`
  if (hours > 0) return minutes > 0 ? `剩余${hours}小时${minutes}分` : `剩余${hours}小时`
  return `剩余${Math.max(1, minutes)}分钟`
}

/**
 * Less than EXPIRING_SOON_MS left, and less than the phone has already lived: a phone bought for one
 * day is not told to renew the moment it arrives, only in its second half (after 12 h), and one of
 * three days in its last 36 h; a phone older than 3 days is told in its last 3 days (docs/cloud-phones.md).
 */
export function isExpiringSoon(
  d: { status: number; expireAt: number; createdAt: number },
  now: number,
): boolean {
  const left = remainingMs(d.expireAt, now)
  return isLive(nextStatus(d, now)) && left < EXPIRING_SOON_MS && left < now - d.createdAt
}

export type ExpiryBanner = { kind: 'expired' | 'expiringSoon'; text: string }

/**
 * The banner on a phone: the configured renewalReminderMsg once it has expired (and is not yet released),
 * the expiry time while it is expiring soon (isExpiringSoon), else nothing. Only the owner can renew, so a
 * phone authorised to me (`grant`) names the owner to ask instead.
 */
export function expiryBanner(
  d: {
    status: number
    expireAt: number
    createdAt: number
    grant?: { ownerMobile: string } | null
  },
  now: number,
  renewalReminderMsg: string,
): ExpiryBanner | null {
  const askOwner = d.grant ? `请联系机主${d.grant.ownerMobile}续费` : null
  if (nextStatus(d, now) === DeviceStatus.expired) {
    return { kind: 'expired', text: askOwner ? `云手机已到期，${askOwner}` : renewalReminderMsg }
  }
  if (isExpiringSoon(d, now)) {
    const at = formatDateTime(d.expireAt).slice(0, 16)
    return { kind: 'expiringSoon', text: `云手机将于${at}到期，${askOwner ?? '请及时续费'}` }
  }
  return null
}

/** Renewal brings an expired (not yet released) phone back; creating, failed and released ones cannot. */
export function canRenew(status: number): boolean {
  return isLive(status) || status === DeviceStatus.expired
}

export function acceptsCommands(status: number): boolean {
  return status === DeviceStatus.running
}

const refusals: Record<Exclude<DeviceStatus, typeof DeviceStatus.running>, string> = {
  [DeviceStatus.creating]: '云手机创建中，请稍后再试',
  [DeviceStatus.expired]: '云手机已到期，请续费后再操作',
  [DeviceStatus.released]: '云手机已释放',
  [DeviceStatus.rebooting]: '云手机重启中，请稍后',
  [DeviceStatus.failed]: '云手机创建失败，请更换云机',
}

/** Why a phone in this status refuses a command; null when it accepts commands. */
export function statusCommandRefusal(status: number): string | null {
  if (acceptsCommands(status)) return null
  return refusals[status as keyof typeof refusals] ?? '云手机状态异常，请刷新后重试'
}
