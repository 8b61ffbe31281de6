/** Pieces both platform implementations share; pure or Taro-only, no DOM. */
import Taro from '@tarojs/taro'
import type { DeviceInfo, KeyValueStorage, TerminalType } from './types'

export const DEVICE_ID_KEY = 'deviceId'
export const UPDATE_TITLE = '更新提示'
export const UPDATE_READY_CONTENT = '新版本已经准备好，是否重启应用？'
export const UPDATE_CONFIRM_TEXT = '立即重启'
export const UPDATE_FAILED_CONTENT = '新版本下载失败，请检查网络后重试'

export const taroStorage: KeyValueStorage = {
  get<T>(key: string): T | undefined {
    try {
      const value = Taro.getStorageSync(key)
      return value === '' || value === null ? undefined : (value as T)
    } catch {
      return undefined
    }
  },
  set(key, value) {
    Taro.setStorageSync(key, value)
  },
  remove(key) {
    Taro.removeStorageSync(key)
  },
}

/** Terminal type from a user agent (H5). */
export function terminalTypeFromUserAgent(ua: string, maxTouchPoints = 0): TerminalType {
  if (/iPad/i.test(ua) || (/Macintosh/i.test(ua) && maxTouchPoints > 1)) return 'iPad'
  if (/iPhone|iPod/i.test(ua)) return 'IOS'
  if (/Android/i.test(ua)) return /Mobile/i.test(ua) ? 'android' : 'androidPad'
  if (/Macintosh|Mac OS X/i.test(ua)) return 'mac'
  if (/Windows/i.test(ua)) return 'Win'
  return 'other'
}

/** Terminal type from Taro.getSystemInfoSync() (mini-program). */
export function terminalTypeFromSystemInfo(info: {
  platform?: string
  model?: string
  screenWidth?: number
  screenHeight?: number
}): TerminalType {
  const platform = (info.platform ?? '').toLowerCase()
  const model = info.model ?? ''
  if (platform === 'ios') return /iPad/i.test(model) ? 'iPad' : 'IOS'
  if (platform === 'android') {
    // Android tablets have a shortest side of at least 600dp.
    const shortest = Math.min(info.screenWidth ?? 0, info.screenHeight ?? 0)
    return shortest >= 600 ? 'androidPad' : 'android'
  }
  if (platform === 'mac') return 'mac'
  if (platform === 'windows') return 'Win'
  return 'other'
}

/** RFC 4122 version-4 style id from a [0,1) random source. */
export function randomUuid(random: () => number = Math.random): string {
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = Math.floor(random() * 16)
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16)
  })
}

/** A random id stored on first use and reused afterwards. */
export function persistentDeviceId(storage: KeyValueStorage, random?: () => number): string {
  const stored = storage.get<string>(DEVICE_ID_KEY)
  if (stored) return stored
  const id = randomUuid(random)
  storage.set(DEVICE_ID_KEY, id)
  return id
}

export function deviceInfoFromSystemInfo(
  info: { brand?: string; model?: string; platform?: string; system?: string },
  deviceId: string,
): DeviceInfo {
  const system = info.system ?? ''
  const osVersion = (/[\d.]+/.exec(system) ?? [''])[0]
  const osName = (system.split(' ')[0] || info.platform || '').trim()
  return {
    deviceId,
    brand: info.brand ?? '',
    deviceModel: info.model ?? '',
    osName,
    system,
    osVersion,
  }
}

/** Mini-program update prompt (SPEC 4 "Mini-program update"). */
export function bindUpdatePrompts(
  manager: {
    onUpdateReady(cb: () => void): void
    onUpdateFailed(cb: () => void): void
    applyUpdate(): void
  },
  ui: {
    showModal(o: {
      title: string
      content: string
      confirmText?: string
      showCancel?: boolean
    }): Promise<{
      confirm: boolean
    }>
  },
): void {
  manager.onUpdateReady(() => {
    void ui
      .showModal({
        title: UPDATE_TITLE,
        content: UPDATE_READY_CONTENT,
        confirmText: UPDATE_CONFIRM_TEXT,
      })
      .then((res) => {
        if (res.confirm) manager.applyUpdate()
      })
  })
  manager.onUpdateFailed(() => {
    void ui.showModal({ title: UPDATE_TITLE, content: UPDATE_FAILED_CONTENT, showCancel: false })
  })
}
