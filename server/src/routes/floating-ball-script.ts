import type { ControlKey } from '#domain/control-page'
import { BALL_TAP_SLOP, ballDrop, ballKeep, ballOverlaps, ballStart } from '#domain/floating-ball'

/** The ball's size and its gap to the edges and to what it must not cover (px). */
const BALL = { size: 48, margin: 8 }

/**
 * The floating control ball of the sandbox supplier's control page, drawn from the account's
 * settings (/sandbox/supplier/control/floatingBall). The page includes this script with its session.
 * 重启 and 清理内存 send the same commands as the page's buttons; 截图 opens the current screen
 * frame; 返回/主页/多任务 press the same keys as the page's navigation keys (/control/key). The ball starts on the settings' side where it covers neither the
 * phone's screen nor the page's buttons (ballStart), follows a drag by touch or mouse, and rests where
 * it is dropped on the nearer side (ballDrop); a tap opens its menu, a drag does not.
 */
export const FLOATING_BALL_ACTIONS: Record<
  string,
  { command?: string; key?: ControlKey; screenshot?: boolean }
> = {
  重启: { command: 'Reboot' },
  清理内存: { command: 'CleanMem' },
  截图: { screenshot: true },
  返回: { key: 'back' },
  主页: { key: 'home' },
  多任务: { key: 'recents' },
}

