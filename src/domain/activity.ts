/** Activity time windows, the countdown text and why a seckill item cannot be bought (pure). */

export type ActivityPhase = 'upcoming' | 'running' | 'ended'

export function activityPhase(startsAt: number, endsAt: number, now: number): ActivityPhase {
  if (now < startsAt) return 'upcoming'
  return now < endsAt ? 'running' : 'ended'
}

const pad2 = (n: number) => String(n).padStart(2, '0')

/** 'HH:MM:SS' below a day, 'N天 HH:MM:SS' above; whole seconds rounded up, never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const days = Math.floor(total / 86_400)
  const h = Math.floor((total % 86_400) / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const clock = `${pad2(h)}:${pad2(m)}:${pad2(s)}`
  return days > 0 ? `${days}天 ${clock}` : clock
}

/** The line above the countdown: 距开始 / 距结束 with the time left, or 活动已结束. */
export function activityCountdown(
  startsAt: number,
  endsAt: number,
  now: number,
): { phase: ActivityPhase; label: string; time: string } {
  const phase = activityPhase(startsAt, endsAt, now)
  if (phase === 'upcoming') return { phase, label: '距开始', time: formatCountdown(startsAt - now) }
  if (phase === 'running') return { phase, label: '距结束', time: formatCountdown(endsAt - now) }
  return { phase, label: '活动已结束', time: '' }
}

/** Why the 立即抢购 button is disabled (its text then), or null when the item can be bought. */
export function seckillBlocker(
  item: { left: number; bought: boolean },
  phase: ActivityPhase,
): string | null {
  if (item.bought) return '已抢到'
  if (phase === 'upcoming') return '未开始'
  if (phase === 'ended') return '已结束'
  if (item.left <= 0) return '已抢光'
  return null
}
