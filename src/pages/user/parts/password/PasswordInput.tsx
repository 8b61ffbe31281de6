import { View, Text } from '@tarojs/components'
import { Input } from '@nutui/nutui-react-taro'
import styles from './PasswordInput.module.scss'

export interface PasswordInputProps {
  label: string
  placeholder: string
  value: string
  onChange: (value: string) => void
}

/** One labelled password row of the change/set-password forms (6–13 characters). */
export default function PasswordInput({ label, placeholder, value, onChange }: PasswordInputProps) {
  return (
    <View className={styles.row}>
      <Text className={styles.label}>{label}</Text>
      <Input
        type="password"
        maxLength={13}
        placeholder={placeholder}
        aria-label={label}
        value={value}
        onChange={onChange}
      />
    </View>
  )
}
