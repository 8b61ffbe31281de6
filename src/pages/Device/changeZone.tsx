import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { navigate } from '@/runtime/navigation'
import { useDevicePage } from './parts/use-device-page'
import styles from './device-page.module.scss'

export const ZONE_CHANGE_WARNING =
  '更换地区会把云手机迁移到新地区的机房：迁移期间云手机无法使用，应用和数据会尽量一并迁移，但无法保证全部保留，请提前备份重要数据。'

/** Change region, step 1: the current zone and what a move means. */
export default function ChangeZone() {
  const { deviceId, device, missing } = useDevicePage()
  if (missing) return <View className={styles.centre}>云手机不存在或已释放</View>
  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.label}>{device?.name ?? ''} 当前地区</Text>
        <Text className={styles.value}>{device?.zoneName ?? '加载中...'}</Text>
      </View>
      <View className={styles.warning} role="note">
        {ZONE_CHANGE_WARNING}
      </View>
      <View className={styles.footer}>
        <Button
          type="primary"
          block
          disabled={!device}
          onClick={() => void navigate('selectChangeZone', { deviceId })}
        >
          选择新地区
        </Button>
      </View>
    </View>
  )
}
