/** H5 implementation of the platform seam (also the default used by jest). */
import Taro from '@tarojs/taro'
import { buildCookie, mainDomain } from './cookies'
import { newOAuthState, officialAccountAuthUrl } from './oauth'
import {
  deviceInfoFromSystemInfo,
  persistentDeviceId,
  taroStorage,
  terminalTypeFromUserAgent,
} from './shared'
import type { OpenLocationOptions, PickedLocation, Platform, SessionCookies } from './types'
import './toast.h5.scss'

const COOKIE_MAX_AGE_S = 30 * 24 * 3600
export const NO_QR_FOUND = '未识别到二维码，请换一张清晰的图片'
export const LOCATION_FALLBACK_NOTICE = '当前环境无法打开地图选点，将使用您当前的定位'

const userAgent = () => (typeof navigator === 'undefined' ? '' : navigator.userAgent)

function writeCookie(name: string, value: string, maxAgeSeconds: number) {
  if (typeof document === 'undefined') return
  const domain = mainDomain(window.location.hostname)
  document.cookie = buildCookie(name, value, { domain, maxAgeSeconds })
}

function currentPosition(): Promise<PickedLocation> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      reject(new Error('当前浏览器不支持定位'))
      return
    }
    navigator.geolocation.getCurrentPosition(
      (pos) =>
        resolve({
          name: '当前位置',
          address: '',
          latitude: pos.coords.latitude,
          longitude: pos.coords.longitude,
        }),
      () => reject(new Error('定位失败，请检查定位权限后重试')),
      { enableHighAccuracy: true, timeout: 10_000 },
    )
  })
}

export const platform: Platform = {
  runtime: 'h5',
  clientType: 'h5',
  defaultChannel: 'h5',
  storage: taroStorage,

  async scanCode() {
    // the picker and the decoder load on first use (the picker pulls Taro's UA parser with it)
    const { pickAndDecodeImage } = await import('./qr-decode.h5')
    const text = await pickAndDecodeImage()
    if (text == null) throw new Error(NO_QR_FOUND)
    return text
  },

  setCookies(values: SessionCookies) {
    for (const [name, value] of Object.entries(values)) {
      if (value !== undefined && value !== null) writeCookie(name, String(value), COOKIE_MAX_AGE_S)
    }
  },

  removeCookies(names) {
    for (const name of names) writeCookie(name, '', 0)
  },

  terminalType() {
    return terminalTypeFromUserAgent(
      userAgent(),
      typeof navigator === 'undefined' ? 0 : navigator.maxTouchPoints || 0,
    )
  },

  async wechatLogin() {
    throw new Error('当前环境不支持微信登录')
  },

  isWeChatBrowser() {
    return /MicroMessenger/i.test(userAgent())
  },

  officialAccountAuthorize(channelCode, returnTo) {
    const appId = process.env.TARO_APP_WECHAT_APPID
    if (!appId || !this.isWeChatBrowser()) return false
    window.location.href = officialAccountAuthUrl({
      appId,
      origin: window.location.origin,
      returnTo,
      channelCode,
      state: newOAuthState(taroStorage),
      // empty: WeChat's own page; .env.development names the sandbox's (served only outside production)
      authorizeUrl: process.env.TARO_APP_WECHAT_OAUTH_URL,
    })
    return true
  },

  setupUpdateManager() {
    // Web pages update on reload.
  },

  async chooseLocation() {
    try {
      const { pickLocation } = await import('./location-picker.h5')
      const res = await pickLocation()
      return {
        name: res.name,
        address: res.address,
        latitude: res.latitude,
        longitude: res.longitude,
      }
    } catch (error) {
      const msg = (error as { errMsg?: string })?.errMsg ?? ''
      if (/cancel/i.test(msg)) throw error
      await Taro.showModal({ title: '提示', content: LOCATION_FALLBACK_NOTICE, showCancel: false })
      return currentPosition()
    }
  },

  async openLocation(options: OpenLocationOptions) {
    try {
      await Taro.openLocation({ scale: 18, ...options })
    } catch {
      const title = encodeURIComponent(options.name ?? '位置')
      const addr = encodeURIComponent(options.address ?? '')
      window.location.href = `https://apis.map.qq.com/uri/v1/marker?marker=coord:${options.latitude},${options.longitude};title:${title};addr:${addr}&referer=cloud-phone`
    }
  },

  async chooseApk() {
    // loaded when first asked: only 应用管理 picks an APK (the first route's size budget, check:h5)
    const { chooseApkFile } = await import('./apk-picker.h5')
    return chooseApkFile()
  },

  getDeviceInfo() {
    const ua = userAgent()
    const os = /Android ([\d.]+)/.exec(ua)
      ? `Android ${/Android ([\d.]+)/.exec(ua)![1]}`
      : /OS ([\d_]+) like Mac OS X/.exec(ua)
        ? `iOS ${/OS ([\d_]+) like Mac OS X/.exec(ua)![1].replace(/_/g, '.')}`
        : ''
    const model = /\(([^;)]+)/.exec(ua)?.[1] ?? ''
    return deviceInfoFromSystemInfo(
      { brand: '', model, system: os, platform: os.split(' ')[0] || 'web' },
      persistentDeviceId(taroStorage),
    )
  },
}

export default platform
export * from './types'
