import { View } from '@tarojs/components'
import { toastError } from '@/runtime/feedback'
import { redirect } from '@/runtime/navigation'
import ScanSource from './parts/scan/ScanSource'
import styles from './scan.module.scss'

const cancelled = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  /cancel/i.test(String((error as { errMsg?: string }).errMsg))

/** 扫一扫: reads a QR (camera or album) and shows what it is on scanResult. */
export default function Scan() {
  return (
    <View className={styles.page}>
      <ScanSource
        onText={(text) => redirect('scanResult', { text })}
        onFail={(error) => {
          if (!cancelled(error)) toastError(error, '未识别到二维码，请重试')
        }}
      />
    </View>
  )
}
