import { escapeHtml } from '../../../domain/html'
import { SANDBOX_PREFIX } from './sandbox-supplier'

export const CONTROL_REFUSED_TEXT = '链接已失效，请返回重新进入'

/** Buttons of the control page: SPEC device commands the page may send. */
export const CONTROL_BUTTONS = [
  { command: 'Reboot', label: '重启', confirm: '确定重启这台云手机吗？' },
  { command: 'CleanVm', label: '清理', confirm: '' },
  { command: 'CleanMem', label: '清理内存', confirm: '' },
  { command: 'DeepCleanVm', label: '深度清理', confirm: '深度清理会关闭所有应用，确定继续吗？' },
] as const
export type ControlCommand = (typeof CONTROL_BUTTONS)[number]['command']

const STYLE = `*{box-sizing:border-box}[hidden]{display:none!important}body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#111;color:#fff}
main{max-width:480px;margin:0 auto;padding:12px 12px 24px;display:flex;flex-direction:column;min-height:100vh}
header{display:flex;justify-content:space-between;align-items:center;padding:4px 4px 10px}
h1{font-size:16px;margin:0;font-weight:500;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.status{font-size:12px;padding:2px 8px;border-radius:10px;background:#007d59}
.status.waiting{background:#6a45f0}.status.off{background:#646a78}
.screen{position:relative;width:100%;max-width:360px;aspect-ratio:9/16;margin:0 auto;border-radius:18px;overflow:hidden;background:#222}
.screen img{width:100%;height:100%;display:block}.screen img:not([src]){visibility:hidden}.screen .live{position:absolute;inset:0}
.mode{font-size:12px;color:#aab;text-align:center;margin:8px 0 0}
.controls{display:grid;grid-template-columns:repeat(4,1fr);gap:8px;margin-top:14px}
button{height:44px;border:0;border-radius:10px;background:#2a2b30;color:#fff;font-size:14px;cursor:pointer}
button:disabled{opacity:.45}
.toast{position:fixed;left:50%;bottom:80px;transform:translateX(-50%);background:#000c;color:#fff;padding:10px 16px;border-radius:8px;font-size:14px;display:none;max-width:80%;text-align:center}
.refused{text-align:center;margin-top:30vh;font-size:16px;color:#ccc}`

function shell(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,maximum-scale=1,user-scalable=no">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`
}

export function refusedPage(): string {
  return shell('云手机', `<p class="refused" role="alert">${CONTROL_REFUSED_TEXT}</p>`)
}

/** What the page shows as the screen (a real supplier's): screenshots, or its live stream's SDK. */
export type ControlScreen = 'screenshots' | { sdkUrl: string }

export const SCREENSHOT_MODE_TEXT = '截图模式：画面每 3 秒刷新一次'
export const LIVE_FAILED_TEXT = '实时画面连接失败，已切换为截图模式'

/**
 * The phone's screen and its command buttons, authorised by the session secret the token was exchanged
 * for. The screen is a fresh frame every 3 s (the last one kept while the next loads), or a supplier's
 * live stream: the page loads its SDK (our own copy), asks `${base}/control/stream` for short-lived keys
 * and starts it in the screen area; a refused answer or an SDK error falls back to the frames, saying so.
 */
