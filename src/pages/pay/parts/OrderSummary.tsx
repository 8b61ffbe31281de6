import { View, Text } from '@tarojs/components'
import type { OrderInfo } from '../../../../types/api'
import { formatDate } from '@/domain/formatters'
import { fenToYuan } from '@/domain/formatters'
import styles from './pay.module.scss'

const KIND_LABELS: Record<OrderInfo['kind'], string> = {
  new: '购买云手机',
  renew: '云手机续费',
  upgrade: '云手机升降配',
  video: '升级视频定制版',
  activationCode: '购买激活码',
  beanRecharge: '云豆充值',
  timeToMonth: '云豆转包月',
  balanceRecharge: '账户余额充值',
  cloudSpace: '购买云空间',
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <View className={styles.row}>
      <Text className={styles.label}>{label}</Text>
      <Text>{value}</Text>
    </View>
  )
}

/** What the order is for and what it costs. */
export default function OrderSummary({ order }: { order: OrderInfo }) {
  return (
    <View className={styles.card}>
      <View className={styles.amount}>
        <Text className={styles.yuan}>¥{fenToYuan(order.amount)}</Text>
        {order.originalAmount > order.amount && (
          <Text className={styles.old}>¥{fenToYuan(order.originalAmount)}</Text>
        )}
      </View>
      <Row label="订单类型" value={KIND_LABELS[order.kind]} />
      {order.goodsName && <Row label="商品" value={order.goodsName} />}
      {order.durationLabel && <Row label="时长" value={order.durationLabel} />}
      {order.zoneName && <Row label="地区" value={order.zoneName} />}
      <Row label="数量" value={`${order.quantity}`} />
      {order.lines.map((line) => (
        <Row
          key={line.label}
          label={line.label}
          value={`¥${fenToYuan(line.unitPrice)} × ${line.quantity}`}
        />
      ))}
      {order.renewals.map((r) => (
        <Row
          key={r.deviceId}
          label={`云手机 ${r.deviceId}`}
          value={`续至 ${formatDate(r.newExpireAt)}`}
        />
      ))}
      {order.remark && <Row label="备注" value={order.remark} />}
      <Row label="订单号" value={order.orderNo} />
    </View>
  )
}
