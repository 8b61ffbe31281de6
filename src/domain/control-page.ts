/**
 * The control page's shared vocabulary (control/ draws it, the server checks it): the phone commands its
 * 更多 row sends, the navigation keys the server presses for it, the 画质 choices and the data the server
 * hands the built page. docs/control-page.md.
 */

/** SPEC device commands the page may send (the server's /control/command takes only these). */
export const CONTROL_BUTTONS = [
  { command: 'Reboot', label: '重启', confirm: '确定重启这台云手机吗？' },
  { command: 'CleanVm', label: '清理', confirm: '' },
  { command: 'CleanMem', label: '清理内存', confirm: '' },
  { command: 'DeepCleanVm', label: '深度清理', confirm: '深度清理会关闭所有应用，确定继续吗？' },
] as const
export type ControlCommand = (typeof CONTROL_BUTTONS)[number]['command']

/**
 * Keys the server presses on the phone (/control/key). Volcengine's Web SDK documents no navigation-key
 * call (docs 6394/75744 lists volumeUp/volumeDown but no back/home/recents), so these go through our
 * server as Android key events: ACEP's RunSyncCommand `input keyevent <code>`, the sandbox its own.
 * The codes are Android's KeyEvent constants (developer.android.com/reference/android/view/KeyEvent).
 */
export const CONTROL_KEYS = {
  back: { label: '返回', keycode: 4 },
  home: { label: '主页', keycode: 3 },
  recents: { label: '多任务', keycode: 187 },
  volumeUp: { label: '音量+', keycode: 24 },
  volumeDown: { label: '音量−', keycode: 25 },
} as const
export type ControlKey = keyof typeof CONTROL_KEYS

/** 画质: each choice names one of the supplier's stream profiles. */
export const QUALITIES = [
  { id: 'auto', label: '自动' },
  { id: 'hd', label: '高清' },
  { id: 'sd', label: '标清' },
  { id: 'smooth', label: '流畅' },
] as const
export type Quality = (typeof QUALITIES)[number]['id']
/**
 * A supplier's stream profile ids (setVideoStreamProfileId's 清晰度档位 ID) for each choice; 自动 is the
 * business's default profile, which the stream adapts to the network.
 */
export type StreamProfiles = Record<Quality, number>

/** What the server gives the built page (a JSON script element, never code): control/src/data.ts. */
export interface ControlPageData {
  session: string
  userId: number
  deviceId: number
  deviceName: string
  /** Where the page's calls go: `${base}/control/state`, `/control/command`, `/control/key`, `/control/stream`. */
  base: string
  /** false: a grantee with 仅查看: the stream, no control. */
  canControl: boolean
  /** The live stream's SDK and profiles; null: screenshots only (says so). */
  stream: { sdkUrl: string; profiles: StreamProfiles | null } | null
  /** Idle: a warning after warnMs without a touch, the stream stops endMs after the last touch. */
  idle: { warnMs: number; endMs: number }
  /** A script the page also loads (the sandbox's floating ball); null: none. */
  extraScript: string | null
}

export const CONTROL_TEXT = {
  refused: '链接已失效，请返回重新进入',
  screenshotMode: '截图模式：画面每 3 秒刷新一次',
  liveFailed: '实时画面连接失败，已切换为截图模式',
  noWebrtc: '当前浏览器不支持实时画面，已切换为截图模式',
  viewOnly: '仅查看：该云手机仅授权您查看，无法操作',
  expired: '云手机已到期，请续费后使用',
  sessionEnded: '页面已过期，请返回重新进入',
  idleWarn: '长时间未操作，即将断开连接',
  idleEnded: '长时间未操作，已断开连接',
  resume: '继续使用',
  renew: '续费',
} as const
