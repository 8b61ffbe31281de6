/** What the 云手机, 任务 and 操作日志 pages show: jobs and phone states as operators read them. */
import { Badge } from 'antd'
import { DeviceStatus, deviceStatusLabels } from '#domain/device-lifecycle'

/** The job queue's kinds (server/src/jobs/*). */
export const JOB_KIND_LABELS: Record<string, string> = {
  'provision-device': '创建云手机',
  'sync-device': '同步云手机',
  'fulfil-order': '订单交付',
  'send-refund': '退款',
  'space-task': '备份与恢复',
  'expire-devices': '到期处理',
  'timeout-orders': '订单超时关闭',
  'reconcile-payments': '支付对账',
  'expire-coupons': '优惠券过期',
  'purge-expired': '清理过期数据',
  'deliver-operator-message': '群发消息',
}
export const jobKindLabel = (kind: string) => JOB_KIND_LABELS[kind] ?? kind

export const JOB_STATUS_LABELS: Record<string, string> = {
  pending: '等待执行',
  running: '执行中',
  done: '已完成',
  failed: '失败',
}

export const DEVICE_BUSY_LABELS: Record<string, string> = {
  changeZone: '更换地区中',
  replace: '更换云机中',
  systemUpdate: '系统更新中',
}

const STATUS_BADGES: Record<number, 'success' | 'processing' | 'default' | 'error' | 'warning'> = {
  [DeviceStatus.creating]: 'processing',
  [DeviceStatus.running]: 'success',
  [DeviceStatus.expired]: 'warning',
  [DeviceStatus.released]: 'default',
  [DeviceStatus.rebooting]: 'processing',
  [DeviceStatus.failed]: 'error',
}

export function DeviceStatusBadge({ status }: { status: number }) {
  return (
    <Badge
      status={STATUS_BADGES[status] ?? 'default'}
      text={deviceStatusLabels[status as DeviceStatus] ?? String(status)}
    />
  )
}
