import { View, Text } from '@tarojs/components'
import type { GoodsLevelGroup } from '@/types/api'
import styles from './parts.module.scss'

/** '畅享版 4核4G' under the tab 畅享版 says '4核4G'. */
const withoutLevel = (name: string, level: string) =>
  name.startsWith(level) ? name.slice(level.length).trim() || name : name

interface GoodsPickerProps {
  levels: GoodsLevelGroup[]
  value?: number
  onChange: (goodId: number) => void
}

/**
 * Level first, as a row of tabs in the level's colour, then that level's configurations as compact
 * chips: twenty configurations in two short rows instead of twenty cards. The level shown is the
 * chosen goods'; another level chooses its first configuration.
 */
export default function GoodsPicker({ levels, value, onChange }: GoodsPickerProps) {
  const offered = levels.filter((l) => l.goods.length > 0)
  const current = offered.find((l) => l.goods.some((g) => g.goodId === value)) ?? offered[0]
  if (!current) return null
  return (
    <View className={styles.picker}>
      <View className={styles.levels} role="tablist" aria-label="选择等级">
        {offered.map((l) => {
          const active = l === current
          return (
            <View
              key={l.level}
              role="tab"
              aria-selected={active}
              className={active ? styles.levelTabActive : styles.levelTab}
              style={active ? { color: l.themeColor, borderColor: l.themeColor } : undefined}
              onClick={() => !active && onChange(l.goods[0].goodId)}
            >
              {l.name}
            </View>
          )
        })}
      </View>
      <View className={styles.configs} role="radiogroup" aria-label="选择配置">
        {current.goods.map((g) => (
          <View
            key={g.goodId}
            role="radio"
            aria-checked={g.goodId === value}
            aria-label={`${g.name} ${g.androidVersionLabel}`}
            className={`${styles.option} ${g.goodId === value ? styles.optionSelected : ''}`}
            onClick={() => onChange(g.goodId)}
          >
            <Text className={styles.optionName}>
              {withoutLevel(g.name, g.levelName)} · {g.androidVersionLabel}
            </Text>
            <Text className={styles.optionText}>{g.configName}</Text>
          </View>
        ))}
      </View>
    </View>
  )
}
