/**
 * The control page: the phone's screen (the supplier's live stream through its SDK, or a screenshot
 * every 3 s), the toolbar, the connection indicator, reconnects, the idle warning and the end of a
 * session. docs/control-page.md.
 */
import './style.css'
import {
  CONTROL_BUTTONS,
  CONTROL_TEXT,
  QUALITIES,
  type ControlCommand,
  type ControlKey,
  type ControlPageData,
  type Quality,
} from '#domain/control-page'
import { ControlApi, type PhoneState } from './api'
import { Backoff, IdleTimer, reconnectText, statsText } from './connection'
import { readPageData, savedQuality, saveQuality } from './data'
import { canStream, loadSdk, type StreamKeys, type VePhone } from './sdk'
import { QUALITY_LABEL, renderToolbar, toolbarView, type Tool, type ToolbarState } from './toolbar'

const DEVICE_RUNNING = 1
const DEVICE_EXPIRED = 2
const POLL_MS = 3000
/** LOGIN_TOKEN_INVALID: the page's session is over (expired, revoked, transferred). */
const SESSION_ENDED = 2017

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T

function start(data: ControlPageData) {
  const api = new ControlApi(data.base, data.session)
  const els = {
    title: $('title'),
    status: $('status'),
    net: $('net'),
    mode: $('mode'),
    img: $<HTMLImageElement>('screen'),
    live: $('live'),
    overlay: $('overlay'),
    overlayText: $('overlay-text'),
    overlayAction: $<HTMLButtonElement>('overlay-action'),
    panel: $('panel'),
    toast: $('toast'),
  }
  const roots = { keys: $('keys'), toolbar: $('toolbar'), commands: $('commands') }
  const state: ToolbarState & { pending: Set<Tool> } = {
    canControl: data.canControl,
    mode: 'connecting',
    phoneReady: false,
    hasProfiles: Boolean(data.stream?.profiles),
    quality: savedQuality(data.userId),
    keyboard: 'cloud',
    rotation: 0,
    fullscreen: false,
    pending: new Set<Tool>(),
  }
  let phone: VePhone | null = null
  let streamKeys: StreamKeys | null = null
  /** Read afresh: the mode changes while a call is awaited. */
  const isEnded = () => state.mode === 'ended'
  let phoneClipboard = ''
  let poll: ReturnType<typeof setInterval> | null = null
  let reconnectTimer: ReturnType<typeof setInterval> | null = null
  const backoff = new Backoff()

  els.title.textContent = data.deviceName
  document.title = data.deviceName

  const render = () => {
    renderToolbar(roots, toolbarView(state), onTool)
    document.body.dataset.mode = state.mode
    document.body.classList.toggle('rotated', state.rotation !== 0)
  }

  let toastTimer: ReturnType<typeof setTimeout> | undefined
  const toast = (text: string) => {
    els.toast.textContent = text
    els.toast.style.display = 'block'
    clearTimeout(toastTimer)
    toastTimer = setTimeout(() => (els.toast.style.display = 'none'), 2500)
  }

  const overlay = (text: string, action: { label: string; run: () => void } | null) => {
    els.overlay.hidden = false
    els.overlayText.textContent = text
    els.overlayAction.hidden = !action
    if (action) {
      els.overlayAction.textContent = action.label
      els.overlayAction.onclick = action.run
    }
  }
  const closeOverlay = () => (els.overlay.hidden = true)

  // ---- the stream ----------------------------------------------------------------------------

  const teardown = () => {
    const p = phone
    phone = null
    if (!p) return
    try {
      void p.stop()
      void p.destroy?.()
    } catch {
      // the SDK is being dropped: nothing to do with its own failure
    }
  }

  const showFrames = () => {
    els.live.hidden = true
    els.img.hidden = false
  }

  /** Screenshots from now on (no SDK, no WebRTC, or the reconnects are used up), saying why. */
  const screenshots = (reason: string | null) => {
    if (state.mode === 'ended') return
    teardown()
    state.mode = 'screenshots'
    state.rotation = 0
    showFrames()
    els.net.hidden = true
    els.mode.textContent = CONTROL_TEXT.screenshotMode
    if (reason) toast(reason)
    render()
    void refresh()
  }

  const dropped = () => {
    if (state.mode === 'ended' || state.mode === 'screenshots') return
    teardown()
    const step = backoff.next()
    if (!step) return screenshots(CONTROL_TEXT.liveFailed)
    state.mode = 'reconnecting'
    els.mode.textContent = '实时画面已断开，正在重新连接'
    // the phone's screenshots meanwhile (the polls fetch them while the stream is away)
    showFrames()
    render()
    void refresh()
    let left = step.delayMs
    const show = () => {
      els.net.hidden = false
      els.net.dataset.level = 'poor'
      els.net.textContent = reconnectText(left, step.attempt, step.of)
    }
    show()
    if (reconnectTimer) clearInterval(reconnectTimer)
    reconnectTimer = setInterval(() => {
      left -= 1000
      if (left > 0) return show()
      clearInterval(reconnectTimer!)
      reconnectTimer = null
      void startLive(true)
    }, 1000)
  }

  const applyQuality = async (quality: Quality) => {
    const id = data.stream?.profiles?.[quality]
    if (!phone || id === undefined) return
    await sdkCall('setVideoStreamProfileId', () => phone!.setVideoStreamProfileId?.(id))
  }

  async function startLive(reconnect = false) {
    const stream = data.stream
    if (!stream) return screenshots(null)
    if (state.mode === 'ended') return
    state.mode = reconnect ? 'reconnecting' : 'connecting'
    els.mode.textContent = '实时画面连接中…'
    render()
    // keys still good for a minute are used again (ACEP limits how often a session asks)
    if (!streamKeys || streamKeys.expiresAt < Date.now() + 60_000) {
      let keys
      try {
        keys = await api.streamKeys()
      } catch {
        return reconnect ? dropped() : screenshots('网络异常，已切换为截图模式')
      }
      if (keys.code === SESSION_ENDED) return end(keys.msg || CONTROL_TEXT.sessionEnded)
      if (keys.code !== 200 || !keys.data) {
        if (keys.msg === CONTROL_TEXT.expired) return end(CONTROL_TEXT.expired)
        return screenshots(keys.msg)
      }
      streamKeys = keys.data
    }
    const k = streamKeys
    let Sdk
    try {
      Sdk = await loadSdk(stream.sdkUrl)
    } catch {
      return screenshots(CONTROL_TEXT.liveFailed)
    }
    if (!canStream(Sdk)) return screenshots(CONTROL_TEXT.noWebrtc)
    if (isEnded()) return
    const p = new Sdk({
      userId: k.userId,
      accountId: k.accountId,
      domId: 'live',
      isPC: false,
      isDebug: false,
      enableLocalKeyboard: state.keyboard === 'local',
      enableSyncClipboard: true,
    })
    phone = p
    p.on('on-remote-stream-stats', (stats) => {
      if (phone !== p || state.mode !== 'live') return
      const { text, level } = statsText(stats)
      els.net.hidden = false
      els.net.textContent = text
      els.net.dataset.level = level
    })
    p.on('on-screen-rotation', (r) => {
      state.rotation = r.uiDomRotation === 270 || r.uiDomRotation === 90 ? 270 : 0
      render()
    })
    p.on('on-clipboard-message-received', (m) => {
      phoneClipboard = m.text
      const remote = els.panel.querySelector<HTMLElement>('.remote-clip')
      if (remote) remote.textContent = `云手机剪贴板：${phoneClipboard}`
      const copy = els.panel.querySelector<HTMLButtonElement>('button[data-copy]')
      if (copy) copy.disabled = !phoneClipboard
    })
    p.on('on-connection-state-changed', (s) => {
      if (phone === p && s.state === 'DISCONNECTED') dropped()
    })
    p.on('error', () => {
      if (phone === p) dropped()
    })
    els.live.hidden = false
    try {
      await p.start({
        productId: k.productId,
        podId: k.podId,
        token: k.token,
        rotation: 'portrait',
        isScreenLock: true,
        mute: true,
        audioAutoPlay: false,
      })
    } catch {
      if (phone !== p) return
      return reconnect ? dropped() : screenshots(CONTROL_TEXT.liveFailed)
    }
    if (phone !== p) return
    state.mode = 'live'
    backoff.reset()
    els.img.hidden = true
    els.mode.textContent = '实时画面'
    render()
    if (state.quality !== 'auto') await applyQuality(state.quality)
  }

  // ---- the phone's state ----------------------------------------------------------------------

  const isExpired = (d: PhoneState) => d.status === DEVICE_EXPIRED
  async function refresh() {
    if (state.mode === 'ended') return
    let body
    try {
      body = await api.state(state.mode !== 'live')
    } catch {
      els.status.textContent = '网络异常'
      els.status.className = 'status off'
      return
    }
    if (body.code !== 200 || !body.data) return end(body.msg || CONTROL_TEXT.sessionEnded)
    const d = body.data
    if (isExpired(d)) return end(CONTROL_TEXT.expired)
    els.title.textContent = d.name
    els.status.textContent = d.busyText || d.statusName
    const ready = d.status === DEVICE_RUNNING && !d.busy
    els.status.className = `status${ready ? '' : d.busy || d.status === 0 || d.status === 4 ? ' waiting' : ' off'}`
    state.phoneReady = ready
    render()
    if (d.screenUrl && state.mode !== 'live') {
      const next = new Image()
      next.onload = () => {
        if (!isEnded()) els.img.src = next.src
      }
      next.src = d.screenUrl
    }
  }

  /** The session is over (expired, revoked, or the page's session ended): no frozen picture. */
  function end(text: string) {
    if (state.mode === 'ended') return
    state.mode = 'ended'
    teardown()
    if (poll) clearInterval(poll)
    if (reconnectTimer) clearInterval(reconnectTimer)
    idle.stop()
    els.img.removeAttribute('src')
    els.img.hidden = false
    els.live.hidden = true
    els.net.hidden = true
    els.status.textContent = '已断开'
    els.status.className = 'status off'
    els.mode.textContent = ''
    overlay(text, { label: CONTROL_TEXT.renew, run: goRenew })
    render()
  }

  /** 续费 for this phone: the app's page, from H5's iframe (same origin) or the web-view. */
  function goRenew() {
    const path = `/pages/Renew/index?deviceIds=${data.deviceId}`
    try {
      if (window.top && window.top !== window && window.top.location.origin === location.origin) {
        window.top.location.href = path
        return
      }
    } catch {
      // a cross-origin parent: open it here
    }
    location.href = path
  }

  // ---- idle -----------------------------------------------------------------------------------

  let idleCountdown: ReturnType<typeof setInterval> | null = null
  const idle = new IdleTimer(data.idle, {
    warn: () => {
      let left = Math.round((data.idle.endMs - data.idle.warnMs) / 1000)
      const show = () =>
        overlay(`${CONTROL_TEXT.idleWarn}（${left} 秒）`, {
          label: CONTROL_TEXT.resume,
          run: () => idle.touch(),
        })
      show()
      idleCountdown = setInterval(() => {
        left = Math.max(0, left - 1)
        if (idle.phase === 'warned') show()
      }, 1000)
    },
    end: () => {
      if (idleCountdown) clearInterval(idleCountdown)
      teardown()
      if (poll) clearInterval(poll)
      poll = null
      state.mode = 'connecting'
      state.phoneReady = false
      els.net.hidden = true
      overlay(CONTROL_TEXT.idleEnded, { label: CONTROL_TEXT.resume, run: () => idle.resume() })
      render()
    },
    active: () => {
      if (idleCountdown) clearInterval(idleCountdown)
      closeOverlay()
      if (!poll) {
        // resumed after the end: the stream and the polls start again
        poll = setInterval(() => void refresh(), POLL_MS)
        void refresh()
        if (data.stream) void startLive()
        else screenshots(null)
      }
    },
  })
  for (const type of ['pointerdown', 'keydown', 'touchstart'] as const) {
    document.addEventListener(type, (e) => {
      if ((e.target as HTMLElement | null)?.id === 'overlay-action') return
      idle.touch()
    })
  }

  // ---- the toolbar ----------------------------------------------------------------------------

  /** An SDK call: reported when the SDK copy lacks it or refuses it. */
  async function sdkCall(name: string, run: () => unknown): Promise<boolean> {
    if (!phone) {
      toast('实时画面未连接')
      return false
    }
    const method = (phone as unknown as Record<string, unknown>)[name]
    if (typeof method !== 'function') {
      toast('当前云手机暂不支持该操作')
      return false
    }
    try {
      await run()
      return true
    } catch (error) {
      const e = error as { errorMessage?: string; message?: string }
      toast(e.errorMessage || e.message || '操作失败，请重试')
      return false
    }
  }

  async function pending(tool: Tool, run: () => Promise<unknown>) {
    state.pending.add(tool)
    render()
    try {
      await run()
    } finally {
      state.pending.delete(tool)
      render()
    }
  }

  /** A key or command's answer: its text, or the end of the page when its session is over. */
  const answered = (body: { code: number; msg: string; data?: { msg: string } }) => {
    if (body.code === SESSION_ENDED) return end(body.msg || CONTROL_TEXT.sessionEnded)
    toast(body.code === 200 && body.data ? body.data.msg : body.msg)
  }

  const pressKey = (key: ControlKey) =>
    pending(key, async () => {
      try {
        answered(await api.key(key))
      } catch {
        toast('网络异常，请重试')
      }
    })

  const sendCommand = (command: ControlCommand) => {
    const b = CONTROL_BUTTONS.find((c) => c.command === command)!
    if (b.confirm && !confirm(b.confirm)) return
    return pending(command, async () => {
      try {
        answered(await api.command(command))
      } catch {
        toast('网络异常，请重试')
      }
      await refresh()
    })
  }

  function openPanel(name: string, build: (panel: HTMLElement) => void) {
    if (!els.panel.hidden && els.panel.dataset.panel === name) {
      els.panel.hidden = true
      return
    }
    els.panel.dataset.panel = name
    els.panel.replaceChildren()
    build(els.panel)
    els.panel.hidden = false
  }

  const button = (label: string, run: () => void, extra: Partial<HTMLButtonElement> = {}) => {
    const b = document.createElement('button')
    b.type = 'button'
    b.textContent = label
    b.addEventListener('click', run)
    Object.assign(b, extra)
    return b
  }

  function openQuality() {
    openPanel('quality', (panel) => {
      panel.setAttribute('aria-label', '画质')
      for (const q of QUALITIES) {
        const b = button(q.label, () => void chooseQuality(q.id))
        b.setAttribute('aria-pressed', String(state.quality === q.id))
        b.dataset.quality = q.id
        panel.appendChild(b)
      }
    })
  }

  async function chooseQuality(quality: Quality) {
    els.panel.hidden = true
    await pending('quality', async () => {
      const id = data.stream?.profiles?.[quality]
      if (id === undefined) return
      const done = await sdkCall('setVideoStreamProfileId', () =>
        phone!.setVideoStreamProfileId!(id),
      )
      if (!done) return
      state.quality = quality
      saveQuality(data.userId, quality)
      toast(`已切换为${QUALITY_LABEL[quality]}`)
    })
  }

  function openClipboard() {
    const build = (panel: HTMLElement) => {
      panel.setAttribute('aria-label', '剪贴板')
      const input = document.createElement('textarea')
      input.id = 'clipboard-text'
      input.placeholder = '要发送到云手机的文字'
      input.maxLength = 2000
      panel.appendChild(input)
      navigator.clipboard?.readText?.().then(
        (text) => {
          if (!input.value) input.value = text
        },
        () => undefined,
      )
      panel.appendChild(
        button('发送到云手机', () => {
          const text = input.value
          if (!text) return toast('请先输入或粘贴文字')
          void pending('clipboard', async () => {
            if (await sdkCall('sendClipBoardMessage', () => phone!.sendClipBoardMessage!(text)))
              toast('已发送到云手机剪贴板')
          })
        }),
      )
      const remote = document.createElement('p')
      remote.className = 'remote-clip'
      remote.textContent = phoneClipboard
        ? `云手机剪贴板：${phoneClipboard}`
        : '云手机剪贴板：暂无内容'
      panel.appendChild(remote)
      const copy = button('复制到本机', () => void copyLocal(phoneClipboard), {
        disabled: !phoneClipboard,
      })
      copy.dataset.copy = ''
      panel.appendChild(copy)
    }
    openPanel('clipboard', build)
  }

  async function copyLocal(text: string) {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      // WeChat's web-view and older browsers: a selected field and the copy command
      const area = document.createElement('textarea')
      area.value = text
      document.body.appendChild(area)
      area.select()
      const copied = document.execCommand('copy')
      area.remove()
      if (!copied) return toast('复制失败，请长按文字复制')
    }
    toast('已复制到本机剪贴板')
  }

  /**
   * 截图: the pod's own screenshot from our server (the state call's screen address: the SDK's screenShot
   * answers no file the page could save, 6394/75744 lists it without a return value). H5 downloads it;
   * in the mini-program's web-view, where a page cannot download, it is shown to be long-pressed and
   * saved to the album (WeChat's own menu on a web-view image).
   */
  const screenshot = () =>
    pending('screenshot', async () => {
      let body
      try {
        body = await api.state(true)
      } catch {
        return toast('网络异常，请重试')
      }
      const url = body.data?.screenUrl
      if (body.code !== 200 || !url) return toast(body.msg || '暂时无法截图')
      const res = await fetch(url).catch(() => null)
      if (!res?.ok) return toast('截图失败，请重试')
      const blob = await res.blob()
      const href = URL.createObjectURL(blob)
      const ext = blob.type.includes('svg') ? 'svg' : blob.type.includes('jpeg') ? 'jpg' : 'png'
      if (/miniProgram/i.test(navigator.userAgent)) {
        openPanel('screenshot', (panel) => {
          const img = document.createElement('img')
          img.src = href
          img.alt = '截图'
          panel.append(
            img,
            Object.assign(document.createElement('p'), { textContent: '长按图片保存到相册' }),
          )
        })
        return
      }
      const a = document.createElement('a')
      a.href = href
      a.download = `云手机截图-${data.deviceName}-${Date.now()}.${ext}`
      document.body.appendChild(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(href), 10_000)
      toast('截图已保存')
    })

  /** 全屏: the browser's Fullscreen API (no SDK call: the SDK draws into our element). */
  async function fullscreen() {
    const doc = document as Document & { webkitExitFullscreen?: () => void }
    const root = document.documentElement as HTMLElement & { webkitRequestFullscreen?: () => void }
    try {
      if (document.fullscreenElement) await document.exitFullscreen()
      else if (root.requestFullscreen) await root.requestFullscreen()
      else if (root.webkitRequestFullscreen) root.webkitRequestFullscreen()
      else throw new Error('no fullscreen')
    } catch {
      doc.webkitExitFullscreen?.()
      toast('当前环境不支持全屏')
    }
  }
  document.addEventListener('fullscreenchange', () => {
    state.fullscreen = Boolean(document.fullscreenElement)
    render()
  })

  function onTool(tool: Tool) {
    switch (tool) {
      case 'back':
      case 'home':
      case 'recents':
        return void pressKey(tool)
      case 'volumeUp':
      case 'volumeDown':
        // the SDK's own volume calls while the stream plays; the server's key events otherwise
        if (state.mode !== 'live') return void pressKey(tool)
        return void pending(tool, () =>
          sdkCall(tool, () => (tool === 'volumeUp' ? phone!.volumeUp!() : phone!.volumeDown!())),
        )
      case 'rotate':
        return void pending('rotate', async () => {
          const next = state.rotation === 0 ? 270 : 0
          if (await sdkCall('rotateScreen', () => phone!.rotateScreen!(next, true))) {
            // the SDK's on-screen-rotation event sets the page; this is the answer when it does not
            state.rotation = next
          }
        })
      case 'quality':
        return openQuality()
      case 'keyboard':
        return void pending('keyboard', async () => {
          const next = state.keyboard === 'local' ? 'cloud' : 'local'
          if (
            await sdkCall('enableLocalKeyboard', () =>
              phone!.enableLocalKeyboard!(next === 'local'),
            )
          ) {
            state.keyboard = next
            toast(next === 'local' ? '已切换为本地键盘，可用本机输入法输入' : '已切换为云机键盘')
          }
        })
      case 'clipboard':
        return openClipboard()
      case 'screenshot':
        return void screenshot()
      case 'shake':
        return void pending('shake', async () => {
          if (await sdkCall('sendShakeEventToRemote', () => phone!.sendShakeEventToRemote!()))
            toast('已摇一摇')
        })
      case 'fullscreen':
        return void fullscreen()
      default:
        if (CONTROL_BUTTONS.some((b) => b.command === tool)) void sendCommand(tool)
    }
  }

  // ---- go -------------------------------------------------------------------------------------

  if (!data.canControl) els.mode.dataset.viewOnly = CONTROL_TEXT.viewOnly
  render()
  if (data.stream) void startLive()
  else screenshots(null)
  void refresh()
  poll = setInterval(() => void refresh(), POLL_MS)
  idle.start()
  if (data.extraScript) {
    const tag = document.createElement('script')
    tag.src = data.extraScript
    document.body.appendChild(tag)
  }
}

const data = readPageData()
if (data) start(data)
else {
  document.body.textContent = CONTROL_TEXT.refused
}
