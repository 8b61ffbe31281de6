import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { confirm, toastError, toastSuccess } from '@/runtime/feedback'
import { DeviceStatus } from '@/domain/device-lifecycle'
import { canDo } from '@/domain/device-permissions'
import { replaceDevice } from '@/api/device'
import { goBack } from '@/runtime/navigation'
import { useDevicePage } from './parts/use-device-page'
import styles from './device-page.module.scss'

/** Swap a faulty phone for a new one of the same configuration, zone and expiry. */
export default function Replace() {
  const { deviceId, device, missing } = useDevicePage()
  const allowed =
    device !== null &&
    canDo(
      { status: device.status, permissions: device.permissions, videoEdition: device.videoEdition },
      'replace',
    )

  const submit = async () => {
    if (!device) return
    const ok = await confirm(
      '更换云机',
      `确定更换“${device.name}”吗？更换期间云手机无法使用。`,
      '确定更换',
    )
    if (!ok) return
    try {
      await replaceDevice(deviceId)
      toastSuccess('已提交更换，新云机就绪后即可使用')
      await goBack()
    } catch (error) {
      toastError(error)
    }
  }

  if (missing) return <View className={styles.centre}>云手机不存在或已释放</View>
  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.label}>要更换的云手机</Text>
        <Text className={styles.value}>{device?.name ?? '加载中...'}</Text>
        {device?.status === DeviceStatus.failed && (
          <Text className={styles.text}>这台云手机创建失败，可免费更换一台新的。</Text>
        )}
      </View>
      <View className={styles.card}>
        <Text className={styles.text}>
          云手机运行异常（无法进入、频繁卡顿或黑屏）时，可以更换为一台新的云手机：新云机沿用原来的名称、配置、地区、分组和到期时间，不另收费。
        </Text>
        <Text className={styles.text}>
          系统会尽量把应用和数据迁移到新云机，但无法保证全部保留；更换期间云手机无法使用，通常需要几分钟。
        </Text>
      </View>
      <View className={styles.footer}>
        <Button type="primary" block disabled={!allowed} onClick={submit}>
          {device && !allowed ? '当前状态无法更换' : '更换云机'}
        </Button>
      </View>
    </View>
  )
}
