/**
 * The toolbar's states as data: which buttons show, which are enabled and pressed, from the page's
 * state alone (no DOM, no SDK), and a renderer that keeps the buttons in step. Tested in
 * __tests__/control/toolbar.test.ts.
 */
import {
  CONTROL_BUTTONS,
  CONTROL_KEYS,
  QUALITIES,
  type ControlCommand,
  type ControlKey,
  type Quality,
} from '#domain/control-page'

export type Mode = 'connecting' | 'live' | 'reconnecting' | 'screenshots' | 'ended'
export type Tool =
  | 'back'
  | 'home'
  | 'recents'
  | 'volumeUp'
  | 'volumeDown'
  | 'rotate'
  | 'quality'
  | 'keyboard'
  | 'clipboard'
  | 'screenshot'
  | 'shake'
  | 'fullscreen'
  | ControlCommand

export interface ToolbarState {
  canControl: boolean
  mode: Mode
  /** The phone runs and no operation is under way. */
  phoneReady: boolean
  /** The supplier has stream profiles for 画质. */
  hasProfiles: boolean
  quality: Quality
  keyboard: 'local' | 'cloud'
  rotation: 0 | 270
  fullscreen: boolean
  /** Buttons whose call has not answered yet. */
  pending: ReadonlySet<Tool>
}

export interface ToolItem {
  tool: Tool
  group: 'keys' | 'toolbar' | 'commands'
  label: string
  hidden: boolean
  disabled: boolean
  /** aria-pressed for the toggles; undefined for plain buttons. */
  pressed?: boolean
  title?: string
}

const LIVE_ONLY = '实时画面下可用'

export const QUALITY_LABEL: Record<Quality, string> = Object.fromEntries(
  QUALITIES.map((q) => [q.id, q.label]),
) as Record<Quality, string>

export function toolbarView(s: ToolbarState): ToolItem[] {
  const live = s.mode === 'live'
  const ended = s.mode === 'ended'
  const control = (tool: Tool, group: ToolItem['group'], label: string, needsLive: boolean) => {
    const offLive = needsLive && !live
    return {
      tool,
      group,
      label,
      hidden: !s.canControl,
      disabled: ended || !s.phoneReady || s.pending.has(tool) || offLive,
      title: offLive && !ended ? LIVE_ONLY : undefined,
    }
  }
  const key = (k: ControlKey) => control(k, 'keys', CONTROL_KEYS[k].label, false)
  const items: ToolItem[] = [
    key('back'),
    key('home'),
    key('recents'),
    control('volumeUp', 'toolbar', '音量+', false),
    control('volumeDown', 'toolbar', '音量−', false),
    { ...control('rotate', 'toolbar', '旋转', true), pressed: s.rotation !== 0 },
    {
      tool: 'quality',
      group: 'toolbar',
      label: `画质·${QUALITY_LABEL[s.quality]}`,
      hidden: !s.hasProfiles,
      disabled: ended || !live || s.pending.has('quality'),
      title: !live && !ended ? LIVE_ONLY : undefined,
    },
    {
      ...control('keyboard', 'toolbar', s.keyboard === 'local' ? '本地键盘' : '云机键盘', true),
      pressed: s.keyboard === 'local',
    },
    control('clipboard', 'toolbar', '剪贴板', true),
    {
      tool: 'screenshot',
      group: 'toolbar',
      label: '截图',
      hidden: false,
      disabled: ended || !s.phoneReady || s.pending.has('screenshot'),
    },
    control('shake', 'toolbar', '摇一摇', true),
    {
      tool: 'fullscreen',
      group: 'toolbar',
      label: s.fullscreen ? '退出全屏' : '全屏',
      hidden: false,
      disabled: false,
      pressed: s.fullscreen,
    },
    ...CONTROL_BUTTONS.map((b) => control(b.command, 'commands', b.label, false)),
  ]
  return items
}

/** Draws the items into their groups' elements, making each button once and updating it after. */
export function renderToolbar(
  roots: Record<ToolItem['group'], HTMLElement>,
  items: ToolItem[],
  onClick: (tool: Tool, button: HTMLButtonElement) => void,
) {
  for (const item of items) {
    const root = roots[item.group]
    let button = root.querySelector<HTMLButtonElement>(`button[data-tool="${item.tool}"]`)
    if (!button) {
      button = root.ownerDocument.createElement('button')
      button.type = 'button'
      button.dataset.tool = item.tool
      const b = button
      button.addEventListener('click', () => onClick(item.tool, b))
      root.appendChild(button)
    }
    if (button.textContent !== item.label) button.textContent = item.label
    button.hidden = item.hidden
    button.disabled = item.disabled
    if (item.pressed === undefined) button.removeAttribute('aria-pressed')
    else button.setAttribute('aria-pressed', String(item.pressed))
    if (item.title) button.title = item.title
    else button.removeAttribute('title')
  }
  for (const [group, root] of Object.entries(roots)) {
    root.hidden = items.filter((i) => i.group === group).every((i) => i.hidden)
  }
}
