import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button, Cell, Progress } from '@nutui/nutui-react-taro'
import type { SpaceInfo } from '@/types/api'
import EmptyState from '@/components/EmptyState'
import { toastError } from '@/runtime/feedback'
import { useFollow } from '@/hooks/use-follow'
import { formatBytes, formatDate } from '@/domain/formatters'
import { navigate } from '@/runtime/navigation'
import { getSpaceInfo } from '@/api/space'
import { usedColor, usedPercent } from './parts/space-tasks'
import styles from './space.module.scss'

/**
 * The user's cloud space: quota, what is used, and the backups per phone. Space just paid for is
 * followed until it is granted, and the quota loads again then.
 */
function SpaceIndex() {
  const [info, setInfo] = useState<SpaceInfo | null>(null)

  const load = () => {
    getSpaceInfo().then(setInfo).catch(toastError)
  }
  useDidShow(load)
  const granting = useFollow('space', load).length > 0

  if (!info) return <View className={styles.page} />
  return (
    <View className={styles.page}>
      <View className={styles.card} aria-label="云空间容量">
        <Text className={styles.label}>已用 / 总容量</Text>
        <Text className={styles.value}>
          {formatBytes(info.usedBytes)} / {formatBytes(info.quotaBytes)}
        </Text>
        <Progress
          percent={usedPercent(info.usedBytes, info.quotaBytes)}
          color={usedColor(usedPercent(info.usedBytes, info.quotaBytes))}
        />
        <Text className={styles.text}>
          剩余 {formatBytes(Math.max(0, info.quotaBytes - info.usedBytes))}
          ，备份云手机的应用和数据会占用云空间。
        </Text>
        {granting && (
          <View className={styles.text} role="status">
            已支付，扩容中…
          </View>
        )}
        {info.grants.map((grant) => (
          <Text key={grant.id} className={styles.text}>
            已购空间 {formatBytes(grant.bytes)}，{formatDate(grant.expiresAt)} 到期
          </Text>
        ))}
        <Button size="small" type="primary" onClick={() => navigate('buySpace')}>
          购买空间
        </Button>
      </View>
      <View className={styles.heading}>
        <Text className={styles.title}>云手机备份</Text>
        <Button size="small" fill="none" onClick={() => navigate('historyData')}>
          备份与恢复记录
        </Button>
      </View>
      {info.devices.length === 0 ? (
        <EmptyState description="暂无备份，可在我的云机中打开云手机的数据中心进行备份" />
      ) : (
        <View>
          {info.devices.map((device) => (
            <Cell
              key={device.deviceId}
              title={device.deviceName || `云手机${device.deviceId}`}
              description={`${device.backupCount} 份备份`}
              extra={formatBytes(device.usedBytes)}
              clickable
              onClick={() => navigate('dataCenter', { deviceId: device.deviceId })}
            />
          ))}
        </View>
      )}
    </View>
  )
}

export default observer(SpaceIndex)