export function floatingBallScript(prefix: string): string {
  // The position rules are src/domain's functions, embedded as their source: one rule, tested by jest.
  return `(() => {
  const me = document.currentScript;
  const session = new URL(me.src, location.href).searchParams.get('session') || '';
  const actions = ${JSON.stringify(FLOATING_BALL_ACTIONS)};
  const base = ${JSON.stringify(prefix)};
  const BALL = ${JSON.stringify(BALL)};
  const SLOP = ${BALL_TAP_SLOP};
  ${ballOverlaps.toString()}
  ${ballStart.toString()}
  ${ballKeep.toString()}
  ${ballDrop.toString()}
  function say(text) {
    const toast = document.getElementById('toast');
    if (!toast) return;
    toast.textContent = text; toast.style.display = 'block';
    setTimeout(() => (toast.style.display = 'none'), 2500);
  }
  async function run(name) {
    const action = actions[name] || {};
    if (action.screenshot) {
      const img = document.getElementById('screen');
      if (img && img.src) window.open(img.src, '_blank'); else say('画面尚未加载');
      return;
    }
    if (!action.command && !action.key) { say('当前云手机暂不支持「' + name + '」'); return; }
    if (action.command === 'Reboot' && !confirm('确定重启这台云手机吗？')) return;
    try {
      const path = action.key ? '/control/key' : '/control/command';
      const payload = action.key ? { session, key: action.key } : { session, command: action.command };
      const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
      const body = await res.json();
      say(body.code === 200 ? body.data.msg : body.msg);
    } catch (e) { say('网络异常，请重试'); }
  }
  function viewport() { return { width: document.documentElement.clientWidth, height: window.innerHeight }; }
  function box(el) { const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, width: r.width, height: r.height }; }
  fetch(base + '/control/floatingBall?session=' + encodeURIComponent(session))
    .then((res) => res.json())
    .then((body) => {
      if (body.code !== 200 || !body.data.visible) return;
      const s = body.data;
      const ball = document.createElement('div');
      ball.id = 'floating-ball';
      ball.setAttribute('role', 'button');
      ball.setAttribute('aria-label', '悬浮球');
      ball.setAttribute('aria-expanded', 'false');
      ball.style.cssText = 'position:fixed;left:0;top:0;width:' + BALL.size + 'px;height:' + BALL.size + 'px;border-radius:50%;background:#2f5fe8;box-shadow:0 0 0 6px rgba(78,123,255,.3);opacity:' + (s.opacity / 100) + ';z-index:20;cursor:grab;touch-action:none;user-select:none;-webkit-user-select:none';
      const menu = document.createElement('div');
      menu.id = 'floating-menu';
      menu.style.cssText = 'position:fixed;display:none;flex-direction:column;gap:6px;z-index:20';
      s.shortcuts.forEach((name) => {
        const b = document.createElement('button');
        b.type = 'button'; b.textContent = name; b.style.cssText = 'height:36px;padding:0 14px';
        const action = actions[name] || {};
        if (!action.command && !action.key && !action.screenshot) { b.disabled = true; b.title = '当前云手机暂不支持'; }
        b.addEventListener('click', () => { toggle(false); run(name); });
        menu.appendChild(b);
      });
      document.body.appendChild(ball);
      document.body.appendChild(menu);
      // The page's parts the ball must not cover when it starts: the title, the phone's screen, the buttons.
      const main = document.querySelector('main');
      const occupied = main ? [...main.children].filter((el) => el.offsetParent !== null).map(box) : [];
      const screenEl = document.querySelector('.screen');
      let at = ballStart({ viewport: viewport(), side: s.side, occupied, screen: screenEl ? box(screenEl) : null, preferredTop: viewport().height * 0.45, ball: BALL });
      let side = s.side;
      function place() {
        ball.style.left = at.left + 'px'; ball.style.top = at.top + 'px'; ball.dataset.side = side;
        if (menu.style.display === 'none') return;
        const h = menu.offsetHeight, w = menu.offsetWidth, vp = viewport();
        const below = at.top + BALL.size + 8;
        menu.style.top = (below + h <= vp.height ? below : Math.max(BALL.margin, at.top - 8 - h)) + 'px';
        menu.style.left = (side === 'left' ? BALL.margin : vp.width - BALL.margin - w) + 'px';
      }
      function toggle(open) {
        menu.style.display = open ? 'flex' : 'none';
        ball.setAttribute('aria-expanded', String(open));
        place();
      }
      place();
      // One press: touch or mouse. It becomes a drag once it moves past the slop; a drag never opens the menu.
      let press = null;
      let dragged = false;
      function down(x, y) { press = { x, y, left: at.left, top: at.top, moving: false }; dragged = false; }
      function move(x, y) {
        if (!press) return false;
        if (!press.moving && Math.hypot(x - press.x, y - press.y) < SLOP) return false;
        if (!press.moving) { press.moving = true; dragged = true; toggle(false); ball.style.cursor = 'grabbing'; }
        at = ballKeep(viewport(), BALL, press.left + x - press.x, press.top + y - press.y);
        place();
        return true;
      }
      function up() {
        if (!press) return;
        if (press.moving) { const drop = ballDrop(viewport(), BALL, at.left, at.top); side = drop.side; at = { left: drop.left, top: drop.top }; ball.style.cursor = 'grab'; place(); }
        press = null;
      }
      ball.addEventListener('touchstart', (e) => { const t = e.touches[0]; down(t.clientX, t.clientY); }, { passive: true });
      ball.addEventListener('touchmove', (e) => { const t = e.touches[0]; if (move(t.clientX, t.clientY)) e.preventDefault(); }, { passive: false });
      ball.addEventListener('touchend', (e) => { if (dragged) e.preventDefault(); up(); });
      ball.addEventListener('touchcancel', up);
      ball.addEventListener('mousedown', (e) => { if (e.button === 0) { e.preventDefault(); down(e.clientX, e.clientY); } });
      window.addEventListener('mousemove', (e) => { move(e.clientX, e.clientY); });
      window.addEventListener('mouseup', up);
      ball.addEventListener('click', () => {
        if (dragged) { dragged = false; return; }
        toggle(menu.style.display === 'none');
      });
      // A rotation or a resized window keeps the ball on its side and on screen.
      window.addEventListener('resize', () => { const drop = ballDrop(viewport(), BALL, side === 'left' ? 0 : viewport().width, at.top); at = { left: drop.left, top: drop.top }; place(); });
    })
    .catch(() => undefined);
})();`
}
