import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import Picture from '@/components/Picture'
import { fileUrl } from '@/runtime/request'
import styles from './fleet.module.scss'

/**
 * A phone's screen. A new frame loads in a hidden image and replaces the shown one only once it has
 * arrived, so the last frame stays up while the next loads (no blank flash every 10 s).
 */
export default function CoverImage({
  url,
  placeholder,
  label,
}: {
  url: string | undefined
  /** shown when there is no frame yet (e.g. 创建中) */
  placeholder: string
  label: string
}) {
  const next = url ? fileUrl(url) : ''
  const [shown, setShown] = useState('')
  return (
    <View className={styles.cover} aria-label={label}>
      {shown ? (
        <Picture alt="云手机画面" className={styles.coverImage} src={shown} mode="aspectFill" />
      ) : (
        <Text className={styles.coverPlaceholder}>{placeholder}</Text>
      )}
      {next && next !== shown && (
        <Picture
          alt=""
          className={styles.coverLoading}
          src={next}
          mode="aspectFill"
          onLoad={() => setShown(next)}
        />
      )}
    </View>
  )
}
