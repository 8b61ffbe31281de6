import { MessageType, messageTypeLabels } from '@/domain/enums'

/** Keys of the message settings (GET /message/getSettings) per message type. */
export type SettingKey = 'notice' | 'renewal' | 'transfer' | 'create' | 'system'

export interface MessageCategory {
  type: MessageType
  label: string
  description: string
  settingKey: SettingKey
  /** system messages cannot be turned off */
  locked?: boolean
}

export const MESSAGE_CATEGORIES: readonly MessageCategory[] = [
  {
    type: MessageType.announcement,
    label: messageTypeLabels[1],
    description: '平台公告、活动与优惠信息',
    settingKey: 'notice',
  },
  {
    type: MessageType.renewalReminder,
    label: messageTypeLabels[2],
    description: '云手机即将到期和已到期提醒',
    settingKey: 'renewal',
  },
  {
    type: MessageType.deviceTransfer,
    label: messageTypeLabels[3],
    description: '云手机转移和授权的通知',
    settingKey: 'transfer',
  },
  {
    type: MessageType.createDevice,
    label: messageTypeLabels[4],
    description: '购买的云手机创建完成通知',
    settingKey: 'create',
  },
  {
    type: MessageType.system,
    label: messageTypeLabels[5],
    description: '账号安全等重要通知，不可关闭',
    settingKey: 'system',
    locked: true,
  },
]

export function categoryOf(type: string | number | undefined): MessageCategory | undefined {
  return MESSAGE_CATEGORIES.find((c) => c.type === Number(type))
}
