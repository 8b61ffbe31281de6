import { useEffect, useRef, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import platform from '@/platform'
import styles from '../../scan.module.scss'

interface Props {
  onText(text: string): void
  onFail(error: unknown): void
}

const FRAME_MS = 300

/** H5: a live camera preview read every 300 ms with jsqr, and 从相册选择 (an image decoded the same way). */
export default function ScanSource({ onText, onFail }: Props) {
  const video = useRef<HTMLVideoElement>(null)
  const [cameraProblem, setCameraProblem] = useState<string | null>(null)

  useEffect(() => {
    let stream: MediaStream | null = null
    let timer: ReturnType<typeof setInterval> | undefined
    let stopped = false
    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setCameraProblem('当前浏览器无法使用摄像头，请从相册选择二维码图片')
        return
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment' },
          audio: false,
        })
      } catch {
        setCameraProblem('无法打开摄像头，请允许访问摄像头或从相册选择二维码图片')
        return
      }
      const element = video.current
      if (stopped || !element) return stream.getTracks().forEach((track) => track.stop())
      element.srcObject = stream
      await element.play().catch(() => undefined)
      const { decodeDrawable } = await import('@/platform/qr-decode.h5')
      const canvas = document.createElement('canvas')
      timer = setInterval(() => {
        const text = decodeDrawable(element, element.videoWidth, element.videoHeight, canvas)
        if (text != null && !stopped) {
          stopped = true
          clearInterval(timer)
          onText(text)
        }
      }, FRAME_MS)
    }
    void start()
    return () => {
      stopped = true
      clearInterval(timer)
      stream?.getTracks().forEach((track) => track.stop())
    }
    // the camera starts once per page
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  return (
    <View className={styles.panel}>
      <View className={styles.viewfinder}>
        {cameraProblem ? (
          <Text className={styles.cameraTip}>{cameraProblem}</Text>
        ) : (
          <video ref={video} className={styles.video} muted playsInline aria-label="摄像头画面" />
        )}
      </View>
      <Text className={styles.tip}>将二维码放入框内，即可自动扫描</Text>
      <Button block onClick={() => platform.scanCode().then(onText, onFail)}>
        从相册选择
      </Button>
    </View>
  )
}
