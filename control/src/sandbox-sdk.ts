/**
 * The sandbox supplier's stand-in for Volcengine's vePhoneSDK-Web.js, served only by the sandbox
 * (`/sandbox/supplier/assets/sandbox-sdk-<hash>.js`) so that the control page takes the same path on
 * both suppliers: the same global, constructor config, start/stop/destroy, on/off and the calls of
 * sdk.ts, with the documented arguments (sdk.ts names where each is documented). Like the real SDK it
 * is asynchronous and it fails: start() asks the sandbox to accept the stream keys and rejects with the
 * SDK's { errorCode, errorMessage } (StartErrorCode, docs 6394/1158619) when refused; a frame the
 * sandbox does not deliver (network, a rebooting or stopped phone) drops the stream
 * ('on-connection-state-changed' DISCONNECTED, then 'error'); volumeUp at the top of the range and
 * volumeDown at 0 are refused as the phone refuses them. The picture is the sandbox's screen, fetched
 * about twice a second; 'on-remote-stream-stats' reports the measured round trip and frame rate.
 */
import type { VePhone, VePhoneEvents } from './sdk'

type Listener = (data: unknown) => void
const VOLUME_MAX = 15
const FRAME_MS = 500
const STATS_MS = 2000
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function sdkError(errorCode: number, errorMessage: string) {
  return Object.assign(new Error(errorMessage), { errorCode, errorMessage })
}

interface Config {
  userId: string
  accountId: string
  domId: string
  enableLocalKeyboard?: boolean
}

class SandboxPhone implements VePhone {
  private listeners: Record<string, Listener[]> = {}
  private state: 'IDLE' | 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED' = 'IDLE'
  private frameTimer: ReturnType<typeof setTimeout> | null = null
  private statsTimer: ReturnType<typeof setInterval> | null = null
  private frames = 0
  private rtt = 0
  private volume = 8
  private rotation = 0
  private localKeyboard: boolean
  private clipboard = ''
  private view: {
    root: HTMLElement
    img: HTMLImageElement
    note: HTMLElement
    input: HTMLInputElement
  } | null = null

  static isRtcSupported() {
    return (
      typeof (window as unknown as { RTCPeerConnection?: unknown }).RTCPeerConnection === 'function'
    )
  }

  constructor(private readonly config: Config) {
    if (!config?.userId || !config.accountId || !config.domId) {
      throw sdkError(10000, 'userId, accountId and domId are required')
    }
    this.localKeyboard = Boolean(config.enableLocalKeyboard)
  }

  on<K extends keyof VePhoneEvents>(event: K, callback: (data: VePhoneEvents[K]) => void) {
    this.listeners[event] = [...(this.listeners[event] ?? []), callback as Listener]
  }

  off(event: string, callback: Listener) {
    this.listeners[event] = (this.listeners[event] ?? []).filter((cb) => cb !== callback)
  }

  private emit<K extends keyof VePhoneEvents>(event: K, data: VePhoneEvents[K]) {
    for (const cb of this.listeners[event] ?? []) cb(data)
  }

  private connected() {
    if (this.state !== 'CONNECTED') throw sdkError(20000, '云手机未连接')
  }

