/**
 * Cover screenshots for the multi view: only phones on screen are fetched, at most
 * `maxInFlight` requests at once, each visible running phone again every `refreshMs`; a failed or
 * pending fetch keeps the last frame. Time and timers are injected so the rules are tested with fake
 * timers.
 */
import type { Timers } from '@/stores/deps'

export interface CoverFrame {
  url: string
  updatedAt: number
}

export interface CoverQueueDeps {
  fetchCover(deviceId: number): Promise<CoverFrame>
  now(): number
  timers: Timers
  /** called whenever a phone gets a new frame */
  onFrame(deviceId: number, frame: CoverFrame): void
  maxInFlight?: number
  refreshMs?: number
  /** how often due phones are looked for */
  tickMs?: number
}

export const COVER_MAX_IN_FLIGHT = 4
export const COVER_REFRESH_MS = 10_000
const TICK_MS = 1_000

export function createCoverQueue(deps: CoverQueueDeps) {
  const maxInFlight = deps.maxInFlight ?? COVER_MAX_IN_FLIGHT
  const refreshMs = deps.refreshMs ?? COVER_REFRESH_MS
  const frames = new Map<number, CoverFrame>()
  /** when each phone's last fetch finished (success or not) */
  const fetchedAt = new Map<number, number>()
  const inFlight = new Set<number>()
  /** ids waiting for a slot, in visible order; forced ones go first */
  let waiting: number[] = []
  let visible: number[] = []
  let timer: unknown = null
  let disposed = false
  /** page hidden: nothing is fetched, the timer stops */
  let paused = false

  const isDue = (id: number) => {
    const at = fetchedAt.get(id)
    return at === undefined || deps.now() - at >= refreshMs
  }

  function start(id: number) {
    inFlight.add(id)
    deps
      .fetchCover(id)
      .then((frame) => {
        if (disposed) return
        frames.set(id, frame)
        deps.onFrame(id, frame)
      })
      .catch(() => undefined) // the last frame stays; the phone is tried again when due
      .finally(() => {
        inFlight.delete(id)
        fetchedAt.set(id, deps.now())
        if (!disposed) pump()
      })
  }

  function pump() {
    while (!paused && inFlight.size < maxInFlight && waiting.length > 0) {
      start(waiting.shift()!)
    }
  }

  function enqueueDue() {
    for (const id of visible) {
      if (!inFlight.has(id) && !waiting.includes(id) && isDue(id)) waiting.push(id)
    }
    pump()
  }

  function ensureTimer() {
    const wanted = visible.length > 0 && !paused
    if (wanted && timer === null) {
      timer = deps.timers.setInterval(enqueueDue, deps.tickMs ?? TICK_MS)
    } else if (!wanted && timer !== null) {
      deps.timers.clearInterval(timer)
      timer = null
    }
  }

  return {
    /** The running phones now on screen, most important first; others stop waiting. */
    setVisible(ids: number[]) {
      if (disposed) return
      visible = [...new Set(ids)]
      const shown = new Set(visible)
      waiting = waiting.filter((id) => shown.has(id))
      ensureTimer()
      enqueueDue()
    },
    /** While the page is hidden nothing is fetched; on resume due phones are fetched at once. */
    setPaused(value: boolean) {
      if (disposed || paused === value) return
      paused = value
      ensureTimer()
      if (!paused) enqueueDue()
    },
    /** Fetch this phone's cover next, due or not (刷新画面). */
    refresh(id: number) {
      if (disposed || inFlight.has(id)) return
      waiting = [id, ...waiting.filter((w) => w !== id)]
      pump()
    },
    frame: (id: number): CoverFrame | undefined => frames.get(id),
    inFlight: () => inFlight.size,
    waiting: () => [...waiting],
    dispose() {
      disposed = true
      visible = []
      waiting = []
      ensureTimer()
    },
  }
}

export type CoverQueue = ReturnType<typeof createCoverQueue>
