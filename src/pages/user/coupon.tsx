import { useCallback, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { listCoupons } from '@/api/coupon'
import { navigate } from '@/runtime/navigation'
import PagedList from '@/components/PagedList'
import CouponCard from '@/components/CouponPicker/CouponCard'
import { CouponStatus, couponStatusLabels } from '@/domain/enums'
import type { UserCoupon } from '@/types/api'
import styles from './coupon.module.scss'

const TABS = [CouponStatus.efficient, CouponStatus.used, CouponStatus.expired, CouponStatus.invalid]

/** My coupons by status (可使用 / 已使用 / 已过期 / 已失效), with a way to the usage records. */
export default function CouponPage() {
  const [status, setStatus] = useState<number>(CouponStatus.efficient)
  const load = useCallback(
    (page: number, rows: number) => listCoupons(page, status, rows),
    [status],
  )
  return (
    <View className={styles.page}>
      <View className={styles.tabs}>
        {TABS.map((tab) => (
          <Text
            key={tab}
            className={`${styles.tab} ${tab === status ? styles.active : ''}`}
            onClick={() => setStatus(tab)}
          >
            {couponStatusLabels[tab]}
          </Text>
        ))}
      </View>
      <PagedList<UserCoupon>
        className={styles.list}
        load={load}
        reloadKey={status}
        keyOf={(coupon) => coupon.id}
        renderItem={(coupon) => (
          <CouponCard coupon={coupon} dim={coupon.status !== CouponStatus.efficient} />
        )}
      />
      <View className={styles.footer}>
        <Button block fill="outline" onClick={() => navigate('couponUse')}>
          使用记录
        </Button>
      </View>
    </View>
  )
}
