import { View } from '@tarojs/components'
import styles from './index.module.scss'

interface TickBoxProps {
  checked: boolean
  onChange: (checked: boolean) => void
  /** what ticking it agrees to, for screen readers (the text beside it toggles it too) */
  label: string
}

/**
 * A round tick box for agreeing to terms. NutUI's Checkbox names its role with the mini-program's
 * `aria-role` attribute, which browsers reject as invalid ARIA; this one is a plain role=checkbox.
 */
export default function TickBox({ checked, onChange, label }: TickBoxProps) {
  return (
    <View
      role="checkbox"
      aria-checked={checked}
      aria-label={label}
      className={checked ? styles.checked : styles.box}
      onClick={() => onChange(!checked)}
    />
  )
}
