/**
 * SPEC 9 "async page load delay 200 ms": while the code of the page being opened is still loading
 * (H5: its chunk, fetched by @tarojs/router; mini-program: its sub-package download), show 加载中 —
 * but only if the page has not appeared within 200 ms, so fast navigations never flash it. It goes
 * away when the page appears; a load that fails hides it and says so.
 *
 * `createPageLoading` is the timing logic on injected timers and UI (unit-tested with fake timers);
 * app.tsx feeds it the runtime's route events (see route-events.ts).
 */
export const PAGE_LOAD_FAILED_MESSAGE = '页面加载失败，请检查网络后重试'

export interface PageLoadingDeps {
  delayMs: number
  setTimer(run: () => void, ms: number): unknown
  clearTimer(handle: unknown): void
  /** route of the page on screen ('' before the first page) */
  currentRoute(): string
  showLoading(): void
  hideLoading(): void
  toast(message: string): void
}

export interface PageLoading {
  /** a navigation to `path` started */
  start(path: string): void
  /** a page appeared */
  appeared(): void
  /** the navigation failed to load its page; `loud`: say so even if 加载中 never showed */
  failed(loud?: boolean): void
  readonly showing: boolean
}

const routeOf = (path: string) => path.replace(/^\/+/, '').split('?')[0]

export function createPageLoading(deps: PageLoadingDeps): PageLoading {
  let timer: unknown
  let target: string | undefined
  let showing = false

  const settle = () => {
    if (timer !== undefined) deps.clearTimer(timer)
    timer = undefined
    target = undefined
    if (showing) {
      showing = false
      deps.hideLoading()
    }
  }

  return {
    start(path) {
      if (timer !== undefined) deps.clearTimer(timer)
      target = routeOf(path)
      timer = deps.setTimer(() => {
        timer = undefined
        // the page is already there (same tab tapped again, a cached page shown)
        if (target === undefined || routeOf(deps.currentRoute()) === target) return
        if (!showing) deps.showLoading()
        showing = true
      }, deps.delayMs)
    },
    appeared: settle,
    failed(loud = false) {
      const wasShowing = showing
      const pending = target !== undefined
      settle()
      if (wasShowing || (loud && pending)) deps.toast(PAGE_LOAD_FAILED_MESSAGE)
    },
    get showing() {
      return showing
    },
  }
}

let active: PageLoading | undefined
let tracksNavigations = false

/**
 * Install the tracker. `trackNavigations`: the runtime has no route-start event of its own (the
 * mini-program), so navigation.ts's calls start it and their outcome ends it.
 */
export function installPageLoading(tracker: PageLoading, options: { trackNavigations: boolean }) {
  active = tracker
  tracksNavigations = options.trackNavigations
}

/** Run a navigation call; in the mini-program it drives the tracker (success = the page is open). */
export function trackNavigation<T>(path: string, navigate: () => Promise<T>): Promise<T> {
  const tracker = tracksNavigations ? active : undefined
  if (!tracker) return navigate()
  tracker.start(path)
  return navigate().then(
    (result) => {
      tracker.appeared()
      return result
    },
    (error: unknown) => {
      tracker.failed(isLoadFailure(error))
      throw error
    },
  )
}

/** A page's code could not be fetched: webpack's ChunkLoadError, or a sub-package download failure. */
export function isLoadFailure(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { name, message, errMsg } = error as { name?: unknown; message?: unknown; errMsg?: unknown }
  if (name === 'ChunkLoadError') return true
  const text = `${typeof message === 'string' ? message : ''} ${typeof errMsg === 'string' ? errMsg : ''}`
  return /Loading (CSS )?chunk \S+ failed|subpackage|sub-package|分包/i.test(text)
}
