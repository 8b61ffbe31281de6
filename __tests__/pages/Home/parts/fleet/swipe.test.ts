import { stepIndex, swipeDirection } from '@/pages/Home/parts/fleet/swipe'

describe('single view swipe', () => {
  it('treats a long sideways move as a swipe and a short or vertical one as none', () => {
    expect(swipeDirection(-80, 10)).toBe('next')
    expect(swipeDirection(80, -10)).toBe('prev')
    expect(swipeDirection(-30, 0)).toBeNull()
    expect(swipeDirection(-80, 120)).toBeNull()
  })

  it('stays inside the list', () => {
    expect(stepIndex(0, 'prev', 3)).toBe(0)
    expect(stepIndex(2, 'next', 3)).toBe(2)
    expect(stepIndex(1, 'next', 3)).toBe(2)
    expect(stepIndex(0, 'next', 0)).toBe(0)
  })
})
