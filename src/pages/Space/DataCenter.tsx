import { useCallback, useEffect, useRef, useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { Button, Progress } from '@nutui/nutui-react-taro'
import type { DeviceSpace, SpaceTask } from '@/types/api'
import { confirmDestructive, toastError, toastSuccess } from '@/runtime/feedback'
import { useFollow } from '@/hooks/use-follow'
import { ResultCode } from '@/domain/result-codes'
import { formatBytes } from '@/domain/formatters'
import { ApiError } from '@/runtime/request'
import { navigate } from '@/runtime/navigation'
import { deleteBackup, getDeviceSpace, startBackup, startRestore } from '@/api/space'
import TaskItem from './parts/TaskItem'
import { KIND_LABELS, statusLabel, usedColor, usedPercent } from './parts/space-tasks'
import styles from './space.module.scss'

const OVER_SPACE = '云空间容量不足，请先删除不需要的备份后再试'

/** One phone's data: back up now, restore or delete a backup; follows a running task until it ends. */
export default function DataCenter() {
  const { params } = useRouter()
  const deviceId = Number(params.deviceId)
  const [space, setSpace] = useState<DeviceSpace | null>(null)
  const [missing, setMissing] = useState(!(deviceId > 0))
  const [notice, setNotice] = useState('')
  const following = useRef<SpaceTask | null>(null)

  const load = useCallback(
    async (quiet = false) => {
      try {
        const next = await getDeviceSpace(deviceId, quiet ? { loading: false } : undefined)
        setSpace(next)
        return next
      } catch (error) {
        if (error instanceof ApiError && error.code === ResultCode.GET_DEVICE_FAILED)
          setMissing(true)
        else toastError(error)
        return null
      }
    },
    [deviceId],
  )

  /** The followed task has ended: say how (also when it ended while the page was hidden). */
  const reportEnded = useCallback((next: DeviceSpace | null) => {
    const task = following.current
    if (!next || next.running || !task) return
    following.current = null
    const ended = [...next.backups, next.lastRestore].find((t) => t?.id === task.id)
    if (ended?.status === 'done') toastSuccess(statusLabel(ended))
    else setNotice(`${statusLabel(ended ?? task)}：${ended?.failReason ?? '请稍后重试'}`)
  }, [])

  useDidShow(() => {
    if (deviceId > 0) void load().then(reportEnded)
  })

  // followed only while shown: the result is reported when the page shows again
  const running = space?.running ?? null
  useEffect(() => {
    if (running) following.current = running
  }, [running])
  useFollow('space', async () => reportEnded(await load(true)), { pending: running !== null })

  const act = async (action: () => Promise<unknown>) => {
    setNotice('')
    try {
      await action()
    } catch (error) {
      toastError(error)
    }
    await load(true)
  }

  const backup = () =>
    act(async () => {
      const outcome = await startBackup(deviceId)
      // 1026: the page explains it (toasting the server's words would vanish in 2 s)
      if (!outcome.ok)
        setNotice(outcome.code === ResultCode.OVER_CLOUD_SPACE ? OVER_SPACE : outcome.msg)
    })

  const restore = async (task: SpaceTask) => {
    const ok = await confirmDestructive(
      '恢复数据',
      '恢复时云手机会关机，并用这份备份覆盖当前的应用和数据，完成后自动开机。确定恢复吗？',
    )
    if (ok) await act(() => startRestore(task.id, deviceId))
  }

  const remove = async (task: SpaceTask) => {
    const ok = await confirmDestructive('删除备份', '删除后这份备份无法恢复，确定删除吗？')
    if (!ok) return
    await act(async () => {
      await deleteBackup(task.id)
      toastSuccess('备份已删除')
    })
  }

  if (missing) return <View className={styles.page}>云手机不存在或已释放</View>
  if (!space) return <View className={styles.page} />
  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.title}>{space.deviceName || `云手机${deviceId}`}</Text>
        <Text className={styles.label}>
          云空间已用 {formatBytes(space.usedBytes)} / {formatBytes(space.quotaBytes)}
        </Text>
        <Progress
          percent={usedPercent(space.usedBytes, space.quotaBytes)}
          color={usedColor(usedPercent(space.usedBytes, space.quotaBytes))}
        />
      </View>
      {running && (
        <View className={styles.card} aria-label="进行中的任务">
          <Text className={styles.busy}>
            正在{KIND_LABELS[running.kind]}数据，请稍候…
            {running.kind === 'restore' ? '（恢复期间云手机已关机）' : ''}
          </Text>
        </View>
      )}
      {notice && (
        <View className={styles.warning} role="alert">
          {notice}
        </View>
      )}
      <View className={styles.heading}>
        <Text className={styles.title}>备份列表</Text>
        <Button size="small" fill="none" onClick={() => navigate('historyData')}>
          备份与恢复记录
        </Button>
      </View>
      {space.backups.length === 0 && <Text className={styles.text}>暂无备份</Text>}
      {space.backups.map((task) => (
        <TaskItem key={task.id} task={task}>
          {task.status === 'done' && (
            <Button size="small" disabled={!!running} onClick={() => restore(task)}>
              恢复
            </Button>
          )}
          <Button size="small" disabled={!!running} onClick={() => remove(task)}>
            删除
          </Button>
        </TaskItem>
      ))}
      <View className={styles.footer}>
        <Button type="primary" block disabled={!!running} onClick={backup}>
          {running ? `${KIND_LABELS[running.kind]}中…` : '立即备份'}
        </Button>
      </View>
    </View>
  )
}
