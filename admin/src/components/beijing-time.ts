/**
 * Every time the console shows is 北京时间 (Asia/Shanghai, UTC+8 all year), whatever the browser's zone:
 * operators and the users they talk to read the same clock. Titles say so (`inBeijing`).
 */
const UTC8_MS = 8 * 3600_000

/** 'YYYY-MM-DD HH:mm:ss' in 北京时间. */
export const beijingTime = (ms: number) =>
  new Date(ms + UTC8_MS).toISOString().slice(0, 19).replace('T', ' ')

/** 'YYYY-MM-DD HH:mm' in 北京时间. */
export const beijingMinute = (ms: number) => beijingTime(ms).slice(0, 16)

/** A time that may be missing: '—' for none. */
export const beijingOrDash = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? '—' : beijingTime(ms)

/** A title naming the zone its times are in: 创建时间（北京时间）. */
export const inBeijing = (title: string) => `${title}（北京时间）`

/**
 * A picker's value and back: the wall-clock fields of 北京时间 shown as the browser's own, so a date
 * picker (which works in the browser's zone) shows and takes 北京时间.
 */
export const beijingWallClock = (ms: number) => {
  const shown = new Date(ms + UTC8_MS)
  return new Date(
    shown.getUTCFullYear(),
    shown.getUTCMonth(),
    shown.getUTCDate(),
    shown.getUTCHours(),
    shown.getUTCMinutes(),
    shown.getUTCSeconds(),
  )
}
export const fromBeijingWallClock = (local: Date) =>
  Date.UTC(
    local.getFullYear(),
    local.getMonth(),
    local.getDate(),
    local.getHours(),
    local.getMinutes(),
    local.getSeconds(),
  ) - UTC8_MS
