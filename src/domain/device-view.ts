/** How a phone's status shows: the cached status config list first, our own labels otherwise. */
import type { Device, DeviceStatusEntry } from '../types/api'
import { DeviceStatus, deviceStatusLabels } from './device-lifecycle'

const FALLBACK_COLOUR = '#646a78'

const BUSY_COLOUR = '#b34d00'

/**
 * Status text and colour: an operation in progress (更换地区中…) first, then the cached status
 * config list, then the server's name or our own label.
 */
export function statusView(
  device: Pick<Device, 'status'> & Partial<Pick<Device, 'busy' | 'busyText' | 'statusName'>>,
  entry: DeviceStatusEntry | undefined,
): { text: string; color: string } {
  if (device.busy && device.busyText) return { text: device.busyText, color: BUSY_COLOUR }
  if (entry) return { text: entry.name, color: entry.color }
  return {
    text: device.statusName || deviceStatusLabels[device.status as DeviceStatus] || '未知状态',
    color: FALLBACK_COLOUR,
  }
}

/** What the screen area says while there is no frame to show. */
export function coverPlaceholder(status: number): string {
  switch (status) {
    case DeviceStatus.creating:
      return '云手机创建中…'
    case DeviceStatus.rebooting:
      return '重启中…'
    case DeviceStatus.expired:
      return '已到期'
    case DeviceStatus.released:
      return '已释放'
    case DeviceStatus.failed:
      return '创建失败'
    default:
      return '画面加载中…'
  }
}

/** Phones whose status is about to change by itself: the page polls these. */
export const isTransient = (device: Pick<Device, 'status' | 'busy'>) =>
  device.busy || device.status === DeviceStatus.creating || device.status === DeviceStatus.rebooting
