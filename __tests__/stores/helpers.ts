import type { UserInfo } from '@/types/api'
import type { Api } from '@/api'
import type { KeyValueStorage } from '@/platform/types'
import { RootStore, type RootStoreDeps, type StorePlatform, type Timers } from '@/stores'

export function memoryStorage(initial: Record<string, unknown> = {}) {
  const data = new Map<string, unknown>(Object.entries(initial))
  const storage: KeyValueStorage = {
    get: <T>(key: string) => data.get(key) as T | undefined,
    set: (key, value) => void data.set(key, value),
    remove: (key) => void data.delete(key),
  }
  return { storage, data }
}

/** Timers driven by jest's fake timers through the real globals. */
export const jestTimers: Timers = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
}

export const userInfo = (over: Partial<UserInfo> = {}): UserInfo => ({
  userId: 7,
  mobilePhone: '13812345678',
  name: '小明',
  avatar: '/files/avatars/a.png',
  userType: 1,
  companyStatus: 0,
  outerUserCheckStatus: 1,
  realName: '',
  idCardMasked: '',
  hasPassword: true,
  inviteCode: 'INV',
  openActivityBall: 0,
  company: null,
  workTypes: [],
  createdAt: 0,
  ...over,
})

export function fakeApi() {
  return {
    user: {
      loginByCode: jest
        .fn()
        .mockResolvedValue({ token: 't-code', userId: 7, firstLogin: 1, showModifyPassword: 1 }),
      loginByPassword: jest
        .fn()
        .mockResolvedValue({ token: 't-pass', userId: 7, firstLogin: 0, showModifyPassword: 0 }),
      wxAppletsLogin: jest.fn(),
      wxOfficialAccountLogin: jest.fn(),
      wxOfficialAccountLoginPro: jest.fn(),
      wxAppletsLoginPro: jest.fn(),
      exitLogin: jest.fn().mockResolvedValue(undefined),
      getUserInfo: jest.fn().mockResolvedValue(userInfo()),
    },
    message: {
      getUnreadCount: jest
        .fn()
        .mockResolvedValue({ unreadCount: 3, longAll: 3, longNotice: 1, longRenewal: 2 }),
    },
    common: {
      getCommonConfig: jest.fn().mockResolvedValue({ renewalReminderMsg: '请续费' }),
      saveUserUsageLog: jest.fn().mockResolvedValue(undefined),
    },
  }
}

export type FakeApi = ReturnType<typeof fakeApi>

export function fakePlatform(over: Partial<StorePlatform> = {}): StorePlatform {
  return {
    runtime: 'h5',
    clientType: 'h5',
    defaultChannel: 'h5',
    terminalType: () => 'android',
    getDeviceInfo: () => ({
      deviceId: 'dev-1',
      brand: 'Apple',
      deviceModel: 'iPhone',
      osName: 'iOS',
      system: 'iOS 16',
      osVersion: '16',
    }),
    setCookies: jest.fn(),
    removeCookies: jest.fn(),
    isWeChatBrowser: () => false,
    wechatLogin: jest.fn().mockResolvedValue('js-code'),
    ...over,
  }
}

export function makeStores(
  options: {
    api?: FakeApi
    storage?: Record<string, unknown>
    platform?: Partial<StorePlatform>
    now?: () => number
    currentPath?: () => string
  } = {},
) {
  const api = options.api ?? fakeApi()
  const { storage, data } = memoryStorage(options.storage)
  const platform = fakePlatform(options.platform)
  const deps: RootStoreDeps = {
    api: api as unknown as Api,
    storage,
    clock: { now: options.now ?? (() => Date.now()) },
    timers: jestTimers,
    platform,
    random: () => 0.5,
    currentPath: options.currentPath,
  }
  const stores = new RootStore(deps)
  return { stores, api, data, platform }
}

/** Let pending promise callbacks run. */
export const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}
