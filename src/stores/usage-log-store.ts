/** SPEC 4 "Usage session": usage reports every 30 s while shown, a new log id after 45 s hidden. */
import { makeAutoObservable } from 'mobx'
import {
  USAGE_EXIT_DEDUP_MS,
  USAGE_NEW_SESSION_AFTER_HIDDEN_MS,
  USAGE_REPORT_INTERVAL_MS,
} from '@/constants/limits'
import { createUsageLogId } from '@/domain/usage-log-id'
import type { AppStore } from './app-store'
import type { RootStoreDeps } from './deps'
import type { SessionStore } from './session-store'

type UsageDeps = Pick<RootStoreDeps, 'api' | 'clock' | 'timers' | 'platform'> & {
  app: AppStore
  session: SessionStore
  random: () => number
  currentPath?: () => string
}

export class UsageLogStore {
  /** true while the 30 s report timer runs */
  running = false
  private timer: unknown = null

  constructor(private readonly deps: UsageDeps) {
    makeAutoObservable<UsageLogStore, 'deps' | 'timer'>(
      this,
      { deps: false, timer: false },
      { autoBind: true },
    )
  }

  /**
   * App shown (or a page shown): pick the log id, report now and every 30 s. `path`: the page being
   * shown, when the caller knows it better than the page stack (the mini-program's App onShow runs
   * before its first page exists; WeChat names that page in the show options).
   */
  onShow(path?: string) {
    const { app, clock, session, random } = this.deps
    const now = clock.now()
    if (path !== undefined) app.setOnPath(path)
    const hiddenFor = app.hideTime === null ? 0 : now - app.hideTime
    if (!app.logId || hiddenFor >= USAGE_NEW_SESSION_AFTER_HIDDEN_MS) {
      app.setLogId(createUsageLogId(now, session.userId, random))
    }
    app.setHideTime(null)
    this.stop()
    void this.report(0, path)
    this.timer = this.deps.timers.setInterval(() => void this.report(0), USAGE_REPORT_INTERVAL_MS)
    this.running = true
  }

  /** App hidden: stop reporting and remember when. */
  onHide() {
    this.stop()
    this.deps.app.setHideTime(this.deps.clock.now())
  }

  /** Leaving for good: a final report, skipped within 1 s of the log id time. */
  async onExit(): Promise<void> {
    this.stop()
    const logId = this.deps.app.logId
    if (!logId || this.deps.clock.now() - logId.time < USAGE_EXIT_DEDUP_MS) return
    await this.report(1)
  }

  /** Record the page being viewed (sent as accessingPages). */
  setPath(path: string) {
    this.deps.app.setOnPath(path)
  }

  /** `page`: the page to name instead of the top of the page stack. */
  async report(exitMark: 0 | 1, page?: string): Promise<void> {
    const { app, api, platform, currentPath } = this.deps
    if (!app.logId) return
    try {
      await api.common.saveUserUsageLog({
        logId: app.logId.id,
        client: platform.clientType,
        version: 1,
        terminalType: platform.terminalType(),
        accessingPages: page || currentPath?.() || app.onPath,
        exitMark,
      })
    } catch {
      // SPEC 4: the timer stops on a report error; usage logs never bother the user
      this.stop()
    }
  }

  stop() {
    if (this.timer !== null) this.deps.timers.clearInterval(this.timer)
    this.timer = null
    this.running = false
  }
}
