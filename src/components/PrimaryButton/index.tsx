import type { PropsWithChildren } from 'react'
import { View } from '@tarojs/components'
import styles from './index.module.scss'

/**
 * A full-width primary button drawn like NutUI's (`type="primary" block`) for the H5 first route, Home
 * signed out: NutUI's Button brings Taro's button element, its loading icon and 13 KB of stylesheet for
 * every variant, 4.5 KiB gzip of the 150 KiB budget (docs/performance.md). Use NutUI's anywhere else.
 */
export default function PrimaryButton({
  children,
  onClick,
}: PropsWithChildren<{ onClick(): void }>) {
  return (
    <View className={styles.button} role="button" onClick={onClick}>
      {children}
    </View>
  )
}
