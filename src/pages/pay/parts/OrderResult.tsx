import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { OrderInfo } from '@/types/api'
import { toastSuccess } from '@/runtime/feedback'
import { OrderStatus } from '@/domain/order-status'
import { navigate } from '@/runtime/navigation'
import { ORDER_NEXT, orderStage } from './pay-flow'
import styles from './pay.module.scss'

const copy = (data: string) => Taro.setClipboardData({ data }).then(() => toastSuccess('已复制'))

/** A paid or closed order: what happened, and where to go next. */
export default function OrderResult({ order }: { order: OrderInfo }) {
  const stage = orderStage(order)
  const completed = order.status === OrderStatus.completed
  const next = order.kind === 'activationCode' ? null : ORDER_NEXT[order.kind]
  return (
    <View className={styles.result} aria-live="polite">
      <Text className={`${styles.stageTitle} ${styles[stage.tone]}`}>{stage.title}</Text>
      <Text className={styles.stageText}>{stage.text}</Text>
      {order.progress && stage.tone === 'progress' && (
        <View
          className={styles.progressBar}
          role="progressbar"
          aria-label="续费进度"
          aria-valuemin={0}
          aria-valuemax={order.progress.total}
          aria-valuenow={order.progress.done}
        >
          <View
            className={styles.progressBarFill}
            style={{ width: `${(100 * order.progress.done) / Math.max(1, order.progress.total)}%` }}
          />
        </View>
      )}
      {completed && order.kind === 'activationCode' && (
        <View className={styles.codes}>
          {order.codes.map((code) => (
            <View key={code} className={styles.code}>
              <Text selectable>{code}</Text>
              <Button size="small" onClick={() => copy(code)}>
                复制
              </Button>
            </View>
          ))}
          {order.codes.length > 1 && (
            <Button size="small" fill="outline" onClick={() => copy(order.codes.join('\n'))}>
              复制全部
            </Button>
          )}
          <Button type="primary" block onClick={() => navigate('activateDevice')}>
            去激活
          </Button>
        </View>
      )}
      {next && stage.tone !== 'closed' && (
        <Button type="primary" block onClick={() => navigate(next.route)}>
          {next.label}
        </Button>
      )}
      {stage.tone === 'closed' && (
        <Button type="primary" block onClick={() => navigate('create')}>
          重新选购
        </Button>
      )}
    </View>
  )
}
