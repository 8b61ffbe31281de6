/** SPEC section 9 display rules. Pure: the current time is always a parameter. */

export type TimeInput = number | string | Date

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const WEEK = 7 * DAY
const MONTH = 30 * DAY

export function toMillis(time: TimeInput): number {
  if (time instanceof Date) return time.getTime()
  if (typeof time === 'number') return time
  const numeric = Number(time)
  if (time.trim() !== '' && !Number.isNaN(numeric)) return numeric
  // 'YYYY-MM-DD HH:mm:ss' is not ISO for every JS engine (iOS): use slashes.
  return new Date(time.replace(/-/g, '/')).getTime()
}

const pad2 = (n: number) => String(n).padStart(2, '0')

/** YYYY-MM-DD in local time. */
export function formatDate(time: TimeInput): string {
  const d = new Date(toMillis(time))
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`
}

/** YYYY-MM-DD HH:mm:ss in local time. */
export function formatDateTime(time: TimeInput): string {
  const d = new Date(toMillis(time))
  return `${formatDate(d)} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`
}

/**
 * Relative time, reading one: 刚刚 under a minute, then minutes, hours, days, weeks and months ago;
 * beyond 12 months the full date; a time in the future shows 不久前.
 */
export function timeAgo(time: TimeInput, now: number): string {
  const diff = now - toMillis(time)
  if (diff < 0) return '不久前'
  if (diff < MINUTE) return '刚刚'
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}分钟前`
  if (diff < DAY) return `${Math.floor(diff / HOUR)}小时前`
  if (diff < WEEK) return `${Math.floor(diff / DAY)}天前`
  if (diff < MONTH) return `${Math.floor(diff / WEEK)}周前`
  const months = Math.floor(diff / MONTH)
  if (months <= 12) return `${months}个月前`
  return formatDate(time)
}

/**
 * SPEC 9: 13812345678 → 138****5678. Anything that is not an 11-digit number becomes *** (never shown
 * half-masked); no number at all stays empty. Client and server (logs, other users' numbers) use this.
 */
export function maskPhone(phone: string | null | undefined): string {
  const s = String(phone ?? '')
  if (!s) return ''
  return s.length === 11 ? `${s.slice(0, 3)}****${s.slice(7)}` : '***'
}

/** SPEC 9: the first 5 and last 5 characters kept, the rest *; a value too short for that is all *. */
export function maskIdCard(idCard: string | null | undefined): string {
  const s = String(idCard ?? '')
    .trim()
    .toUpperCase()
  if (s.length <= 10) return '*'.repeat(s.length)
  return `${s.slice(0, 5)}${'*'.repeat(s.length - 10)}${s.slice(-5)}`
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const

/** File size, reading one: B through YB on a 1024 base, at most 2 decimals ('1.5 KB'). */
export function formatBytes(bytes: number): string {
  if (!bytes || bytes < 0) return '0 B'
  const i = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1)
  return `${parseFloat((bytes / 1024 ** i).toFixed(2))} ${SIZE_UNITS[i]}`
}

/** Prices travel in fen (integer). '12.30' for 1230. */
export function fenToYuan(fen: number | null | undefined): string {
  return (Math.round(Number(fen) || 0) / 100).toFixed(2)
}

/** Money as the site writes it everywhere: '¥12.30', a discount '-¥5.00'. */
export function formatYuan(fen: number | null | undefined): string {
  const value = Math.round(Number(fen) || 0)
  return `${value < 0 ? '-' : ''}¥${fenToYuan(Math.abs(value))}`
}

/** A price line's unit price: '¥15.00 × 2'; a discount line (a coupon) just '-¥5.00'. */
export function formatLinePrice(line: { unitPrice: number; quantity: number }): string {
  return line.unitPrice < 0 && line.quantity === 1
    ? formatYuan(line.unitPrice)
    : `${formatYuan(line.unitPrice)} × ${line.quantity}`
}

/** Value text of a coupon: 元 from fen, 折 for discount coupons (type 3), nothing for type 5. */
export function couponValueText(coupon: { couponType: number; parValue: number }): string {
  if (coupon.couponType === 5) return ''
  if (coupon.couponType === 3) return `${coupon.parValue / 10}折`
  return `${coupon.parValue / 100}元`
}
