import { View, Text } from '@tarojs/components'
import type { PayMethod } from '@/domain/order-status'
import styles from './pay.module.scss'

interface PayMethodsProps {
  methods: { value: PayMethod; label: string }[]
  value: PayMethod
  onChange: (method: PayMethod) => void
  /** a line under a method, e.g. the beans balance */
  notes?: Partial<Record<PayMethod, string>>
}

export default function PayMethods({ methods, value, onChange, notes }: PayMethodsProps) {
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
          <View className={styles.methodText}>
            <Text>{method.label}</Text>
            {notes?.[method.value] && <Text className={styles.hint}>{notes[method.value]}</Text>}
          </View>
          <View className={`${styles.dot} ${method.value === value ? styles.checked : ''}`} />
        </View>
      ))}
    </View>
  )
}
