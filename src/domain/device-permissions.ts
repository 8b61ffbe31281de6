/** Which buttons a phone shows (docs/cloud-phones.md "Devices"): from its goods' permissions and its status. */
import { acceptsCommands, canRenew, DeviceStatus } from './device-lifecycle'
import { DeviceButtonPermission, DeviceCommand } from './enums'
import { grantAllows } from './grants'

export const DEVICE_PERMISSIONS = [
  DeviceButtonPermission.changeConfig,
  DeviceButtonPermission.upOrDownConfig,
  DeviceButtonPermission.zoneChangeOpType,
  DeviceButtonPermission.videoChangeOpType,
] as const
export type DevicePermission = (typeof DEVICE_PERMISSIONS)[number]

export function isDevicePermission(value: string): value is DevicePermission {
  return (DEVICE_PERMISSIONS as readonly string[]).includes(value)
}

/** Every action in the order the action sheet lists them. */
export const DEVICE_ACTIONS = [
  'enter',
  'reboot',
  'clean',
  'deepClean',
  'cleanMem',
  'openUrl',
  'uninstall',
  'refreshCover',
  'rename',
  'renew',
  'upOrDownConfig',
  'videoChange',
  'changeZone',
  'replace',
  'systemUpdate',
  'selectModel',
  'moveGroup',
  'dataCenter',
  'empower',
  'transfer',
] as const
export type DeviceAction = (typeof DEVICE_ACTIONS)[number]

export const ACTION_LABELS: Record<DeviceAction, string> = {
  enter: '进入',
  reboot: '重启',
  clean: '清理',
  deepClean: '深度清理',
  cleanMem: '清理内存',
  openUrl: '打开网址',
  uninstall: '卸载应用',
  refreshCover: '刷新画面',
  rename: '重命名',
  renew: '续费',
  upOrDownConfig: '升降配',
  videoChange: '升级视频定制版',
  changeZone: '更换地区',
  replace: '更换云机',
  systemUpdate: '系统更新',
  selectModel: '选择机型',
  moveGroup: '移动分组',
  dataCenter: '数据中心',
  empower: '授权',
  transfer: '转移',
}

/** Actions that are supplier commands (SPEC device commands), by command name. */
export const COMMANDS = {
  reboot: DeviceCommand.Reboot,
  clean: DeviceCommand.CleanVm,
  deepClean: DeviceCommand.DeepCleanVm,
  cleanMem: DeviceCommand.CleanMem,
  openUrl: DeviceCommand.OpenUrl,
  uninstall: DeviceCommand.Uninstall,
  refreshCover: DeviceCommand.GetVmCover,
} as const satisfies Partial<Record<DeviceAction, DeviceCommand>>
export type CommandAction = keyof typeof COMMANDS

export function isCommandAction(action: DeviceAction): action is CommandAction {
  return action in COMMANDS
}

export interface DeviceActionInput {
  status: number
  permissions: readonly DevicePermission[]
  videoEdition: boolean
  /** false for a phone someone else authorised to this user: operate it, but not buy or change it. */
  owned?: boolean
  /** authorised to this user to view only: 进入 opens the screen without controls, and nothing else */
  viewOnly?: boolean
}

/** A phone as the list gives it → the input of deviceActions (its grant decides owned/viewOnly). */
export function actionInput(device: {
  status: number
  permissions: readonly DevicePermission[]
  videoEdition: boolean
  grant?: { permission: number } | null
}): DeviceActionInput {
  return {
    status: device.status,
    permissions: device.permissions,
    videoEdition: device.videoEdition,
    owned: !device.grant,
    viewOnly: device.grant ? !grantAllows(device.grant.permission, 'control') : false,
  }
}

type Rule = (d: Required<DeviceActionInput>) => boolean

const running = (d: DeviceActionInput) => d.status === DeviceStatus.running
const allowedWhileRunning = (permission: DevicePermission) => (d: DeviceActionInput) =>
  running(d) && d.permissions.includes(permission)
const operable: Rule = (d) => acceptsCommands(d.status)
const ownerOnly =
  (rule: Rule): Rule =>
  (d) =>
    d.owned && rule(d)

const rules: Record<DeviceAction, Rule> = {
  enter: operable,
  reboot: operable,
  clean: operable,
  deepClean: operable,
  cleanMem: operable,
  openUrl: operable,
  uninstall: operable,
  refreshCover: operable,
  rename: ownerOnly((d) => d.status !== DeviceStatus.released),
  renew: ownerOnly((d) => canRenew(d.status)),
  upOrDownConfig: ownerOnly(allowedWhileRunning(DeviceButtonPermission.upOrDownConfig)),
  videoChange: ownerOnly(
    (d) => allowedWhileRunning(DeviceButtonPermission.videoChangeOpType)(d) && !d.videoEdition,
  ),
  changeZone: ownerOnly(allowedWhileRunning(DeviceButtonPermission.zoneChangeOpType)),
  replace: ownerOnly((d) => running(d) || d.status === DeviceStatus.failed),
  systemUpdate: ownerOnly(running),
  selectModel: ownerOnly(allowedWhileRunning(DeviceButtonPermission.changeConfig)),
  moveGroup: ownerOnly((d) => d.status !== DeviceStatus.released),
  dataCenter: ownerOnly((d) => running(d) || d.status === DeviceStatus.expired),
  empower: ownerOnly(operable),
  transfer: ownerOnly(operable),
}

/** The actions this phone offers now, in DEVICE_ACTIONS order. */
export function deviceActions(device: DeviceActionInput): DeviceAction[] {
  const d = { ...device, owned: device.owned ?? true, viewOnly: device.viewOnly ?? false }
  // the control page shows a view-only viewer the stream without its toolbar, and the server refuses
  // their keys and commands (docs/control-page.md)
  if (d.viewOnly) return rules.enter(d) ? ['enter'] : []
  return DEVICE_ACTIONS.filter((action) => rules[action](d))
}

export function canDo(device: DeviceActionInput, action: DeviceAction): boolean {
  return deviceActions(device).includes(action)
}
