import type { ReactNode } from 'react'
import { Text, View } from '@tarojs/components'
import type { SpaceTask } from '@/types/api'
import { formatBytes, formatDateTime } from '@/domain/formatters'
import { KIND_LABELS, statusLabel, statusTone } from './space-tasks'
import styles from '../space.module.scss'

/** One backup or restore: what, which phone, how it ended, size and time; `children` are actions. */
export default function TaskItem(props: {
  task: SpaceTask
  showDevice?: boolean
  children?: ReactNode
}) {
  const { task, showDevice, children } = props
  return (
    <View className={styles.item} aria-label={`${KIND_LABELS[task.kind]}记录`}>
      <View className={styles.heading}>
        <Text className={styles.title}>
          {showDevice ? `${task.deviceName} · ` : ''}
          {KIND_LABELS[task.kind]}
        </Text>
        <Text className={styles[statusTone(task.status)]}>{statusLabel(task)}</Text>
      </View>
      <Text className={styles.label}>
        {formatDateTime(task.createdAt)}
        {task.sizeBytes > 0 ? ` · ${formatBytes(task.sizeBytes)}` : ''}
        {task.deleted ? ' · 已删除' : ''}
      </Text>
      {task.failReason && task.status !== 'done' && (
        <Text className={styles.bad}>{task.failReason}</Text>
      )}
      {children && <View className={styles.actions}>{children}</View>}
    </View>
  )
}
