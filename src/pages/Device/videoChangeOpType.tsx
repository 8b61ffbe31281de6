import { useState } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import type { Device } from '@/types/api'
import CheckoutBar from '@/components/CheckoutBar'
import CouponPicker from '@/components/CouponPicker'
import { useCoupons } from '@/components/CouponPicker/use-coupons'
import Section from '@/components/Section'
import { idParam } from '@/domain/goods-selection'
import { errorMessage } from '@/runtime/feedback'
import { useOrderSubmit } from '@/hooks/use-order-submit'
import { useQuote } from '@/hooks/use-quote'
import { remainingText } from '@/domain/device-lifecycle'
import { getDevice } from '@/api/device'
import { createVideoOrder } from '@/api/order'
import styles from './upOrDownConfig.module.scss'

const FEATURES = [
  '视频定制版针对视频播放、直播与推流场景优化',
  '在现有云手机上升级，数据与应用保持不变',
  '支付后立即生效，有效期与云手机剩余时长一致',
]

/** Upgrade a phone to the video-custom edition, paying for the time it has left. */
export default function VideoChangeOpType() {
  const { params } = useRouter()
  const deviceId = idParam(params.deviceId) ?? 0
  const [device, setDevice] = useState<Device | null>(null)
  const [problem, setProblem] = useState('')

  useLoad(() => {
    getDevice(deviceId)
      .then((d) => {
        setDevice(d)
        if (d.videoEdition) setProblem('该云手机已是视频定制版')
        else if (!d.permissions.includes('videoChangeOpType')) {
          setProblem('该云手机的配置不支持升级视频定制版')
        }
      })
      .catch((e: unknown) => setProblem(errorMessage(e, '云手机信息加载失败')))
  })

  const quoteBody = device && !problem ? { kind: 'video' as const, deviceIds: [deviceId] } : null
  const { quote, error: quoteError, pending } = useQuote(quoteBody)
  const coupons = useCoupons(quoteBody)
  const order = useOrderSubmit()
  const submit = () =>
    quote &&
    order.submit((idempotencyKey) =>
      createVideoOrder({ deviceId, ...coupons.orderFields(quote), idempotencyKey }),
    )

  return (
    <View className={styles.page}>
      <Section title="视频定制版">
        {FEATURES.map((text) => (
          <Text key={text} className={styles.text}>
            · {text}
          </Text>
        ))}
      </Section>
      {device && (
        <Section title="升级的云手机">
          <Text className={styles.name}>{device.name}</Text>
          <Text className={styles.text}>{remainingText(device.expireAt, Date.now())}</Text>
          <Text className={styles.text}>费用按云手机剩余时长计算，到期时间不变</Text>
        </Section>
      )}
      {(problem || quoteError) && <Text className={styles.error}>{problem || quoteError}</Text>}
      <CouponPicker result={coupons.result} selected={coupons.selected} onSelect={coupons.select} />
      <CheckoutBar
        quote={coupons.applyTo(quote)}
        pending={pending}
        buttonText="立即升级"
        disabled={Boolean(problem) || order.running}
        onSubmit={submit}
        error={order.error}
      />
    </View>
  )
}
