/** A horizontal swipe: far enough sideways and more sideways than down. */
export const SWIPE_MIN_PX = 50

export function swipeDirection(dx: number, dy: number): 'next' | 'prev' | null {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= Math.abs(dy)) return null
  return dx < 0 ? 'next' : 'prev'
}

/** The index after a swipe, kept inside the list. */
export function stepIndex(index: number, direction: 'next' | 'prev', count: number): number {
  if (count <= 0) return 0
  const next = direction === 'next' ? index + 1 : index - 1
  return Math.min(count - 1, Math.max(0, next))
}
