import { useCallback } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import type { Device } from '@/types/api'
import PagedList from '@/components/PagedList'
import { toast } from '@/runtime/feedback'
import { canRenew, remainingText } from '@/domain/device-lifecycle'
import { statusView } from '@/domain/device-view'
import { listDevices } from '@/api/device'
import { goBack } from '@/runtime/navigation'
import { useStores } from '@/stores'
import styles from './activateDevice.module.scss'

/**
 * Choose one of my phones (for renewing it with an activation code). The choice goes back through
 * the fleet store's `pickedDevice`, which user/activateDevice reads when it shows again.
 */
function ChooseDevice() {
  const { fleet } = useStores()
  const now = Date.now()
  const load = useCallback((page: number, rows: number) => listDevices({}, page, rows), [])

  const choose = (device: Device) => {
    if (!canRenew(device.status)) return toast('这台云手机当前无法续费')
    fleet.pickDevice({ deviceId: device.deviceId, name: device.name })
    void goBack()
  }

  return (
    <View className={styles.page}>
      <PagedList<Device>
        className={styles.list}
        load={load}
        keyOf={(device) => device.deviceId}
        emptyText="您还没有云手机"
        renderItem={(device) => {
          const renewable = canRenew(device.status)
          const status = statusView(device, fleet.statusOf(device.status))
          return (
            <View
              className={renewable ? styles.device : styles.deviceDisabled}
              role="button"
              aria-disabled={!renewable}
              onClick={() => choose(device)}
            >
              <Text className={styles.deviceName}>{device.name}</Text>
              <Text className={styles.codeMeta}>
                {device.zoneName} · <Text style={{ color: status.color }}>{status.text}</Text> ·{' '}
                {remainingText(device.expireAt, now)}
              </Text>
            </View>
          )
        }}
      />
    </View>
  )
}

export default observer(ChooseDevice)
