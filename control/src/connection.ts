/** The stream's connection: reconnect back-off, idle timing and the indicator's text. */

/** Waits before each reconnect: 1, 2, 4, 8, 16 s, then the page gives up (screenshots). */
export const RECONNECT_DELAYS_MS = [1000, 2000, 4000, 8000, 16000] as const

export class Backoff {
  private attempt = 0
  constructor(private readonly delays: readonly number[] = RECONNECT_DELAYS_MS) {}
  /** The next wait and which try it is (1-based), or null when the tries are used up. */
  next(): { delayMs: number; attempt: number; of: number } | null {
    if (this.attempt >= this.delays.length) return null
    const delayMs = this.delays[this.attempt]
    this.attempt += 1
    return { delayMs, attempt: this.attempt, of: this.delays.length }
  }
  /** A stream that played again starts the count over. */
  reset() {
    this.attempt = 0
  }
}

export function reconnectText(delayMs: number, attempt: number, of: number): string {
  return `连接已断开，${Math.ceil(delayMs / 1000)} 秒后重连（第 ${attempt}/${of} 次）`
}

export type IdlePhase = 'active' | 'warned' | 'ended'

/**
 * Idle: `warn` after warnMs without a touch, `end` at endMs. A touch before the end is a resume; after
 * it only resume() (the overlay's one tap) starts again. Timers are injectable for the tests.
 */
export class IdleTimer {
  phase: IdlePhase = 'active'
  private warnTimer: ReturnType<typeof setTimeout> | null = null
  private endTimer: ReturnType<typeof setTimeout> | null = null

  constructor(
    private readonly limits: { warnMs: number; endMs: number },
    private readonly on: { warn: () => void; end: () => void; active: () => void },
    private readonly timers: {
      set: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>
      clear: (t: ReturnType<typeof setTimeout>) => void
    } = { set: (fn, ms) => setTimeout(fn, ms), clear: (t) => clearTimeout(t) },
  ) {}

  start() {
    this.stop()
    this.phase = 'active'
    this.warnTimer = this.timers.set(() => {
      this.phase = 'warned'
      this.on.warn()
    }, this.limits.warnMs)
    this.endTimer = this.timers.set(() => {
      this.phase = 'ended'
      this.on.end()
    }, this.limits.endMs)
  }

  /** A touch, a key, a button: counts as activity unless the session already ended for idleness. */
  touch() {
    if (this.phase === 'ended') return
    const wasWarned = this.phase === 'warned'
    this.start()
    if (wasWarned) this.on.active()
  }

  resume() {
    this.start()
    this.on.active()
  }

  stop() {
    if (this.warnTimer) this.timers.clear(this.warnTimer)
    if (this.endTimer) this.timers.clear(this.endTimer)
    this.warnTimer = this.endTimer = null
  }
}

/** The indicator: '42 ms · 30 fps', and its level for the colour. */
export function statsText(stats: { rtt: number; receivedVideoFps: number }): {
  text: string
  level: 'good' | 'fair' | 'poor'
} {
  const rtt = Math.max(0, Math.round(stats.rtt))
  const fps = Math.max(0, Math.round(stats.receivedVideoFps))
  const level = rtt <= 80 && fps >= 24 ? 'good' : rtt <= 200 && fps >= 12 ? 'fair' : 'poor'
  return { text: `${rtt} ms · ${fps} fps`, level }
}
