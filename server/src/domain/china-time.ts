/** Times shown to users by the server (messages, sandbox screens) are China Standard Time, UTC+8 all year. */
const CST_OFFSET_MS = 8 * 3600_000

/** '2026-03-02 10:00' in China Standard Time, whatever the server's own time zone. */
export function chinaDateTime(ms: number): string {
  return new Date(ms + CST_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ')
}

/** '10:00' in China Standard Time. */
export function chinaClock(ms: number): string {
  return chinaDateTime(ms).slice(11)
}
