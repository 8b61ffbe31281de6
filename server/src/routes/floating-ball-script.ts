/**
 * The floating control ball of the sandbox supplier's control page, drawn from the account's
 * settings (/sandbox/supplier/control/floatingBall). The page includes this script with its session.
 * 重启 and 清理内存 send the same commands as the page's buttons; 截图 opens the current screen
 * frame; 返回/主页/多任务 are key events the sandbox supplier has no command for, so they show as
 * unavailable instead of pretending.
 */
export const FLOATING_BALL_ACTIONS: Record<string, { command?: string; screenshot?: boolean }> = {
  重启: { command: 'Reboot' },
  清理内存: { command: 'CleanMem' },
  截图: { screenshot: true },
  返回: {},
  主页: {},
  多任务: {},
}

export function floatingBallScript(prefix: string): string {
  return `(() => {
  const me = document.currentScript;
  const session = new URL(me.src, location.href).searchParams.get('session') || '';
  const actions = ${JSON.stringify(FLOATING_BALL_ACTIONS)};
  const base = ${JSON.stringify(prefix)};
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
    if (!action.command) { say('当前云手机暂不支持「' + name + '」'); return; }
    if (action.command === 'Reboot' && !confirm('确定重启这台云手机吗？')) return;
    try {
      const res = await fetch(base + '/control/command', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, command: action.command }) });
      const body = await res.json();
      say(body.code === 200 ? body.data.msg : body.msg);
    } catch (e) { say('网络异常，请重试'); }
  }
  fetch(base + '/control/floatingBall?session=' + encodeURIComponent(session))
    .then((res) => res.json())
    .then((body) => {
      if (body.code !== 200 || !body.data.visible) return;
      const s = body.data;
      const ball = document.createElement('div');
      ball.id = 'floating-ball';
      ball.setAttribute('role', 'button');
      ball.setAttribute('aria-label', '悬浮球');
      ball.dataset.side = s.side;
      ball.style.cssText = 'position:fixed;top:45%;' + s.side + ':8px;width:48px;height:48px;border-radius:24px;background:#2f5fe8;box-shadow:0 0 0 6px rgba(78,123,255,.3);opacity:' + (s.opacity / 100) + ';z-index:20;cursor:pointer';
      const menu = document.createElement('div');
      menu.id = 'floating-menu';
      menu.style.cssText = 'position:fixed;top:calc(45% + 56px);' + s.side + ':8px;display:none;flex-direction:column;gap:6px;z-index:20';
      s.shortcuts.forEach((name) => {
        const b = document.createElement('button');
        b.type = 'button'; b.textContent = name; b.style.cssText = 'height:36px;padding:0 14px';
        const action = actions[name] || {};
        if (!action.command && !action.screenshot) { b.disabled = true; b.title = '当前云手机暂不支持'; }
        b.addEventListener('click', () => { menu.style.display = 'none'; run(name); });
        menu.appendChild(b);
      });
      ball.addEventListener('click', () => { menu.style.display = menu.style.display === 'none' ? 'flex' : 'none'; });
      document.body.appendChild(ball);
      document.body.appendChild(menu);
    })
    .catch(() => undefined);
})();`
}
