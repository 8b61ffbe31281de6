/**
 * H5: Home and Login arrive prerendered (scripts/prerender-h5.mjs), 创建云机 with the live catalogue
 * rendered in by the server: a snapshot in #prerendered covers the app, which mounts hidden beneath it.
 * Once the app's own page is on screen (and has its data, holdPrerender) the snapshot goes in one
 * step, so nothing flashes or moves; what the visitor typed into its fields goes to the page's.
 */
import Taro from '@tarojs/taro'
import { isLoadFailure } from './page-loading'

// @tarojs/router's events (as in route-events.ts): a page was loaded and shown; no page for the URL
const SHOWN = '__afterTaroRouterChange'
const NOT_FOUND = '__taroRouterNotFound'

type Listener = () => void

/** Pages holding the snapshot (holdPrerender), and what runs once the last lets go. */
let holds = 0
let whenReleased: Listener | null = null

/**
 * A page whose snapshot shows data (创建云机's catalogue, rendered by the server into its document)
 * keeps the snapshot until the page shows its own copy of the data: call it as the page first renders,
 * and the function it returns once the page has the data or has given up on it.
 */
export function holdPrerender(): () => void {
  if (process.env.TARO_ENV !== 'h5' || !document.getElementById('prerendered'))
    return () => undefined
  holds += 1
  let released = false
  return () => {
    if (released) return
    released = true
    holds -= 1
    if (holds === 0) whenReleased?.()
  }
}

interface EventCenter {
  on(event: string, listener: Listener): unknown
  off(event: string, listener: Listener): unknown
}

export function handOverPrerender(eventCenter: EventCenter = Taro.eventCenter): void {
  const snapshot = document.getElementById('prerendered')
  if (!snapshot) return

  const handOver = async () => {
    eventCenter.off(SHOWN, shown)
    eventCenter.off(NOT_FOUND, handOver)
    window.removeEventListener('unhandledrejection', failed)
    const app = [...document.body.children].filter((element) => element !== snapshot)
    const inside = <K extends keyof HTMLElementTagNameMap>(tag: K) =>
      app.flatMap((element) => [...element.querySelectorAll(tag)])
    // the page's pictures must be ready to draw when they take the snapshot's place
    await Promise.all(inside('img').map((image) => image.decode().catch(() => undefined)))
    const inputs = inside('input')
    const focused = document.activeElement
    snapshot.querySelectorAll('input').forEach((typed, index) => {
      const input = inputs[index]
      if (!input) return
      if (typed.value && !input.value) {
        input.value = typed.value
        // Taro's input reports the native event's value to the page's onChange
        input.dispatchEvent(new Event('input', { bubbles: true }))
      }
      if (typed === focused) input.focus()
    })
    snapshot.remove()
    // the app has added the same styles by now
    document.getElementById('prerendered-style')?.remove()
    document.documentElement.classList.remove('no-prerender')
  }
  // the page's code did not load: the app's own failure feedback must not stay hidden
  const failed = (event: PromiseRejectionEvent) => {
    if (isLoadFailure(event.reason)) void handOver()
  }

  const shown = () => {
    eventCenter.off(SHOWN, shown)
    if (holds === 0) return void handOver()
    whenReleased = () => void handOver()
  }
  eventCenter.on(SHOWN, shown)
  eventCenter.on(NOT_FOUND, handOver)
  window.addEventListener('unhandledrejection', failed)
}
