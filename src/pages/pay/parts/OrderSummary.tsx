import { View, Text } from '@tarojs/components'
import type { OrderInfo } from '@/types/api'
import { formatDate, formatLinePrice, formatYuan } from '@/domain/formatters'
import { orderKindLabels } from '@/domain/order-status'
import styles from './pay.module.scss'

function Row({ label, value }: { label: string; value: string }) {
  return (
    <View className={styles.row}>
      <Text className={styles.label}>{label}</Text>
      <Text>{value}</Text>
    </View>
  )
}

/** A renewal lists its first phones; a studio's (up to 10,000) then says how many in all. */
const SHOWN_RENEWALS = 20

/** What the order is for and what it costs. */
export default function OrderSummary({ order }: { order: OrderInfo }) {
  return (
    <View className={styles.card}>
      <View className={styles.amount}>
        <Text className={styles.yuan}>{formatYuan(order.amount)}</Text>
        {order.originalAmount > order.amount && (
          <Text className={styles.old}>{formatYuan(order.originalAmount)}</Text>
        )}
      </View>
      <Row label="订单类型" value={orderKindLabels[order.kind]} />
      {order.goodsName && <Row label="商品" value={order.goodsName} />}
      {order.durationLabel && <Row label="时长" value={order.durationLabel} />}
      {order.zoneName && <Row label="地区" value={order.zoneName} />}
      <Row label="数量" value={`${order.quantity}`} />
      {order.lines.map((line) => (
        <Row key={line.label} label={line.label} value={formatLinePrice(line)} />
      ))}
      {order.renewals.slice(0, SHOWN_RENEWALS).map((r) => (
        <Row
          key={r.deviceId}
          label={r.deviceName ?? `云手机 ${r.deviceId}`}
          value={`续至 ${formatDate(r.newExpireAt)}`}
        />
      ))}
      {order.kind === 'renew' &&
        order.quantity > Math.min(SHOWN_RENEWALS, order.renewals.length) && (
          <Row label="续费云手机" value={`共${order.quantity}台`} />
        )}
      {order.remark && <Row label="备注" value={order.remark} />}
      <Row label="订单号" value={order.orderNo} />
    </View>
  )
}
