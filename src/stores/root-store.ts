/** One RootStore builds every store on injected dependencies and is shared by React context. */
import { AppStore } from './app-store'
import type { RootStoreDeps } from './deps'
import { FleetStore } from './fleet-store'
import { SessionStore } from './session-store'
import { UnreadStore } from './unread-store'
import { UsageLogStore } from './usage-log-store'

export class RootStore {
  readonly app: AppStore
  readonly session: SessionStore
  readonly usage: UsageLogStore
  readonly unread: UnreadStore
  readonly fleet: FleetStore

  constructor(readonly deps: RootStoreDeps) {
    this.app = new AppStore(deps.storage)
    this.session = new SessionStore(deps)
    this.usage = new UsageLogStore({
      ...deps,
      app: this.app,
      session: this.session,
      random: deps.random ?? Math.random,
    })
    this.unread = new UnreadStore({ ...deps, session: this.session })
    this.fleet = new FleetStore({ api: deps.api, storage: deps.storage, app: this.app })
  }

  /** Stops timers and reactions (tests, hot reload). */
  dispose() {
    this.unread.dispose()
    this.usage.stop()
  }
}
