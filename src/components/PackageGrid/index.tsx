import type { ReactNode } from 'react'
import { View } from '@tarojs/components'
import styles from './index.module.scss'

interface PackageGridProps<P extends { id: number }> {
  /** what the packages are, read out for the radio group */
  label: string
  packages: readonly P[] | undefined
  chosenId: number | null
  onChoose: (id: number) => void
  /** the tile's content */
  children: (pack: P) => ReactNode
}

/** Packages on sale (beans, cloud space) as tiles of a radio group, the chosen one highlighted. */
export default function PackageGrid<P extends { id: number }>(props: PackageGridProps<P>) {
  const { label, packages, chosenId, onChoose, children } = props
  return (
    <View className={styles.packages} role="radiogroup" aria-label={label}>
      {packages?.map((pack) => (
        <View
          key={pack.id}
          role="radio"
          aria-checked={pack.id === chosenId}
          className={pack.id === chosenId ? styles.packageActive : styles.package}
          onClick={() => onChoose(pack.id)}
        >
          {children(pack)}
        </View>
      ))}
    </View>
  )
}
