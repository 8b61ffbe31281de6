import { KEYBOARD_SCROLLABLE } from '@/platform/a11y'
import { LEVELS } from '@/domain/catalogue'
import styles from './catalogue.module.scss'

interface LevelTabsProps {
  value: number
  onChange: (level: number) => void
}

/** The five goods levels, each in its theme colour. */
export default function LevelTabs({ value, onChange }: LevelTabsProps) {
  return (
    <div className={styles.tabs} role="tablist" {...KEYBOARD_SCROLLABLE}>
      {LEVELS.map((info) => {
        const active = info.level === value
        return (
          <div
            key={info.level}
            role="tab"
            aria-selected={active}
            className={styles.tab}
            style={
              active
                ? { background: info.themeColor, color: '#fff', borderColor: info.themeColor }
                : { color: info.themeColor, borderColor: info.themeColor }
            }
            onClick={() => onChange(info.level)}
          >
            <span>{info.name}</span>
          </div>
        )
      })}
    </div>
  )
}