  async start(options: { productId: string; podId: string; token: { SessionToken: string } }) {
    if (!options?.productId || !options.podId)
      throw sdkError(10000, 'productId and podId are required')
    if (!options.token?.SessionToken) throw sdkError(10009, 'token is required')
    const root = document.getElementById(this.config.domId)
    if (!root) throw sdkError(10000, `no element #${this.config.domId}`)
    this.state = 'CONNECTING'
    const res = await fetch(`${location.pathname.replace(/\/control$/, '')}/stream/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ podId: options.podId, token: options.token.SessionToken }),
    }).catch(() => null)
    const body = res ? ((await res.json().catch(() => ({}))) as Record<string, string>) : null
    if (!res?.ok || !body?.frameUrl) {
      this.state = 'DISCONNECTED'
      throw sdkError(
        Number(body?.errorCode ?? 10001),
        body?.errorMessage ?? 'cannot reach the service',
      )
    }
    const img = document.createElement('img')
    img.alt = '云手机实时画面'
    img.className = 've-phone-frame'
    img.style.cssText = 'width:100%;height:100%;display:block;object-fit:contain;background:#000'
    const note = document.createElement('p')
    note.className = 've-phone-echo'
    note.style.cssText =
      'position:absolute;left:8px;right:8px;bottom:8px;margin:0;font-size:12px;color:#fff;text-shadow:0 1px 2px #000'
    const input = document.createElement('input')
    input.className = 've-phone-ime'
    input.placeholder = '本地键盘：在此输入，回车发送到云手机'
    input.style.cssText =
      'position:absolute;left:8px;right:8px;bottom:28px;height:34px;border-radius:8px;border:0;padding:0 8px;font-size:14px'
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || !input.value || e.isComposing) return
      note.textContent = `已输入：${input.value}`
      input.value = ''
    })
    root.replaceChildren(img, input, note)
    root.dataset.podId = options.podId
    this.view = { root, img, note, input }
    this.showKeyboard()
    this.state = 'CONNECTED'
    this.frames = 0
    void this.nextFrame(body.frameUrl)
    this.statsTimer = setInterval(() => {
      this.emit('on-remote-stream-stats', {
        rtt: this.rtt,
        receivedVideoFps: (this.frames * 1000) / STATS_MS,
      })
      this.frames = 0
    }, STATS_MS)
    return { podId: options.podId }
  }

  private nextFrame(url: string) {
    if (this.state !== 'CONNECTED' || !this.view) return
    const began = performance.now()
    const next = new Image()
    next.onload = () => {
      if (this.state !== 'CONNECTED' || !this.view) return
      this.rtt = performance.now() - began
      this.frames += 1
      this.view.img.src = next.src
      this.frameTimer = setTimeout(() => this.nextFrame(url), FRAME_MS)
    }
    next.onerror = () => this.drop()
    next.src = `${url}&f=${Date.now()}`
  }

  private drop() {
    if (this.state !== 'CONNECTED') return
    this.halt()
    this.emit('on-connection-state-changed', { state: 'DISCONNECTED' })
    this.emit('error', { errorCode: 40000, errorMessage: 'stream dropped' })
  }

  private halt() {
    this.state = 'DISCONNECTED'
    if (this.frameTimer) clearTimeout(this.frameTimer)
    if (this.statsTimer) clearInterval(this.statsTimer)
    this.frameTimer = this.statsTimer = null
  }

  private showKeyboard() {
    if (this.view) this.view.input.hidden = !this.localKeyboard
  }

  async stop() {
    this.halt()
    this.view?.root.replaceChildren()
    this.view = null
  }

  async destroy() {
    this.listeners = {}
  }

  async setVideoStreamProfileId(id: number) {
    this.connected()
    if (!Number.isInteger(id) || id <= 0) throw sdkError(30001, '清晰度档位不存在')
    await wait(150)
    if (this.view) this.view.root.dataset.profileId = String(id)
  }

  async volumeUp() {
    this.connected()
    await wait(100)
    if (this.volume >= VOLUME_MAX) throw sdkError(30002, '音量已是最大')
    this.volume += 1
    if (this.view) this.view.root.dataset.volume = String(this.volume)
  }

  async volumeDown() {
    this.connected()
    await wait(100)
    if (this.volume <= 0) throw sdkError(30003, '音量已是最小')
    this.volume -= 1
    if (this.view) this.view.root.dataset.volume = String(this.volume)
  }

  async sendClipBoardMessage(text: string) {
    this.connected()
    if (typeof text !== 'string' || text.length === 0) throw sdkError(30004, '剪贴板内容为空')
    await wait(100)
    this.clipboard = text
    if (this.view) this.view.note.textContent = `云手机剪贴板：${text}`
    // the phone's clipboard now holds it: the SDK reports the phone's clipboard back
    setTimeout(() => this.emit('on-clipboard-message-received', { text: this.clipboard }), 100)
  }

  async rotateScreen(degree: number, withPod: boolean) {
    this.connected()
    if (![0, 90, 180, 270].includes(degree)) throw sdkError(30005, '不支持的旋转角度')
    await wait(150)
    this.rotation = degree
    if (this.view) this.view.root.dataset.rotation = String(degree)
    this.emit('on-screen-rotation', {
      appOriginDirection: 'portrait',
      streamDirection: withPod && degree !== 0 ? 'landscape' : 'portrait',
      uiDomRotation: this.rotation,
    })
  }

  async sendShakeEventToRemote() {
    this.connected()
    await wait(100)
    if (this.view) this.view.note.textContent = '云手机：检测到摇一摇'
  }

  async enableLocalKeyboard(enable: boolean) {
    this.connected()
    await wait(50)
    this.localKeyboard = Boolean(enable)
    this.showKeyboard()
  }
}

Object.assign(window, { vePhoneSDK: SandboxPhone })
