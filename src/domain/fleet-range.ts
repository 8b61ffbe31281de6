/**
 * 按状态选 in the multi view's batch mode (docs/cloud-phones.md): the choices and which phones each
 * ticks. The store applies one to every phone of the filters, loading the rest first as 全选 does.
 */
import { DeviceStatus } from './device-lifecycle'

const DAY_MS = 86_400_000
/** 7天内到期: a studio renews a week ahead, so the choice reaches further than the 3-day banner. */
export const EXPIRING_WITHIN_MS = 7 * DAY_MS

type Phone = { status: number; expireAt: number }

export interface StatusChoice {
  label: string
  matches: (phone: Phone, now: number) => boolean
}

const live = (status: number) =>
  status === DeviceStatus.running || status === DeviceStatus.rebooting

export const STATUS_CHOICES: StatusChoice[] = [
  { label: '运行中', matches: (p) => p.status === DeviceStatus.running },
  {
    label: '7天内到期',
    matches: (p, now) =>
      live(p.status) && p.expireAt > now && p.expireAt - now <= EXPIRING_WITHIN_MS,
  },
  { label: '已到期', matches: (p) => p.status === DeviceStatus.expired },
]
