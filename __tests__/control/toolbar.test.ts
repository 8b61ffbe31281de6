/**
 * The control page's toolbar states (control/src/toolbar.ts): what shows, what is enabled and pressed
 * for an owner and a 仅查看 viewer, live or on screenshots, busy, waiting for an answer or ended; and
 * the renderer that keeps the buttons in step.
 */
import { renderToolbar, toolbarView, type Tool, type ToolbarState } from '../../control/src/toolbar'

const base: ToolbarState = {
  canControl: true,
  mode: 'live',
  phoneReady: true,
  hasProfiles: true,
  quality: 'auto',
  keyboard: 'cloud',
  rotation: 0,
  fullscreen: false,
  pending: new Set<Tool>(),
}
const view = (over: Partial<ToolbarState> = {}) =>
  Object.fromEntries(toolbarView({ ...base, ...over }).map((i) => [i.tool, i]))

const LIVE_ONLY: Tool[] = ['rotate', 'keyboard', 'clipboard', 'shake']
const CONTROLS: Tool[] = ['back', 'home', 'recents', 'volumeUp', 'volumeDown', ...LIVE_ONLY]
const COMMANDS: Tool[] = ['Reboot', 'CleanVm', 'CleanMem', 'DeepCleanVm']

test('an owner on the live stream has every control, enabled, in its group', () => {
  const items = toolbarView(base)
  expect(items.map((i) => i.tool)).toEqual([
    'back',
    'home',
    'recents',
    'volumeUp',
    'volumeDown',
    'rotate',
    'quality',
    'keyboard',
    'clipboard',
    'screenshot',
    'shake',
    'fullscreen',
    ...COMMANDS,
  ])
  expect(items.filter((i) => i.hidden || i.disabled)).toEqual([])
  expect(items.filter((i) => i.group === 'keys').map((i) => i.label)).toEqual([
    '返回',
    '主页',
    '多任务',
  ])
  const v = view()
  expect(v.quality.label).toBe('画质·自动')
  expect(v.keyboard.label).toBe('云机键盘')
  expect(v.keyboard.pressed).toBe(false)
  expect(v.rotate.pressed).toBe(false)
  expect(v.fullscreen.label).toBe('全屏')
})

test('on screenshots the stream-only tools are disabled and say why; keys, volume and commands still work', () => {
  for (const mode of ['screenshots', 'connecting', 'reconnecting'] as const) {
    const v = view({ mode })
    for (const tool of [...LIVE_ONLY, 'quality' as Tool]) {
      expect([tool, v[tool].disabled, v[tool].title]).toEqual([tool, true, '实时画面下可用'])
    }
    for (const tool of [
      'back',
      'home',
      'recents',
      'volumeUp',
      'volumeDown',
      'screenshot',
      ...COMMANDS,
    ] as Tool[]) {
      expect([tool, v[tool].disabled]).toEqual([tool, false])
    }
  }
})

test('a 仅查看 viewer sees the stream with 画质, 截图 and 全屏, and no control at all', () => {
  const items = toolbarView({ ...base, canControl: false })
  expect(items.filter((i) => !i.hidden).map((i) => i.tool)).toEqual([
    'quality',
    'screenshot',
    'fullscreen',
  ])
  for (const tool of [...CONTROLS, ...COMMANDS])
    expect(view({ canControl: false })[tool].hidden).toBe(true)
})

test('a busy or stopped phone disables what acts on it; 全屏 stays', () => {
  const v = view({ phoneReady: false })
  for (const tool of [...CONTROLS, ...COMMANDS, 'screenshot' as Tool])
    expect(v[tool].disabled).toBe(true)
  expect(v.fullscreen.disabled).toBe(false)
  expect(v.quality.disabled).toBe(false)
})

test('an ended session disables everything but 全屏, with no live-only hint', () => {
  const items = toolbarView({ ...base, mode: 'ended' })
  expect(items.filter((i) => !i.disabled).map((i) => i.tool)).toEqual(['fullscreen'])
  expect(items.filter((i) => i.title)).toEqual([])
})

test('a call waiting for its answer disables its own button only', () => {
  const v = view({ pending: new Set<Tool>(['home', 'quality']) })
  expect(v.home.disabled).toBe(true)
  expect(v.quality.disabled).toBe(true)
  expect(v.back.disabled).toBe(false)
  expect(v.recents.disabled).toBe(false)
})

test('the toggles show their state; no stream profiles means no 画质', () => {
  const v = view({ rotation: 270, keyboard: 'local', fullscreen: true, quality: 'smooth' })
  expect(v.rotate.pressed).toBe(true)
  expect([v.keyboard.label, v.keyboard.pressed]).toEqual(['本地键盘', true])
  expect([v.fullscreen.label, v.fullscreen.pressed]).toEqual(['退出全屏', true])
  expect(v.quality.label).toBe('画质·流畅')
  expect(view({ hasProfiles: false }).quality.hidden).toBe(true)
})

test('the renderer makes each button once, keeps it in step and reports clicks; an empty group hides', () => {
  document.body.innerHTML = '<nav id="k"></nav><div id="t"></div><div id="c"></div>'
  const roots = {
    keys: document.getElementById('k')!,
    toolbar: document.getElementById('t')!,
    commands: document.getElementById('c')!,
  }
  const clicked: Tool[] = []
  const onClick = (tool: Tool) => clicked.push(tool)
  renderToolbar(roots, toolbarView(base), onClick)
  const home = roots.keys.querySelector<HTMLButtonElement>('button[data-tool="home"]')!
  expect(home.textContent).toBe('主页')
  home.click()
  expect(clicked).toEqual(['home'])

  renderToolbar(roots, toolbarView({ ...base, mode: 'screenshots', rotation: 270 }), onClick)
  expect(roots.keys.querySelector('button[data-tool="home"]')).toBe(home)
  expect(document.querySelectorAll('button')).toHaveLength(toolbarView(base).length)
  const rotate = roots.toolbar.querySelector<HTMLButtonElement>('button[data-tool="rotate"]')!
  expect(rotate.disabled).toBe(true)
  expect(rotate.title).toBe('实时画面下可用')
  expect(rotate.getAttribute('aria-pressed')).toBe('true')

  renderToolbar(roots, toolbarView({ ...base, canControl: false }), onClick)
  expect(roots.keys.hidden).toBe(true)
  expect(roots.commands.hidden).toBe(true)
  expect(roots.toolbar.hidden).toBe(false)
  expect(home.hidden).toBe(true)
})
