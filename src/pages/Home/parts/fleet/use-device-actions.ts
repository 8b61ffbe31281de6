/** What each action button of a phone does: open a page, ask for input, confirm, send a command. */
import type { Device } from '@/types/api'
import { confirm, confirmDestructive, toast, toastError, toastSuccess } from '@/runtime/feedback'
import {
  ACTION_LABELS,
  COMMANDS,
  isCommandAction,
  type CommandAction,
  type DeviceAction,
} from '@/domain/device-permissions'
import {
  DEVICE_NAME_MAX,
  validateDeviceName,
  validatePackageName,
  validateUrl,
} from '@/domain/validators'
import { getDevice, renameDevice, sendCommand } from '@/api/device'
import { navigate } from '@/runtime/navigation'
import { actionQuery, actionRoute } from './action-routes'
import type { PromptRequest } from '@/components/PromptDialog'

/** Commands that interrupt what runs on the phone: asked first. */
const CONFIRMS: Partial<Record<CommandAction, { question: string; destructive?: true }>> = {
  reboot: { question: '重启期间云手机暂时无法使用，确定重启吗？' },
  deepClean: { question: '深度清理会关闭所有应用并清除缓存数据，确定清理吗？', destructive: true },
}

export interface DeviceActionEnv {
  /** open a text prompt */
  prompt: (request: PromptRequest) => void
  /** the phone changed (rename, status after a command) */
  onPatched: (deviceId: number, fields: Partial<Device>) => void
  /** fetch this phone's cover next */
  refreshCover: (deviceId: number) => void
}

export function useDeviceActions(env: DeviceActionEnv) {
  /** Sends a command; the phone's fresh state (e.g. 重启中) replaces the old one. */
  async function command(
    device: Device,
    action: CommandAction,
    extra: { url?: string; packageName?: string } = {},
  ) {
    const result = await sendCommand({
      deviceId: device.deviceId,
      command: COMMANDS[action],
      ...extra,
    })
    if (!result.ok) throw new Error(result.msg || `${ACTION_LABELS[action]}失败`)
    toastSuccess(`${ACTION_LABELS[action]}指令已发送`)
    getDevice(device.deviceId, { loading: false })
      .then((fresh) => env.onPatched(device.deviceId, fresh))
      .catch(() => undefined) // the next list load shows it anyway
  }

  return async function run(action: DeviceAction, device: Device): Promise<void> {
    const route = actionRoute(action)
    if (route) {
      await navigate(route, actionQuery(action, [device.deviceId]))
      return
    }
    switch (action) {
      case 'rename':
        return env.prompt({
          title: '重命名',
          label: '云手机名称',
          initial: device.name,
          maxLength: DEVICE_NAME_MAX,
          validate: validateDeviceName,
          onConfirm: async (name) => {
            await renameDevice(device.deviceId, name)
            env.onPatched(device.deviceId, { name })
            toastSuccess('已重命名')
          },
        })
      case 'openUrl':
        return env.prompt({
          title: '打开网址',
          label: '网址',
          placeholder: '以http://或https://开头',
          validate: validateUrl,
          onConfirm: (url) => command(device, 'openUrl', { url }),
        })
      case 'uninstall':
        return env.prompt({
          title: '卸载应用',
          label: '应用包名',
          placeholder: '如 com.example.app',
          validate: validatePackageName,
          onConfirm: (packageName) => command(device, 'uninstall', { packageName }),
        })
      default:
        break
    }
    if (!isCommandAction(action)) {
      toast('暂不支持该操作')
      return
    }
    const asked = CONFIRMS[action]
    if (asked) {
      const ask = asked.destructive ? confirmDestructive : confirm
      if (!(await ask(ACTION_LABELS[action], asked.question))) return
    }
    try {
      await command(device, action)
      if (action === 'refreshCover') env.refreshCover(device.deviceId)
    } catch (error) {
      toastError(error)
    }
  }
}
