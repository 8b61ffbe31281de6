/** What the stores are built on; the app passes the real ones, tests pass fakes. */
import type { Api } from '@/api'
import type { KeyValueStorage, Platform } from '@/platform/types'

export interface Clock {
  now(): number
}

export interface Timers {
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(id: unknown): void
}

export type StorePlatform = Pick<
  Platform,
  | 'runtime'
  | 'clientType'
  | 'defaultChannel'
  | 'terminalType'
  | 'getDeviceInfo'
  | 'setCookies'
  | 'removeCookies'
  | 'isWeChatBrowser'
  | 'wechatLogin'
>

export interface RootStoreDeps {
  api: Api
  storage: KeyValueStorage
  clock: Clock
  timers: Timers
  platform: StorePlatform
  /** [0, 1) random source for usage log ids; default Math.random */
  random?: () => number
  /** the current page path for usage reports; default: the path the app last recorded */
  currentPath?: () => string
}

export const systemTimers: Timers = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
}

export const systemClock: Clock = { now: () => Date.now() }
