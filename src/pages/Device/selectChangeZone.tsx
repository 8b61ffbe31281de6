import { useCallback, useEffect, useState } from 'react'
import { View, Text } from '@tarojs/components'
import type { ZoneStock } from '@/types/api'
import { confirm, toast, toastError, toastSuccess } from '@/runtime/feedback'
import { InventoryStatus } from '@/domain/enums'
import { changeZone } from '@/api/device'
import { getZones } from '@/api/goods'
import { goBack } from '@/runtime/navigation'
import { useDevicePage } from './parts/use-device-page'
import styles from './device-page.module.scss'

/** Change region, step 2: the zones of this phone's goods with stock; sold-out ones disabled. */
export default function SelectChangeZone() {
  const { deviceId, device, missing } = useDevicePage()
  const [zones, setZones] = useState<ZoneStock[] | null>(null)
  const goodId = device?.goodId

  const loadZones = useCallback(() => {
    if (goodId === undefined) return
    getZones(goodId)
      .then(setZones)
      .catch((error) => {
        setZones([])
        toastError(error)
      })
  }, [goodId])
  useEffect(loadZones, [loadZones])

  const choose = async (zone: ZoneStock) => {
    if (!device || zone.zoneId === device.zoneId) return
    if (zone.inventoryStatus === InventoryStatus.insufficient) return
    const ok = await confirm(
      '更换地区',
      `确定把“${device.name}”从${device.zoneName}迁移到${zone.name}吗？迁移期间云手机无法使用。`,
    )
    if (!ok) return
    try {
      const outcome = await changeZone(deviceId, zone.zoneId)
      if (!outcome.ok) {
        // sold out since the list was shown: say so and show the stock as it is now
        toast(outcome.msg)
        loadZones()
        return
      }
      toastSuccess('已提交更换，迁移完成后即可使用')
      await goBack(2)
    } catch (error) {
      toastError(error)
    }
  }

  if (missing) return <View className={styles.centre}>云手机不存在或已释放</View>
  if (!zones) return <View className={styles.centre}>加载中...</View>
  return (
    <View className={styles.page}>
      {zones.map((zone) => {
        const current = zone.zoneId === device?.zoneId
        const soldOut = zone.inventoryStatus === InventoryStatus.insufficient
        return (
          <View
            key={zone.zoneId}
            role="button"
            aria-disabled={current || soldOut}
            className={`${styles.row} ${current || soldOut ? styles.rowDisabled : ''}`}
            onClick={() => void choose(zone)}
          >
            <Text>{zone.name}</Text>
            {current ? (
              <Text className={styles.tag}>当前地区</Text>
            ) : (
              <Text className={soldOut ? styles.soldOut : styles.tag}>{zone.statusText}</Text>
            )}
          </View>
        )
      })}
      {zones.length === 0 && <View className={styles.centre}>暂无可选地区</View>}
    </View>
  )
}
