import { useCallback, useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { Device, InstalledApp } from '@/types/api'
import PagedList from '@/components/PagedList'
import { confirmDestructive, toastError, toastSuccess } from '@/runtime/feedback'
import { navigate } from '@/runtime/navigation'
import { listDevices, sendCommand } from '@/api/device'
import { launchApp, listInstalled } from '@/api/app'
import styles from './apps.module.scss'

/**
 * 云手机上的应用: without a phone, the user's phones to pick one; with `deviceId`, the apps on it now,
 * each with 打开 (on the phone's screen) and 卸载 (the SPEC's Uninstall command, after a confirm).
 */
export default function InstalledApps() {
  const { params } = useRouter()
  const deviceId = Number(params.deviceId)
  return deviceId > 0 ? <PhoneApps deviceId={deviceId} /> : <PhonePicker />
}

function PhonePicker() {
  const load = useCallback((page: number, rows: number) => listDevices({}, page, rows), [])
  return (
    <View className={styles.page}>
      <Text className={styles.hint}>选择一台云手机，查看、打开或卸载它上面的应用</Text>
      <PagedList<Device>
        load={load}
        keyOf={(device) => device.deviceId}
        renderItem={(device) => (
          <View
            className={styles.item}
            role="button"
            aria-label={device.name}
            onClick={() => navigate('appsInstalled', { deviceId: device.deviceId })}
          >
            <Text className={styles.name}>{device.name}</Text>
          </View>
        )}
      />
    </View>
  )
}

function PhoneApps({ deviceId }: { deviceId: number }) {
  const [apps, setApps] = useState<InstalledApp[] | null>(null)
  const load = useCallback(async () => {
    try {
      setApps(await listInstalled(deviceId))
    } catch (error) {
      toastError(error)
    }
  }, [deviceId])
  useDidShow(() => void load())

  const open = async (app: InstalledApp) => {
    try {
      await launchApp(deviceId, app.packageName)
      toastSuccess(`已打开${app.name}`)
    } catch (error) {
      toastError(error)
    }
  }

  const uninstall = async (app: InstalledApp) => {
    if (
      !(await confirmDestructive(
        '卸载应用',
        `从这台云手机卸载「${app.name}」？应用数据将一并删除`,
        '卸载',
      ))
    )
      return
    try {
      await sendCommand({ deviceId, command: 'Uninstall', packageName: app.packageName })
      toastSuccess('已卸载')
      await load()
    } catch (error) {
      toastError(error)
    }
  }

  return (
    <View className={styles.page}>
      {apps && apps.length === 0 && <Text className={styles.empty}>这台云手机上没有应用</Text>}
      {apps?.map((app) => (
        <View key={app.packageName} className={styles.item} aria-label={app.name}>
          <View className={styles.info}>
            <Text className={styles.name}>{app.name}</Text>
            <Text className={styles.meta}>
              {app.versionName ? `${app.versionName} · ` : ''}
              {app.packageName}
            </Text>
          </View>
          <View className={styles.actions}>
            <Button size="small" type="primary" onClick={() => void open(app)}>
              打开
            </Button>
            <Button size="small" onClick={() => void uninstall(app)}>
              卸载
            </Button>
          </View>
        </View>
      ))}
    </View>
  )
}
