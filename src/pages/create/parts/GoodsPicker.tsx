import { View, Text } from '@tarojs/components'
import type { Goods } from '../../../../types/api'
import styles from './parts.module.scss'

interface GoodsPickerProps {
  goods: Goods[]
  value?: number
  onChange: (goodId: number) => void
}

/** Every configuration on sale, labelled with its level in the level's colour. */
export default function GoodsPicker({ goods, value, onChange }: GoodsPickerProps) {
  return (
    <View className={styles.picker} role="radiogroup" aria-label="选择配置">
      {goods.map((g) => (
        <View
          key={g.goodId}
          role="radio"
          aria-checked={g.goodId === value}
          aria-label={g.name}
          className={`${styles.option} ${g.goodId === value ? styles.optionSelected : ''}`}
          onClick={() => onChange(g.goodId)}
        >
          <Text className={styles.optionLevel} style={{ color: g.themeColor }}>
            {g.levelName}
          </Text>
          <Text className={styles.optionName}>{g.name}</Text>
          <Text className={styles.optionText}>
            {g.configName} · {g.androidVersionLabel}
          </Text>
        </View>
      ))}
    </View>
  )
}
