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
  /**
   * One local APK to upload: mini-program a file from a chat (chooseMessageFile), H5 the browser's
   * file picker. Its path goes to the request layer's upload. Rejects when cancelled.
   */
  chooseApk(): Promise<{ path: string; name: string; size: number }>
  openLocation(options: OpenLocationOptions): Promise<void>
  /** sent with a login on ios or wx channels */
  getDeviceInfo(): DeviceInfo
}

/** Where a WeChat payment runs; the server starts JSAPI pay for the first two, H5 pay for the last. */
export type PayScene = 'miniProgram' | 'wechatBrowser' | 'browser'

/** The signed parameters WeChat's JSAPI takes (wx.requestPayment, getBrandWCPayRequest), from the server. */
export interface WechatPayParams {
  appId: string
  timeStamp: string
  nonceStr: string
  package: string
  signType: 'RSA'
  paySign: string
}

/** How WeChat's payment sheet ended (SPEC 4, WeChat payment results). Only the server says paid. */
export type WechatPayOutcome = 'ok' | 'cancel' | { fail: string }

/**
 * WeChat Pay as each build reaches it (wechat-pay.weapp.ts / wechat-pay.h5.ts), imported by the pay
 * page only, so it ships in the pay sub-package and not in the first route.
 */
export interface WechatPayment {
  scene(): PayScene
  /**
   * Before a WeChat payment: a fresh code the server turns into the payer's openid (mini-program:
   * Taro.login), or 'redirected' when the page left for WeChat's silent authorisation, which comes
   * back to `returnTo` with one (WeChat's browser). {} where no code is needed (H5 pay).
   */
  payerCode(returnTo: string): Promise<{ wxCode?: string } | 'redirected'>
  /**
   * H5: the code an authorisation brought back in this page's query (`code`, `state`), taken once:
   * it leaves the address bar either way, so a reload cannot send it again. null: none came back;
   * 'refused': not from this browser's own authorisation (a link someone sent) or unreadable.
   */
  takeReturnedCode(query: { code?: string; state?: string }): { code: string } | 'refused' | null
  /** Opens WeChat's payment sheet with the server's signed parameters. */
  pay(params: WechatPayParams): Promise<WechatPayOutcome>
}
