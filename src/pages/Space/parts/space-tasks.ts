/** Words for backup and restore tasks (Space pages). */
import type { SpaceTask } from '@/types/api'

export const KIND_LABELS: Record<SpaceTask['kind'], string> = { backup: '备份', restore: '恢复' }

export function statusLabel(task: Pick<SpaceTask, 'kind' | 'status'>): string {
  const kind = KIND_LABELS[task.kind]
  switch (task.status) {
    case 'running':
      return `${kind}中`
    case 'done':
      return `${kind}成功`
    case 'failed':
      return `${kind}失败`
    default:
      return '任务中断'
  }
}

export const statusTone = (status: SpaceTask['status']) =>
  status === 'done' ? 'ok' : status === 'running' ? 'busy' : 'bad'

/** Share of the quota used, 0–100 (a full or over-full space shows 100). */
export function usedPercent(usedBytes: number, quotaBytes: number): number {
  if (quotaBytes <= 0) return 100
  return Math.min(100, Math.round((usedBytes / quotaBytes) * 100))
}

/** The quota bar: blue, red from 90 % on. */
export const usedColor = (percent: number) => (percent >= 90 ? '#cb2634' : '#1659e6')
