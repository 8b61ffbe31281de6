import type { ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { Input } from '@nutui/nutui-react-taro'
import styles from './index.module.scss'

export interface FormRowProps {
  /** The field's name: read out as the input's accessible name, and shown at the row's left unless `hideLabel`. */
  label: string
  /** The placeholder says what goes in (phone number, SMS code): the label is only read out. */
  hideLabel?: boolean
  /** Inside a titled Section, whose white block already frames the field: no divider line. */
  plain?: boolean
  type?: 'text' | 'tel' | 'number' | 'password'
  maxLength: number
  placeholder: string
  value: string
  onChange: (value: string) => void
  /** Beside the input, e.g. the send-code button. */
  children?: ReactNode
}

/** One input row of a form: its label, the NutUI input and what sits beside it. */
export default function FormRow({
  label,
  hideLabel = false,
  plain = false,
  type = 'text',
  maxLength,
  placeholder,
  value,
  onChange,
  children,
}: FormRowProps) {
  return (
    <View className={plain ? styles.plain : styles.row}>
      {!hideLabel && <Text className={styles.label}>{label}</Text>}
      <Input
        type={type}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-label={label}
        value={value}
        onChange={onChange}
      />
      {children}
    </View>
  )
}
