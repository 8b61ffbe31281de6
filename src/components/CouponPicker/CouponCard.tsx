import type { ReactNode } from 'react'
import { Text, View } from '@tarojs/components'
import { couponValueText } from '@/domain/formatters'
import { couponTypeLabels, CouponType } from '@/domain/enums'
import type { UserCoupon } from '@/types/api'
import { couponCondition, couponScopeText, couponTypeName, couponValidity } from './coupon-text'
import styles from './index.module.scss'

interface Props {
  coupon: UserCoupon
  /** greyed out: used, expired, or not usable on this purchase */
  dim?: boolean
  /** shown under the card (why it cannot be used here) */
  note?: string | null
  /** right-hand control (a tick at checkout) */
  action?: ReactNode
  onClick?: () => void
}

/** One coupon: value, name, condition, scope, validity and the 新到 / 即将过期 markers. */
export default function CouponCard({ coupon, dim, note, action, onClick }: Props) {
  return (
    <View className={`${styles.card} ${dim ? styles.dim : ''}`} onClick={onClick}>
      <View className={styles.value}>
        <Text className={styles.amount}>{couponValueText(coupon)}</Text>
        <Text className={styles.condition}>{couponCondition(coupon)}</Text>
      </View>
      <View className={styles.body}>
        <View className={styles.title}>
          <Text className={styles.name}>{coupon.name}</Text>
          <Text className={styles.type}>{couponTypeName(coupon.couponType)}</Text>
        </View>
        <Text className={styles.line}>{couponScopeText(coupon)}</Text>
        <Text className={styles.line}>{couponValidity(coupon.validUntil)}</Text>
        <View className={styles.markers}>
          {coupon.newArrival && coupon.status === 1 && (
            <Text className={styles.marker}>{couponTypeLabels[CouponType.newArrival]}</Text>
          )}
          {coupon.expiringSoon && (
            <Text className={styles.marker}>{couponTypeLabels[CouponType.expiringSoon]}</Text>
          )}
          {coupon.locked && coupon.status === 1 && (
            <Text className={styles.marker}>待支付订单占用中</Text>
          )}
        </View>
        {note && <Text className={styles.note}>{note}</Text>}
      </View>
      {action && <View className={styles.action}>{action}</View>}
    </View>
  )
}
