import { useState, type ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { InputNumber } from '@nutui/nutui-react-taro'
import type { Quote } from '@/types/api'
import { QuoteLines } from '@/components/CheckoutBar'
import Section from '@/components/Section'
import { MIN_QUANTITY, validateQuantity } from '@/domain/pricing'
import styles from './parts.module.scss'

/** The quantity being ordered and why it cannot be (null when it can). */
export function useQuantity() {
  const [quantity, setQuantity] = useState(MIN_QUANTITY)
  const [error, setError] = useState<string | null>(null)
  return {
    quantity,
    error,
    set: (q: number, reason: string | null) => {
      setQuantity(q)
      setError(reason)
    },
    /** another goods was chosen: its limit applies */
    recheck: (max: number) => setError(validateQuantity(quantity, max)),
  }
}
export type QuantityState = ReturnType<typeof useQuantity>

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

interface QuantityLinesProps {
  max: number
  state: QuantityState
  quote: Quote | null
  quoteError: string
}

/** The number box with the quote's price lines below it, inside a section of the caller's. */
export function QuantityLines({ max, state, quote, quoteError }: QuantityLinesProps) {
  return (
    <>
      <QuantityField value={state.quantity} max={max} error={state.error} onChange={state.set} />
      <QuoteLines quote={quote} />
      {quoteError && <Text className={styles.error}>{quoteError}</Text>}
    </>
  )
}

/** Quantity with the quote's price lines below it, as a section of its own. */
export function QuantitySection({
  title,
  children,
  ...lines
}: QuantityLinesProps & { title: string; children?: ReactNode }) {
  return (
    <Section title={title}>
      <QuantityLines {...lines} />
      {children}
    </Section>
  )
}
