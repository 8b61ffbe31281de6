import { useCallback, useState } from 'react'
import { View } from '@tarojs/components'
import type { SpaceTask } from '../../../types/api'
import PagedList from '@/components/PagedList'
import { usePageShown, usePollWhile } from '@/hooks/use-follow'
import { listSpaceHistory } from '@/api/space'
import { TASK_FOLLOW_LIMIT_MS, TASK_POLL_MS } from './parts/space-tasks'
import TaskItem from './parts/TaskItem'
import styles from './space.module.scss'

/**
 * Every backup and restore of the user's phones, newest first, with status, size and time. While a
 * task on the first page is still running the list loads again every 2 s, so 恢复中 turns into the
 * result without a reload.
 */
export default function HistoryData() {
  const [running, setRunning] = useState(false)
  const [round, setRound] = useState(0)
  const load = useCallback(
    async (page: number, rows: number) => {
      const result = await listSpaceHistory(page, undefined, rows, round > 0)
      if (page === 1) setRunning(result.records.some((task) => task.status === 'running'))
      return result
    },
    [round],
  )
  usePollWhile(
    usePageShown() && running,
    () => setRound((n) => n + 1),
    TASK_POLL_MS,
    TASK_FOLLOW_LIMIT_MS,
  )
  return (
    <View className={styles.list}>
      <PagedList<SpaceTask>
        load={load}
        reloadKey={round}
        keyOf={(task) => task.id}
        renderItem={(task) => <TaskItem task={task} showDevice />}
      />
    </View>
  )
}
