import { useEffect } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import platform from '@/platform'
import styles from '../../scan.module.scss'

interface Props {
  onText(text: string): void
  onFail(error: unknown): void
}

/** Mini-program: the system scanner (camera or album) opens at once; 扫一扫 opens it again. */
export default function ScanSource({ onText, onFail }: Props) {
  const open = () => platform.scanCode().then(onText, onFail)
  useEffect(() => {
    void open()
    // open once when the page shows
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return (
    <View className={styles.panel}>
      <Text className={styles.tip}>将二维码放入框内，即可自动扫描</Text>
      <Button type="primary" block onClick={open}>
        扫一扫
      </Button>
    </View>
  )
}
