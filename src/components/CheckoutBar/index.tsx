import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { Quote } from '@/types/api'
import { formatLinePrice, formatYuan } from '@/domain/formatters'
import styles from './index.module.scss'

interface CheckoutBarProps {
  quote?: Quote | null
  /** the quote is being refreshed */
  pending?: boolean
  buttonText: string
  disabled?: boolean
  onSubmit: () => void
  /** why the last submission failed, shown right above the bar */
  error?: string
}

/** The price lines of a quote and the bar at the bottom with the total and the submit button. */
export function QuoteLines({ quote }: { quote?: Quote | null }) {
  if (!quote) return null
  return (
    <View className={styles.lines}>
      {quote.lines.map((line) => (
        <View key={line.label} className={styles.line}>
          <Text>
            {line.label} {formatLinePrice(line)}
          </Text>
          <Text>{formatYuan(line.amount)}</Text>
        </View>
      ))}
    </View>
  )
}

export default function CheckoutBar(props: CheckoutBarProps) {
  const { quote, pending, buttonText, disabled, onSubmit, error } = props
  const saved = quote && quote.originalAmount > quote.total
  return (
    <View className={styles.bar}>
      {error && (
        <View className={styles.alert} role="alert">
          {error}
        </View>
      )}
      <View className={styles.row}>
        <View className={styles.amount}>
          <Text>合计：</Text>
          <Text className={styles.total} aria-label="合计金额">
            {quote ? formatYuan(quote.total) : '--'}
          </Text>
          {saved && <Text className={styles.original}>{formatYuan(quote.originalAmount)}</Text>}
          {pending && <Text className={styles.pending}>计算中…</Text>}
        </View>
        <Button type="primary" disabled={disabled || !quote || pending} onClick={onSubmit}>
          {buttonText}
        </Button>
      </View>
    </View>
  )
}
