import { useCallback } from 'react'
import { View } from '@tarojs/components'
import type { SpaceTask } from '../../../types/api'
import PagedList from '@/components/PagedList'
import { listSpaceHistory } from '@/services/space'
import TaskItem from './TaskItem'
import styles from './space.module.scss'

/** Every backup and restore of the user's phones, newest first, with status, size and time. */
export default function HistoryData() {
  const load = useCallback(
    (page: number, rows: number) => listSpaceHistory(page, undefined, rows),
    [],
  )
  return (
    <View className={styles.list}>
      <PagedList<SpaceTask>
        load={load}
        keyOf={(task) => task.id}
        renderItem={(task) => <TaskItem task={task} showDevice />}
      />
    </View>
  )
}
