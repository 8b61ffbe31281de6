import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { RechargePackages } from '../../../types/api'
import { toast, toastError } from '@/components/feedback'
import { useIdempotencyKey } from '@/components/use-idempotency-key'
import { fenToYuan } from '@/domain/formatters'
import { createRechargeOrder, getRechargePackages } from '@/services/wallet'
import { navigate } from '@/services/navigation'
import styles from './recharge.module.scss'

/** 我的云豆: the balance, the recharge packages, and paying for one on pay/pay. */
export default function Recharge() {
  const [data, setData] = useState<RechargePackages | null>(null)
  const [chosen, setChosen] = useState<number | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const idempotency = useIdempotencyKey()

  useDidShow(() => {
    getRechargePackages()
      .then((answer) => {
        setData(answer)
        setChosen((current) => current ?? answer.packages[0]?.id ?? null)
      })
      .catch(toastError)
  })

  const pack = data?.packages.find((p) => p.id === chosen)

  const pay = async () => {
    if (!pack) return toast('请选择充值套餐')
    setSubmitting(true)
    try {
      const order = await createRechargeOrder({
        packageId: pack.id,
        expectedAmount: pack.price,
        idempotencyKey: idempotency.current(),
      })
      idempotency.renew()
      await navigate('pay', { orderNo: order.orderNo })
    } catch (error) {
      toastError(error)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <View className={styles.page}>
      <View className={styles.balanceCard}>
        <Text className={styles.balanceLabel}>云豆余额</Text>
        <Text className={styles.balance} aria-label="云豆余额">
          {data ? data.balance : '--'}
        </Text>
        <Text className={styles.rate}>1云豆抵1分，可用于支付订单和转包月</Text>
        <View className={styles.links}>
          <Text className={styles.link} onClick={() => void navigate('cloudBeansList')}>
            云豆明细 ›
          </Text>
          <Text className={styles.link} onClick={() => void navigate('cloudBeanToMonthly')}>
            云豆转包月 ›
          </Text>
        </View>
      </View>
      <Text className={styles.sectionTitle}>选择充值套餐</Text>
      <View className={styles.packages} role="radiogroup" aria-label="充值套餐">
        {data?.packages.map((p) => (
          <View
            key={p.id}
            role="radio"
            aria-checked={p.id === chosen}
            className={p.id === chosen ? styles.packageActive : styles.package}
            onClick={() => setChosen(p.id)}
          >
            <Text className={styles.beans}>{p.beans}云豆</Text>
            {p.bonus > 0 && <Text className={styles.bonus}>赠送{p.bonus}云豆</Text>}
            <Text className={styles.price}>¥{fenToYuan(p.price)}</Text>
          </View>
        ))}
      </View>
      <View className={styles.footer}>
        <Text>
          应付：<Text className={styles.total}>¥{pack ? fenToYuan(pack.price) : '0.00'}</Text>
        </Text>
        <Button type="primary" loading={submitting} disabled={!pack} onClick={pay}>
          立即充值
        </Button>
      </View>
    </View>
  )
}
