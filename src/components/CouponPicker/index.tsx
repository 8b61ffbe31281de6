import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import Section from '@/components/Section'
import { formatYuan } from '@/domain/formatters'
import type { ApplicableCoupon, ApplicableCoupons } from '@/types/api'
import CouponCard from './CouponCard'
import styles from './index.module.scss'

interface Props {
  result: ApplicableCoupons | null
  selected: ApplicableCoupon | null
  onSelect: (id: number | null) => void
}

/**
 * 优惠券 at checkout: the chosen coupon and its discount; opened, every coupon the buyer holds — the
 * usable ones to pick (or 不使用优惠券), the others greyed with why they do not apply.
 */
export default function CouponPicker({ result, selected, onSelect }: Props) {
  const [open, setOpen] = useState(false)
  if (!result) return null
  const usable = result.coupons.filter((coupon) => coupon.usable)
  const summary = selected
    ? formatYuan(-selected.discount)
    : usable.length > 0
      ? `${usable.length}张可用`
      : '暂无可用'
  const pick = (id: number | null) => {
    onSelect(id)
    setOpen(false)
  }
  return (
    <Section
      title="优惠券"
      extra={
        <Text className={styles.summary} onClick={() => setOpen(!open)}>
          {summary} {open ? '收起' : '选择'}
        </Text>
      }
    >
      {selected && !open && <Text className={styles.chosen}>已选：{selected.name}</Text>}
      {open && (
        <View>
          {result.coupons.map((coupon) => (
            <CouponCard
              key={coupon.id}
              coupon={coupon}
              dim={!coupon.usable}
              note={coupon.usable ? `可减 ${formatYuan(coupon.discount)}` : coupon.reason}
              action={
                coupon.usable ? (
                  <Text className={styles.tick}>{selected?.id === coupon.id ? '✓' : '○'}</Text>
                ) : undefined
              }
              onClick={coupon.usable ? () => pick(coupon.id) : undefined}
            />
          ))}
          {result.coupons.length === 0 && <Text className={styles.chosen}>暂无优惠券</Text>}
          {usable.length > 0 && (
            <Text className={styles.none} onClick={() => pick(null)}>
              不使用优惠券
            </Text>
          )}
        </View>
      )}
    </Section>
  )
}
