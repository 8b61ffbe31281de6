import { View, Text } from '@tarojs/components'
import type { Device, DeviceStatusEntry } from '@/types/api'
import { autoRenewCardText } from '@/domain/auto-renew'
import { levelInfo } from '@/domain/catalogue'
import { remainingText } from '@/domain/device-lifecycle'
import { GRANT_PERMISSION_LABELS, type GrantPermissionValue } from '@/domain/grants'
import { statusView } from '@/domain/device-view'
import styles from './fleet.module.scss'

/**
 * Name, level badge in its theme colour, 已授权 when someone else authorised it to me, 自动续费 when it
 * is on (and why its last try failed), zone, status and remaining time of one phone.
 */
export default function PhoneInfo({
  device,
  statusEntry,
  now,
  compact = false,
}: {
  device: Device
  statusEntry: DeviceStatusEntry | undefined
  now: number
  compact?: boolean
}) {
  const level = levelInfo(device.level)
  const status = statusView(device, statusEntry)
  return (
    <View className={compact ? styles.infoCompact : styles.info}>
      <View className={styles.titleRow}>
        <Text className={styles.name}>{device.name}</Text>
        {level && !compact && (
          <Text className={styles.levelBadge} style={{ background: level.themeColor }}>
            {level.name}
          </Text>
        )}
        {device.grant && (
          <Text className={styles.grantBadge}>
            已授权·{GRANT_PERMISSION_LABELS[device.grant.permission as GrantPermissionValue] ?? ''}
          </Text>
        )}
      </View>
      <View className={styles.metaRow}>
        <Text className={styles.status} style={{ color: status.color }}>
          ● {status.text}
        </Text>
        {!compact && <Text className={styles.zone}>{device.zoneName}</Text>}
        <Text className={styles.remaining}>{remainingText(device.expireAt, now)}</Text>
        {device.autoRenew && !compact && (
          <Text
            className={device.autoRenew.failure ? styles.autoRenewFailed : styles.autoRenewBadge}
          >
            {autoRenewCardText(device.autoRenew)}
          </Text>
        )}
      </View>
    </View>
  )
}
