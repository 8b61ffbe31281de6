/** The permissions this app asks for, and how each state reads in Chinese. */
export type PermissionState = 'granted' | 'denied' | 'prompt' | 'unsupported'

export interface PermissionItem {
  /** mini-program scope (scope.xxx) or browser permission name */
  key: string
  label: string
  usage: string
}

export const WEAPP_SCOPES: readonly PermissionItem[] = [
  { key: 'scope.userLocation', label: '位置信息', usage: '用于选择企业认证的公司地址' },
  { key: 'scope.camera', label: '摄像头', usage: '用于扫一扫登录和激活云手机' },
  { key: 'scope.writePhotosAlbum', label: '相册', usage: '用于保存云手机截图和二维码图片' },
]

export const H5_PERMISSIONS: readonly PermissionItem[] = [
  { key: 'geolocation', label: '位置信息', usage: '用于选择企业认证的公司地址' },
  { key: 'camera', label: '摄像头', usage: '用于扫一扫登录和激活云手机' },
  { key: 'notifications', label: '通知', usage: '用于提醒云手机到期和创建完成' },
]

export const STATE_LABELS: Record<PermissionState, string> = {
  granted: '已授权',
  denied: '已拒绝',
  prompt: '使用时询问',
  unsupported: '无法查询',
}

/** Mini-program authSetting value → state: true granted, false refused, absent never asked. */
export function weappState(value: boolean | undefined): PermissionState {
  if (value === true) return 'granted'
  if (value === false) return 'denied'
  return 'prompt'
}

/** Mini-program pages show only 已授权 / 未授权. */
export const weappLabel = (state: PermissionState) => (state === 'granted' ? '已授权' : '未授权')
