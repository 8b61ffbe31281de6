/**
 * Volcengine's vePhone Web SDK (vePhoneSDK-Web.js, the operator's copy; the sandbox serves a stand-in
 * with the same surface, sandbox-sdk.ts). Every call the page makes is named here with where it is
 * documented; the page calls nothing else on the SDK.
 *
 * - Constructor config, start({ productId, podId, token, rotation }), stop, destroy, on/off: docs 6394/95321
 *   (接入指南) and 6394/75744 (接口说明, 生命周期接口).
 * - setVideoStreamProfileId(id): 6394/75744 (清晰度切换, "通过指定清晰度档位 ID"); it replaced
 *   switchVideoStreamProfile in SDK V1.37.0 (6394/171481).
 * - volumeUp(), volumeDown(): 6394/75744 (音视频控制接口, 调高/调低音量).
 * - sendClipBoardMessage(text): 6394/75744 (发送客户端本地剪贴板消息到云端).
 * - rotateScreen(degree, withPod): 6394/1182635 (画面旋转功能: rotateScreen(270, true) turns the local
 *   view and the pod, rotateScreen(0, true) back); it answers with the 'on-screen-rotation' event
 *   ({ appOriginDirection, streamDirection, uiDomRotation }; the page's table spells it "ratation" once).
 * - sendShakeEventToRemote(): SDK V1.39.0 (6394/171481, 透传客户端"摇一摇"指令).
 * - enableLocalKeyboard(enable): named as a Web SDK call in the requirements and the constructor's config
 *   field of the same name (which the page already passed); its own page was not reached (unchecked, see
 *   below); setKeyboardType is the Android/iOS name (V1.31.0, 6394/171481).
 * - isRtcSupported(): the static compatibility check (6394/75744 lists it as isSupported; the tests' fake
 *   SDK, server/test/helpers/fake-vephone-sdk.js, and the sandbox's stand-in as isRtcSupported; both are
 *   tried).
 * NOT CHECKED against a document (the SDK's callback page was not reachable when this was written):
 * the names of the events for stream statistics 'on-remote-stream-stats' ({ rtt, receivedVideoFps }),
 * the phone's clipboard 'on-clipboard-message-received' ({ text }) and the connection
 * 'on-connection-state-changed' ({ state }); 'error' is what the page listened to before. Check them
 * against the operator's SDK copy (docs/control-page.md, "Unchecked names").
 * A call the operator's SDK copy lacks is reported to the user, never silently skipped.
 */

export interface StreamKeys {
  productId: string
  podId: string
  accountId: string
  userId: string
  token: {
    AccessKeyID: string
    SecretAccessKey: string
    SessionToken: string
    CurrentTime: string
    ExpiredTime: string
  }
  expiresAt: number
}

export interface StreamStats {
  /** round trip, ms */
  rtt: number
  /** frames per second received */
  receivedVideoFps: number
}

export interface ScreenRotation {
  uiDomRotation: number
  streamDirection?: string
  appOriginDirection?: string
}

export interface VePhoneEvents {
  'on-remote-stream-stats': StreamStats
  'on-clipboard-message-received': { text: string }
  'on-screen-rotation': ScreenRotation
  'on-connection-state-changed': { state: string }
  error: { errorCode?: number; errorMessage?: string }
}

export interface VePhone {
  start(options: {
    productId: string
    podId: string
    token: StreamKeys['token']
    rotation?: 'portrait' | 'landscape'
    mute?: boolean
    audioAutoPlay?: boolean
    isScreenLock?: boolean
  }): Promise<unknown>
  stop(): Promise<unknown> | void
  destroy?(): Promise<unknown> | void
  on<K extends keyof VePhoneEvents>(event: K, callback: (data: VePhoneEvents[K]) => void): void
  setVideoStreamProfileId?(id: number): Promise<unknown> | unknown
  volumeUp?(): Promise<unknown> | unknown
  volumeDown?(): Promise<unknown> | unknown
  sendClipBoardMessage?(text: string): Promise<unknown> | unknown
  rotateScreen?(degree: number, withPod: boolean): Promise<unknown> | unknown
  sendShakeEventToRemote?(): Promise<unknown> | unknown
  enableLocalKeyboard?(enable: boolean): Promise<unknown> | unknown
}

export interface VePhoneConstructor {
  new (config: {
    userId: string
    accountId: string
    domId: string
    isPC: boolean
    isDebug: boolean
    enableLocalKeyboard: boolean
    enableSyncClipboard: boolean
  }): VePhone
  isRtcSupported?(): boolean
  isSupported?(): boolean
}

declare global {
  interface Window {
    vePhoneSDK?: VePhoneConstructor
  }
}

/** Loads the SDK file once (our own origin: script-src 'self'). */
export function loadSdk(url: string, doc: Document = document): Promise<VePhoneConstructor> {
  return new Promise((resolve, reject) => {
    if (window.vePhoneSDK) return resolve(window.vePhoneSDK)
    const tag = doc.createElement('script')
    tag.src = url
    tag.onload = () =>
      typeof window.vePhoneSDK === 'function'
        ? resolve(window.vePhoneSDK)
        : reject(new Error('no vePhoneSDK'))
    tag.onerror = () => reject(new Error('sdk not loaded'))
    doc.head.appendChild(tag)
  })
}

/** Whether this browser can play the stream: the SDK's own check, else WebRTC's constructor. */
export function canStream(sdk: VePhoneConstructor | undefined, win: Window = window): boolean {
  if (typeof (win as unknown as { RTCPeerConnection?: unknown }).RTCPeerConnection !== 'function')
    return false
  const check = sdk?.isRtcSupported ?? sdk?.isSupported
  return check ? check.call(sdk) !== false : true
}
