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
