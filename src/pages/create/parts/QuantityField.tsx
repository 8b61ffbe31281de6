import { View, Text } from '@tarojs/components'
import { InputNumber } from '@nutui/nutui-react-taro'
import { MIN_QUANTITY, validateQuantity } from '@/domain/pricing'
import styles from './parts.module.scss'

interface QuantityFieldProps {
  value: number
  max: number
  error: string | null
  onChange: (quantity: number, error: string | null) => void
}

/** The number box (minimum 1, maximum per order) with the reason a quantity cannot be ordered. */
export default function QuantityField({ value, max, error, onChange }: QuantityFieldProps) {
  const set = (quantity: number) => onChange(quantity, validateQuantity(quantity, max))
  return (
    <View className={styles.quantity}>
      <View className={styles.quantityRow}>
        <Text>购买数量（台）</Text>
        <InputNumber
          aria-label="购买数量"
          value={value}
          min={MIN_QUANTITY}
          max={max}
          onChange={(v) => set(Number(v))}
          onOverlimit={(e) => {
            const typed = (e as { target?: { value?: string } } | undefined)?.target?.value
            // typed past a limit: show why; a tap on − at the minimum or + at the maximum: the same reason
            if (typed !== undefined && typed !== '') set(Number(typed))
            else onChange(value, validateQuantity(value <= MIN_QUANTITY ? 0 : max + 1, max))
          }}
        />
      </View>
      {error && (
        <View className={styles.error} role="alert">
          {error}
        </View>
      )}
    </View>
  )
}
