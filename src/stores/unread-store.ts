/** Unread message counts, polled every 60 s while logged in (SPEC 4). */
import { makeAutoObservable, reaction, runInAction } from 'mobx'
import type { UnreadCount } from '@/types/api'
import { UNREAD_POLL_MS } from '@/constants/limits'
import { errorMessage } from '@/runtime/api-error'
import type { RootStoreDeps } from './deps'
import type { SessionStore } from './session-store'

type UnreadDeps = Pick<RootStoreDeps, 'api' | 'timers'> & { session: SessionStore }

const EMPTY: UnreadCount = {
  unreadCount: 0,
  longAll: 0,
  longNotice: 0,
  longRenewal: 0,
  longTransfer: 0,
  longCreate: 0,
  longSystem: 0,
  longApply: 0,
  longAuthentication: 0,
  longExamine: 0,
  longSettlement: 0,
  longSigncontract: 0,
}

export class UnreadStore {
  counts: UnreadCount = { ...EMPTY }
  /** message of the last failed poll, '' after a good one */
  lastError = ''
  polling = false
  private timer: unknown = null
  private readonly disposeReaction: () => void

  constructor(private readonly deps: UnreadDeps) {
    makeAutoObservable<UnreadStore, 'deps' | 'timer' | 'disposeReaction'>(
      this,
      { deps: false, timer: false, disposeReaction: false },
      { autoBind: true },
    )
    // Poll while there is a token; a new token (login, account switch) restarts the poll.
    this.disposeReaction = reaction(
      () => deps.session.token,
      (token) => (token ? this.start() : this.stop(true)),
      { fireImmediately: true },
    )
  }

  get total(): number {
    return this.counts.longAll || this.counts.unreadCount
  }

  /** per-category count by message type 1..5 */
  byType(type: number): number {
    const c = this.counts
    return [0, c.longNotice, c.longRenewal, c.longTransfer, c.longCreate, c.longSystem][type] ?? 0
  }

  start() {
    this.stop(false)
    void this.refresh()
    this.timer = this.deps.timers.setInterval(() => void this.refresh(), UNREAD_POLL_MS)
    this.polling = true
  }

  stop(reset = true) {
    if (this.timer !== null) this.deps.timers.clearInterval(this.timer)
    this.timer = null
    this.polling = false
    if (reset) this.reset()
  }

  reset() {
    this.counts = { ...EMPTY }
    this.lastError = ''
  }

  async refresh(): Promise<void> {
    try {
      const counts = await this.deps.api.message.getUnreadCount({ loading: false })
      runInAction(() => {
        if (this.deps.session.token) this.counts = { ...EMPTY, ...counts }
        this.lastError = ''
      })
    } catch (error) {
      runInAction(() => {
        this.lastError = errorMessage(error)
      })
    }
  }

  dispose() {
    this.disposeReaction()
    this.stop(false)
  }
}
