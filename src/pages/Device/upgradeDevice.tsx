import { useEffect, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button, Progress } from '@nutui/nutui-react-taro'
import type { SystemUpdateProgress } from '@/types/api'
import { confirm, toastError, toastSuccess } from '@/runtime/feedback'
import { getDevice, getSystemUpdateProgress, startSystemUpdate } from '@/api/device'
import { useDevicePage } from './parts/use-device-page'
import styles from './device-page.module.scss'

export const PROGRESS_POLL_MS = 1_500

/** System image update: start it, then follow the progress until the phone has the new version. */
export default function UpgradeDevice() {
  const { deviceId, device, missing, setDevice } = useDevicePage()
  const [state, setState] = useState<SystemUpdateProgress | null>(null)
  const [failed, setFailed] = useState('')
  const updating = state?.updating ?? false

  // the current version, the latest one, and an update already running (started earlier)
  useEffect(() => {
    if (!deviceId || missing) return
    // on a refusal the page still shows the phone and says why the versions are missing
    getSystemUpdateProgress(deviceId).then(setState).catch(toastError)
  }, [deviceId, missing])

  useEffect(() => {
    if (!updating) return undefined
    const timer = setInterval(() => {
      getSystemUpdateProgress(deviceId)
        .then(async (next) => {
          setState(next)
          if (next.updating) return
          const fresh = await getDevice(deviceId, { loading: false })
          setDevice(fresh)
          if (next.updateAvailable) setFailed(fresh.failReason || '系统更新未完成，请稍后重试')
          else toastSuccess('系统更新完成')
        })
        .catch(() => undefined) // a missed poll is retried on the next tick
    }, PROGRESS_POLL_MS)
    return () => clearInterval(timer)
  }, [updating, deviceId, setDevice])

  const start = async () => {
    const ok = await confirm(
      '系统更新',
      '更新期间云手机会重启并暂时无法使用，应用和数据不受影响。确定开始更新吗？',
    )
    if (!ok) return
    try {
      setFailed('')
      setState(await startSystemUpdate(deviceId))
    } catch (error) {
      toastError(error)
    }
  }

  if (missing) return <View className={styles.centre}>云手机不存在或已释放</View>
  const upToDate = state !== null && !state.updating && !state.updateAvailable
  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.label}>{device?.name ?? ''} 当前系统版本</Text>
        <Text className={styles.value}>
          {state?.imageVersion ?? device?.imageVersion ?? '加载中...'}
        </Text>
        {state && <Text className={styles.text}>最新版本：{state.latestVersion}</Text>}
      </View>
      {(updating || (upToDate && state.progress === 100)) && (
        <View className={styles.card} aria-label="更新进度">
          <Text className={styles.text}>{updating ? '正在更新系统…' : '系统已更新到最新版本'}</Text>
          <Progress percent={state?.progress ?? 0} showText />
        </View>
      )}
      {failed && (
        <View className={styles.warning} role="alert">
          更新失败：{failed}
        </View>
      )}
      <View className={styles.card}>
        <Text className={styles.text}>
          系统更新会把云手机升级到最新的系统镜像，修复已知问题并提升稳定性。更新约需一两分钟，期间云手机会重启，应用和数据不受影响。
        </Text>
      </View>
      <View className={styles.footer}>
        <Button type="primary" block disabled={!device || updating || upToDate} onClick={start}>
          {updating ? '更新中…' : upToDate ? '已是最新版本' : '开始更新'}
        </Button>
      </View>
    </View>
  )
}
