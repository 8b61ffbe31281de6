/** WeChat mini-program implementation of the platform seam. */
import Taro from '@tarojs/taro'
import {
  bindUpdatePrompts,
  deviceInfoFromSystemInfo,
  persistentDeviceId,
  taroStorage,
  terminalTypeFromSystemInfo,
} from './shared'
import type { Platform } from './types'

export const platform: Platform = {
  runtime: 'applet',
  clientType: 'applet',
  defaultChannel: 'wx',
  storage: taroStorage,

  async scanCode() {
    const { result } = await Taro.scanCode({ onlyFromCamera: false })
    return result
  },

  setCookies() {
    // no cookies in the mini-program: local storage only
  },
  removeCookies() {},

  terminalType() {
    return terminalTypeFromSystemInfo(Taro.getSystemInfoSync())
  },

  async wechatLogin() {
    const res = await Taro.login()
    if (!res.code) throw new Error('微信登录失败，请重试')
    return res.code
  },

  isWeChatBrowser() {
    return false
  },

  officialAccountAuthorize() {
    return false
  },

  setupUpdateManager(ui) {
    if (typeof Taro.getUpdateManager !== 'function') return
    bindUpdatePrompts(Taro.getUpdateManager(), ui ?? { showModal: (o) => Taro.showModal(o) })
  },

  async chooseLocation() {
    const res = await Taro.chooseLocation({})
    return {
      name: res.name,
      address: res.address,
      latitude: res.latitude,
      longitude: res.longitude,
    }
  },

  async openLocation(options) {
    await Taro.openLocation({ scale: 18, ...options })
  },

  async chooseApk() {
    const { tempFiles } = await Taro.chooseMessageFile({
      count: 1,
      type: 'file',
      extension: ['apk'],
    })
    const [file] = tempFiles
    return { path: file.path, name: file.name, size: file.size }
  },

  getDeviceInfo() {
    return deviceInfoFromSystemInfo(Taro.getSystemInfoSync(), persistentDeviceId(taroStorage))
  },
}

export default platform
export * from './types'
