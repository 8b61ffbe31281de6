/** One interface, two implementations (index.weapp.ts / index.h5.ts), chosen by Taro per platform. */

export type Runtime = 'applet' | 'h5'
export type Channel = 'wx' | 'h5'
export type TerminalType = 'IOS' | 'mac' | 'android' | 'Win' | 'other' | 'iPad' | 'androidPad'

export interface KeyValueStorage {
  /** undefined when the key was never set */
  get<T = unknown>(key: string): T | undefined
  set(key: string, value: unknown): void
  remove(key: string): void
}

/** Main-domain cookies (H5 only): channel, token, userId, runtime. */
export interface SessionCookies {
  channel?: string
  token?: string
  userId?: string
  runtime?: Runtime
}

export interface DeviceInfo {
  deviceId: string
  brand: string
  deviceModel: string
  osName: string
  system: string
  osVersion: string
}

export interface PickedLocation {
  name: string
  address: string
  latitude: number
  longitude: number
}

export interface OpenLocationOptions {
  latitude: number
  longitude: number
  name?: string
  address?: string
  scale?: number
}

/** The modal the update manager shows; defaults to Taro.showModal. */
export interface UpdateManagerUi {
  showModal(options: {
    title: string
    content: string
    confirmText?: string
    showCancel?: boolean
  }): Promise<{ confirm: boolean }>
}

export interface Platform {
  runtime: Runtime
  /** clientType header and usage-log client */
  clientType: Runtime
  /** channel when none is stored */
  defaultChannel: Channel
  storage: KeyValueStorage
  /** writes the given main-domain cookies (H5); no-op in the mini-program */
  setCookies(values: SessionCookies): void
  /** removes the given main-domain cookies (H5); no-op in the mini-program */
  removeCookies(names: (keyof SessionCookies)[]): void
  terminalType(): TerminalType
  /** mini-program login code (Taro.login); H5 throws */
  wechatLogin(): Promise<string>
  /**
   * H5 in the WeChat browser: go to the official-account OAuth page, which comes back to the
   * wechatAuth page (isWeChatAuth=1, channelCode) to log in and then go on to returnTo. Returns false
   * when not possible here.
   */
  officialAccountAuthorize(channelCode: string | undefined, returnTo: string): boolean
  isWeChatBrowser(): boolean
  /** mini-program: restart prompt when a new version is ready; H5: no-op */
  setupUpdateManager(ui?: UpdateManagerUi): void
  /**
   * The text of a QR code: mini-program camera/album scanner; H5 an album/camera image decoded in the
   * page (the user/scan page also offers a live camera preview). Rejects when cancelled or none found.
   */
  scanCode(): Promise<string>
  chooseLocation(): Promise<PickedLocation>
  openLocation(options: OpenLocationOptions): Promise<void>
  /** sent with a login on ios or wx channels */
  getDeviceInfo(): DeviceInfo
}
