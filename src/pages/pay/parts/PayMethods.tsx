import { View, Text } from '@tarojs/components'
import type { PayMethod } from '@/domain/order-status'
import styles from './pay.module.scss'

interface PayMethodsProps {
  methods: { value: PayMethod; label: string }[]
  value: PayMethod
  onChange: (method: PayMethod) => void
}

export default function PayMethods({ methods, value, onChange }: PayMethodsProps) {
  return (
    <View role="radiogroup" aria-label="支付方式" className={styles.methods}>
      {methods.map((method) => (
        <View
          key={method.value}
          role="radio"
          aria-checked={method.value === value}
          aria-label={method.label}
          className={styles.method}
          onClick={() => onChange(method.value)}
        >
          <Text>{method.label}</Text>
          <View className={`${styles.dot} ${method.value === value ? styles.checked : ''}`} />
        </View>
      ))}
    </View>
  )
}
