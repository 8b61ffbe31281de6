import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import type { SpacePackages } from '@/types/api'
import CheckoutBar from '@/components/CheckoutBar'
import CouponPicker from '@/components/CouponPicker'
import { toast, toastError } from '@/runtime/feedback'
import PackageGrid from '@/components/PackageGrid'
import { usePackageCheckout } from '@/components/PackageGrid/use-package-checkout'
import { formatYuan, formatBytes } from '@/domain/formatters'
import { createSpaceOrder, getSpacePackages } from '@/api/space'
import styles from './space.module.scss'

/** 购买空间: the space packages, a coupon, an order for the chosen one, paid on pay/pay. */
export default function BuySpace() {
  const [data, setData] = useState<SpacePackages | null>(null)
  const checkout = usePackageCheckout('cloudSpace', data?.packages)
  const { pack, quote, coupons } = checkout

  useDidShow(() => {
    getSpacePackages().then(setData).catch(toastError)
  })

  const pay = () => {
    if (!pack || !quote) return toast('请选择云空间套餐')
    return checkout.openOrder((idempotencyKey) =>
      createSpaceOrder({ packageId: pack.id, ...coupons.orderFields(quote), idempotencyKey }),
    )
  }

  return (
    <View className={styles.buyPage}>
      <Text className={styles.sectionTitle}>选择空间套餐</Text>
      <PackageGrid
        label="云空间套餐"
        packages={data?.packages}
        chosenId={checkout.chosenId}
        onChoose={checkout.choose}
      >
        {(p) => (
          <>
            <Text className={styles.size}>{formatBytes(p.bytes)}</Text>
            <Text className={styles.days}>{p.days}天</Text>
            <Text className={styles.price}>{formatYuan(p.price)}</Text>
          </>
        )}
      </PackageGrid>
      <CouponPicker result={coupons.result} selected={coupons.selected} onSelect={coupons.select} />
      <Text className={styles.note}>
        购买的空间自支付成功起生效，到期后自动失效；免费的 2 GB 一直保留。
      </Text>
      <CheckoutBar
        quote={checkout.charged}
        buttonText="立即购买"
        disabled={checkout.submitting}
        onSubmit={pay}
      />
    </View>
  )
}
