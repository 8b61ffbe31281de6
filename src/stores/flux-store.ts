/**
 * Screens follow the server (docs/cloud-phones.md): one store asks /user/flux what of the user's is in
 * flux while a shown page watches an area that is, and tells the page when what it shows changed.
 *
 * A page watches an area while it is shown (hooks/use-follow.ts): the store asks at once, then again
 * after 1 s, waiting half as long again after each answer that changed nothing (at most 5 s), and
 * stops when no watched area is in flux — or when the page says it shows something in flux that the
 * server has settled, after telling it to load again. A page's watch ends when it hides or unmounts.
 *
 * One instance, `flux`, outside the RootStore: only signed-in pages use it, so it stays out of the H5
 * first route (check:h5); in the mini-program the fleet (main package) imports it, so every
 * sub-package shares the main package's instance.
 */
import { makeAutoObservable, observableRef, runInAction } from 'mobx'
import type { UserFlux } from '@/types/api'
import { getFlux } from '@/api/flux'
import { areaFlux, nextFollowDelay, type FluxArea } from '@/domain/flux'
import { ApiError, NETWORK_ERROR_CODE } from '@/runtime/api-error'

export interface FluxTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(id: unknown): void
}

export interface FluxDeps {
  read: () => Promise<UserFlux>
  timers: FluxTimers
}

export interface FluxWatch {
  area: FluxArea
  /** the page loads what it shows again */
  onChange: () => unknown
  /** the page shows something still changing (a phone creating, a task running, an order unpaid) */
  pending?: () => boolean
}

interface Watching extends FluxWatch {
  /**
   * The area's version at the last answer before or during the watch; null when there was none (the
   * app's first, or the first after reset()).
   */
  seen: string | null
}

export class FluxStore {
  /** the last answer (null before the first, and after logout) */
  current: UserFlux | null = null
  private readonly watching = new Set<Watching>()
  private timer: unknown = null
  private delay: number | null = null
  private asking = false
  /** asked for while an ask was on its way: ask again as soon as it is answered */
  private again = false
  /** answers of asks made before reset() are dropped */
  private epoch = 0

  constructor(private readonly deps: FluxDeps) {
    makeAutoObservable<
      FluxStore,
      'deps' | 'watching' | 'timer' | 'delay' | 'asking' | 'again' | 'epoch'
    >(
      this,
      {
        deps: false,
        watching: false,
        timer: false,
        delay: false,
        asking: false,
        again: false,
        epoch: false,
        current: observableRef,
      },
      { autoBind: true },
    )
  }

  /**
   * Follows `area` for a shown page until the returned function is called; asks at once.
   *
   * The page loads what it shows as the watch begins, so the first answer may already show a change
   * the page's own read missed (a recharge credited between the two). So the watch compares that
   * answer with the store's last one, read before the page loaded (the fleet and wallet versions only
   * move forward; the space and pay pages also say what they show as `pending`), and with no earlier
   * answer to compare it has the page load again once if the area has settled.
   */
  watch(watch: FluxWatch): () => void {
    const seen = this.current ? areaFlux(this.current, watch.area).version : null
    const watching: Watching = { ...watch, seen }
    this.watching.add(watching)
    this.askNow()
    return () => {
      this.watching.delete(watching)
      if (this.watching.size === 0) this.stop()
    }
  }

  /** Asks at once (a page just started something that changes by itself): back to the first wait. */
  askNow() {
    if (this.watching.size === 0) return
    this.delay = null
    this.askSoon(0)
  }

  /** Logout, account switch: another account's state is not shown or followed. */
  reset() {
    this.epoch += 1
    this.current = null
    for (const watching of this.watching) watching.seen = null
  }

  private stop() {
    if (this.timer !== null) this.deps.timers.clearTimeout(this.timer)
    this.timer = null
  }

  private askSoon(ms: number) {
    this.stop()
    this.timer = this.deps.timers.setTimeout(() => {
      this.timer = null
      void this.ask()
    }, ms)
  }

  /** One round: read, tell each watcher whose area changed, and ask again while anything is in flux. */
  private async ask() {
    if (this.watching.size === 0) return
    if (this.asking) {
      this.again = true
      return
    }
    this.asking = true
    this.again = false
    const epoch = this.epoch
    let answer: UserFlux | null = null
    let refused = false
    try {
      answer = await this.deps.read()
    } catch (error) {
      // the server refused (2017, a frozen account: the request layer has shown it): not asked again
      // until a page watches anew; the network failed: asked again later
      refused = error instanceof ApiError && error.code !== NETWORK_ERROR_CODE
    }
    this.asking = false
    if (this.watching.size === 0) return
    // another account's answer, or none: ask again (at once for the new account)
    if (epoch !== this.epoch || this.again) return this.askSoon(0)
    if (refused) return void (this.delay = null)
    if (!answer) return this.askSoon((this.delay = nextFollowDelay(this.delay, false)))
    runInAction(() => (this.current = answer))
    let changed = false
    let inFlux = false
    for (const watching of [...this.watching]) {
      const { busy, version } = areaFlux(answer, watching.area)
      // with no earlier answer a settled area may have settled after the page's read; a busy one
      // moves its version when it settles
      const moved = watching.seen === null ? !busy : watching.seen !== version
      watching.seen = version
      // the page shows something in flux that the server has settled: what it shows is stale
      const stale = !busy && (watching.pending?.() ?? false)
      if (moved || stale) {
        changed ||= moved
        void Promise.resolve()
          .then(watching.onChange)
          .catch(() => undefined)
      }
      inFlux ||= busy || stale
    }
    if (inFlux) this.askSoon((this.delay = nextFollowDelay(this.delay, changed)))
    else this.delay = null
  }
}

const browserTimers: FluxTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
}

/** The app's one follower (tests mock this module or build their own). */
export const flux = new FluxStore({ read: getFlux, timers: browserTimers })
