import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { SeckillItem } from '@/types/api'
import { seckillBlocker, type ActivityPhase } from '@/domain/activity'
import { formatYuan } from '@/domain/formatters'
import { OrderStatus } from '@/domain/order-status'
import styles from '../../activity.module.scss'

interface Props {
  item: SeckillItem
  phase: ActivityPhase
  busy: boolean
  onBuy: (item: SeckillItem) => void
  onPay: (orderNo: string) => void
}

/** One flash-sale item: price, 原价, units left and 立即抢购 (disabled with the reason). */
export default function SeckillItemCard({ item, phase, busy, onBuy, onPay }: Props) {
  const blocker = seckillBlocker(item, phase)
  const unpaid = item.bought && item.orderNo && item.orderStatus === OrderStatus.unpaid
  return (
    <View className={styles.item}>
      <View className={styles.itemHead}>
        <Text className={styles.itemName}>
          {item.goodsName} · {item.durationLabel}
        </Text>
        <Text className={styles.itemConfig}>{item.configName}</Text>
      </View>
      <View className={styles.priceRow}>
        <Text className={styles.price}>{formatYuan(item.price)}</Text>
        <Text className={styles.original}>原价 {formatYuan(item.originalPrice)}</Text>
        <Text className={styles.left}>
          {item.left > 0 ? `剩余 ${item.left} 件` : '已抢光'} · 每人限购{item.perUserLimit}件
        </Text>
      </View>
      {unpaid ? (
        <Button type="primary" block onClick={() => onPay(item.orderNo!)}>
          已抢到，去支付
        </Button>
      ) : (
        <Button
          type="primary"
          block
          disabled={blocker !== null}
          loading={busy}
          onClick={() => onBuy(item)}
        >
          {blocker ?? '立即抢购'}
        </Button>
      )}
    </View>
  )
}
