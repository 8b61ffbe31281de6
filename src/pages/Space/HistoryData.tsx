import { useCallback, useState } from 'react'
import { View } from '@tarojs/components'
import type { SpaceTask } from '@/types/api'
import PagedList from '@/components/PagedList'
import { useFollow } from '@/hooks/use-follow'
import { listSpaceHistory } from '@/api/space'
import TaskItem from './parts/TaskItem'
import styles from './space.module.scss'

/**
 * Every backup and restore of the user's phones, newest first, with status, size and time. While a
 * task runs the page follows the server (useFollow), so 恢复中 turns into the result without a reload.
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
  // the server's word on the running tasks: the first page again once one of them ended
  useFollow('space', () => setRound((n) => n + 1), { pending: running })
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
