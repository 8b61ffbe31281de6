import {
  activityCountdown,
  activityPhase,
  formatCountdown,
  seckillBlocker,
} from '@/domain/activity'

const T0 = Date.UTC(2026, 2, 2, 2, 0, 0)
const HOUR = 3_600_000

describe('activity countdown', () => {
  it('formats hours, minutes and seconds, with days above a day, never negative', () => {
    expect(formatCountdown(0)).toBe('00:00:00')
    expect(formatCountdown(-5000)).toBe('00:00:00')
    expect(formatCountdown(59_001)).toBe('00:01:00')
    expect(formatCountdown(HOUR + 61_000)).toBe('01:01:01')
    expect(formatCountdown(2 * 24 * HOUR + 3 * HOUR + 4_000)).toBe('2天 03:00:04')
  })

  it('counts to the start, then to the end, then says it ended (fake clock)', () => {
    const starts = T0 + HOUR
    const ends = T0 + 3 * HOUR
    expect(activityCountdown(starts, ends, T0)).toEqual({
      phase: 'upcoming',
      label: '距开始',
      time: '01:00:00',
    })
    expect(activityCountdown(starts, ends, starts)).toEqual({
      phase: 'running',
      label: '距结束',
      time: '02:00:00',
    })
    expect(activityCountdown(starts, ends, ends - 1500).time).toBe('00:00:02')
    expect(activityCountdown(starts, ends, ends)).toEqual({
      phase: 'ended',
      label: '活动已结束',
      time: '',
    })
    expect(activityPhase(starts, ends, ends - 1)).toBe('running')
  })
})

describe('seckill button', () => {
  const open = { left: 3, bought: false }
  it('is enabled only while running with units left and not yet bought', () => {
    expect(seckillBlocker(open, 'running')).toBeNull()
    expect(seckillBlocker(open, 'upcoming')).toBe('未开始')
    expect(seckillBlocker(open, 'ended')).toBe('已结束')
    expect(seckillBlocker({ left: 0, bought: false }, 'running')).toBe('已抢光')
    expect(seckillBlocker({ left: 0, bought: true }, 'running')).toBe('已抢到')
  })
})
