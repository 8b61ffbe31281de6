import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { SpacePackages } from '../../../types/api'
import { toast, toastError } from '@/components/feedback'
import { useIdempotencyKey } from '@/components/use-idempotency-key'
import { fenToYuan, formatBytes } from '@/domain/formatters'
import { navigate } from '@/services/navigation'
import { createSpaceOrder, getSpacePackages } from '@/services/space'
import styles from './space.module.scss'

/** 购买空间: the space packages, an order for the chosen one, paid on pay/pay. */
export default function BuySpace() {
  const [data, setData] = useState<SpacePackages | null>(null)
  const [chosen, setChosen] = useState<number | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const idempotency = useIdempotencyKey()

  useDidShow(() => {
    getSpacePackages()
      .then((answer) => {
        setData(answer)
        setChosen((current) => current ?? answer.packages[0]?.id ?? null)
      })
      .catch(toastError)
  })

  const pack = data?.packages.find((p) => p.id === chosen)

  const pay = async () => {
    if (!pack) return toast('请选择云空间套餐')
    setSubmitting(true)
    try {
      const order = await createSpaceOrder({
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
      <View className={styles.heading}>
        <Text className={styles.title}>选择空间套餐</Text>
      </View>
      <View className={styles.packages} role="radiogroup" aria-label="云空间套餐">
        {data?.packages.map((p) => (
          <View
            key={p.id}
            role="radio"
            aria-checked={p.id === chosen}
            className={p.id === chosen ? styles.packageActive : styles.package}
            onClick={() => setChosen(p.id)}
          >
            <Text className={styles.size}>{formatBytes(p.bytes)}</Text>
            <Text className={styles.days}>{p.days}天</Text>
            <Text className={styles.price}>¥{fenToYuan(p.price)}</Text>
          </View>
        ))}
      </View>
      <Text className={styles.text}>
        购买的空间自支付成功起生效，到期后自动失效；免费的 2 GB 一直保留。
      </Text>
      <View className={styles.payBar}>
        <Text>
          应付：<Text className={styles.total}>¥{pack ? fenToYuan(pack.price) : '0.00'}</Text>
        </Text>
        <Button type="primary" loading={submitting} disabled={!pack} onClick={pay}>
          立即购买
        </Button>
      </View>
    </View>
  )
}
