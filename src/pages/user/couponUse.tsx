import { Text, View } from '@tarojs/components'
import { listCouponUsage } from '@/api/coupon'
import PagedList from '@/components/PagedList'
import { couponValueText, formatDateTime, formatYuan } from '@/domain/formatters'
import type { CouponUsage } from '@/types/api'
import styles from './coupon.module.scss'

/** Used coupons: which order each went on, what it took off and when. */
export default function CouponUse() {
  return (
    <View className={styles.page}>
      <PagedList<CouponUsage>
        className={styles.list}
        load={listCouponUsage}
        keyOf={(usage) => usage.id}
        renderItem={(usage) => (
          <View className={styles.item}>
            <View className={styles.row}>
              <Text className={styles.name}>{usage.name}</Text>
              <Text className={styles.discount}>{formatYuan(-usage.discount)}</Text>
            </View>
            <Text className={styles.line}>面额：{couponValueText(usage) || '—'}</Text>
            <Text className={styles.line}>订单号：{usage.orderNo ?? '—'}</Text>
            <Text className={styles.line}>使用时间：{formatDateTime(usage.usedAt)}</Text>
          </View>
        )}
      />
    </View>
  )
}
