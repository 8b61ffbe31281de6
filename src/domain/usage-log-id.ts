/** SPEC 3 "Usage log id object": `${timestamp}_${userId padded to 10}_${7-digit random}`. */
export interface UsageLogId {
  time: number
  id: string
}

/** `random` returns a number in [0, 1), like Math.random. */
export function createUsageLogId(
  now: number,
  userId: string | number | null | undefined,
  random: () => number,
): UsageLogId {
  const user = String(userId ?? '0').padStart(10, '0')
  const suffix = 1_000_000 + Math.floor(random() * 9_000_000)
  return { time: now, id: `${now}_${user}_${suffix}` }
}