export function controlPage(view: {
  session: string
  deviceName: string
  /** Where the page's state and command calls go (another supplier's control routes). */
  base?: string
  /** A real supplier's screen; absent: the sandbox's own frames, without a mode note. */
  screen?: ControlScreen
}): string {
  const base = view.base ?? SANDBOX_PREFIX
  const live = typeof view.screen === 'object' ? view.screen : null
  const buttons = CONTROL_BUTTONS.map(
    (b) =>
      `<button type="button" data-command="${b.command}" data-confirm="${escapeHtml(b.confirm)}">${b.label}</button>`,
  ).join('')
  const script = `(() => {
  const session = ${JSON.stringify(view.session)};
  const base = ${JSON.stringify(base)};
  const live = ${JSON.stringify(live)};
  const img = document.getElementById('screen');
  const liveBox = document.getElementById('live');
  const mode = document.getElementById('mode');
  let streaming = false;
  let phone = null;
  const status = document.getElementById('status');
  const title = document.getElementById('title');
  const toast = document.getElementById('toast');
  const buttons = [...document.querySelectorAll('button[data-command]')];
  let toastTimer = 0;
  function show(text) {
    toast.textContent = text; toast.style.display = 'block';
    clearTimeout(toastTimer); toastTimer = setTimeout(() => (toast.style.display = 'none'), 2500);
  }
  async function call(path, init) {
    const res = await fetch(base + path, init);
    return res.json();
  }
  // The live stream: keys from our server (never our long-lived pair), the SDK started in the screen
  // area; any refusal or SDK error ends it and the frames come back with a message.
  let fellBack = false;
  function screenshots(reason) {
    if (fellBack) return;
    fellBack = true;
    streaming = false;
    if (phone) { try { phone.stop && phone.stop(); phone.destroy && phone.destroy(); } catch (e) {} phone = null; }
    liveBox.hidden = true; img.hidden = false;
    mode.textContent = ${JSON.stringify(SCREENSHOT_MODE_TEXT)};
    if (reason) show(reason);
    refresh();
  }
  function loadSdk() {
    return new Promise((resolve, reject) => {
      const tag = document.createElement('script');
      tag.src = live.sdkUrl;
      tag.onload = () => (typeof window.vePhoneSDK === 'function' ? resolve(window.vePhoneSDK) : reject(new Error('no vePhoneSDK')));
      tag.onerror = () => reject(new Error('sdk not loaded'));
      document.head.appendChild(tag);
    });
  }
  async function startLive() {
    mode.textContent = '实时画面连接中…';
    let keys;
    try { keys = await call('/control/stream?session=' + encodeURIComponent(session)); } catch (e) { return screenshots('网络异常，已切换为截图模式'); }
    if (keys.code !== 200) return screenshots(keys.msg);
    const k = keys.data;
    try {
      const Sdk = await loadSdk();
      phone = new Sdk({ userId: k.userId, accountId: k.accountId, domId: 'live', isPC: false, isDebug: false, enableLocalKeyboard: false, enableSyncClipboard: false });
      if (typeof phone.on === 'function') phone.on('error', () => screenshots(${JSON.stringify(LIVE_FAILED_TEXT)}));
      liveBox.hidden = false;
      await phone.start({ productId: k.productId, podId: k.podId, token: k.token, rotation: 'portrait', isScreenLock: true, mute: true, audioAutoPlay: false });
      streaming = true; img.hidden = true;
      mode.textContent = '实时画面';
    } catch (e) { screenshots(${JSON.stringify(LIVE_FAILED_TEXT)}); }
  }
  async function refresh() {
    try {
      const body = await call('/control/state?session=' + encodeURIComponent(session) + (streaming ? '&screen=0' : ''));
      if (body.code !== 200) { status.textContent = body.msg; status.className = 'status off'; buttons.forEach((b) => (b.disabled = true)); return; }
      const d = body.data;
      title.textContent = d.name;
      status.textContent = d.busyText || d.statusName;
      status.className = 'status' + (d.status === 1 && !d.busy ? '' : d.status === 4 || d.busy || d.status === 0 ? ' waiting' : ' off');
      buttons.forEach((b) => (b.disabled = !(d.status === 1 && !d.busy)));
      if (d.screenUrl && !streaming) {
        const next = new Image();
        next.onload = () => { img.src = next.src; };
        next.src = d.screenUrl;
      }
    } catch (e) { status.textContent = '网络异常'; status.className = 'status off'; }
  }
  buttons.forEach((button) => button.addEventListener('click', async () => {
    if (button.dataset.confirm && !confirm(button.dataset.confirm)) return;
    button.disabled = true;
    try {
      const body = await call('/control/command', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, command: button.dataset.command }) });
      show(body.code === 200 ? body.data.msg : body.msg);
    } catch (e) { show('网络异常，请重试'); }
    refresh();
  }));
  if (live) startLive(); else if (mode) mode.textContent = ${JSON.stringify(SCREENSHOT_MODE_TEXT)};
  refresh();
  setInterval(refresh, 3000);
})();`
  return shell(
    view.deviceName,
    `<header><h1 id="title">${escapeHtml(view.deviceName)}</h1><span id="status" class="status waiting">连接中</span></header>
<div class="screen"><div id="live" class="live" hidden></div><img id="screen" alt="云手机画面"></div>
${view.screen ? '<p id="mode" class="mode" role="status"></p>' : ''}
<div class="controls">${buttons}</div>
<div id="toast" class="toast" role="status"></div>
<script>${script}</script>
${base === SANDBOX_PREFIX ? `<script src="${SANDBOX_PREFIX}/control/floatingBall.js?session=${encodeURIComponent(view.session)}"></script>` : ''}`,
  )
}
