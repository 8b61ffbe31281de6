/** Floating control ball of the phone control page: shared by the form and the server. */

/** The shortcuts the ball may offer, in display order. */
export const FLOATING_BALL_SHORTCUTS = [
  '返回',
  '主页',
  '多任务',
  '截图',
  '重启',
  '清理内存',
] as const
export type FloatingBallShortcut = (typeof FLOATING_BALL_SHORTCUTS)[number]

export const FLOATING_BALL_OPACITY = { min: 30, max: 100 } as const

export interface FloatingBallForm {
  visible: boolean
  side: string
  opacity: number
  shortcuts: string[]
}

/** The first problem with a floating-ball form as a Chinese message, or null when it is valid. */
export function floatingBallProblem(form: FloatingBallForm): string | null {
  if (form.side !== 'left' && form.side !== 'right') return '悬浮球位置只能是左侧或右侧'
  const { min, max } = FLOATING_BALL_OPACITY
  if (!Number.isInteger(form.opacity) || form.opacity < min || form.opacity > max) {
    return `透明度需在${min}%到${max}%之间`
  }
  const unknown = form.shortcuts.find(
    (s) => !(FLOATING_BALL_SHORTCUTS as readonly string[]).includes(s),
  )
  if (unknown !== undefined) return `不支持的快捷功能：${unknown}`
  return null
}

/** The chosen shortcuts in display order, without repeats. */
export function orderedShortcuts(shortcuts: readonly string[]): FloatingBallShortcut[] {
  return FLOATING_BALL_SHORTCUTS.filter((s) => shortcuts.includes(s))
}

/** A box on the page, in CSS pixels from the viewport's top left. */
export interface PageBox {
  left: number
  top: number
  width: number
  height: number
}

/** The ball's size and its gap to the viewport's edges and to what it must not cover. */
export interface BallMetrics {
  size: number
  margin: number
}

/** Whether a ball of `size` at (left, top) overlaps `box`. The control page's script embeds it. */
export function ballOverlaps(left: number, top: number, size: number, box: PageBox): boolean {
  return (
    left < box.left + box.width &&
    left + size > box.left &&
    top < box.top + box.height &&
    top + size > box.top
  )
}

/**
 * Where the ball starts on its side: the height nearest `preferredTop` at which it covers none of
 * `occupied` (the phone's screen, the page's title and buttons), so it hides no icon of the phone.
 * When the viewport has no such place, it sits on the bottom corner of the phone's screen, the strip
 * Android's navigation bar fills, whose corners hold no key. The control page's script embeds its
 * source and ballOverlaps's, so it names nothing else and has no inner named functions.
 */
export function ballStart(view: {
  viewport: { width: number; height: number }
  side: string
  occupied: PageBox[]
  screen: PageBox | null
  preferredTop: number
  ball: BallMetrics
}): { left: number; top: number } {
  const { size, margin } = view.ball
  const maxTop = Math.max(margin, view.viewport.height - margin - size)
  const left =
    view.side === 'right' ? Math.max(margin, view.viewport.width - margin - size) : margin
  const tops = [view.preferredTop]
    .concat(...view.occupied.map((b) => [b.top + b.height + margin, b.top - margin - size]))
    .map((top) => Math.min(Math.max(top, margin), maxTop))
    .filter((top) => view.occupied.every((b) => !ballOverlaps(left, top, size, b)))
    .sort((a, b) => Math.abs(a - view.preferredTop) - Math.abs(b - view.preferredTop))
  if (tops.length > 0) return { left, top: tops[0] }
  if (!view.screen) return { left, top: Math.min(Math.max(view.preferredTop, margin), maxTop) }
  const s = view.screen
  return {
    left: Math.max(0, view.side === 'right' ? s.left + s.width - size : s.left),
    top: Math.min(Math.max(s.top + s.height - size, 0), view.viewport.height - size),
  }
}

/** Where a ball being dragged to (left, top) is drawn: wholly inside the viewport. */
export function ballKeep(
  viewport: { width: number; height: number },
  ball: BallMetrics,
  left: number,
  top: number,
): { left: number; top: number } {
  return {
    left: Math.min(Math.max(left, 0), Math.max(0, viewport.width - ball.size)),
    top: Math.min(Math.max(top, 0), Math.max(0, viewport.height - ball.size)),
  }
}

/**
 * Where a dropped ball rests: on the nearer side (as the settings' 左侧/右侧), `margin` from that
 * edge, at the height it was dropped, inside the viewport.
 */
export function ballDrop(
  viewport: { width: number; height: number },
  ball: BallMetrics,
  left: number,
  top: number,
): { side: 'left' | 'right'; left: number; top: number } {
  const side = left + ball.size / 2 < viewport.width / 2 ? 'left' : 'right'
  return {
    side,
    left:
      side === 'left'
        ? ball.margin
        : Math.max(ball.margin, viewport.width - ball.margin - ball.size),
    top: Math.min(
      Math.max(top, ball.margin),
      Math.max(ball.margin, viewport.height - ball.margin - ball.size),
    ),
  }
}

/** A press that moved less than this (px) is a tap: it opens the ball's menu instead of dragging. */
export const BALL_TAP_SLOP = 6
