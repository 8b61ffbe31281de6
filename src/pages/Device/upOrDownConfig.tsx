import { useState } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import type { Device, Goods, OrderInfo, Quote } from '@/types/api'
import CheckoutBar from '@/components/CheckoutBar'
import CouponPicker from '@/components/CouponPicker'
import { useCoupons } from '@/components/CouponPicker/use-coupons'
import Section from '@/components/Section'
import { idParam } from '@/domain/goods-selection'
import { errorMessage, toastSuccess } from '@/runtime/feedback'
import { useOrderSubmit } from '@/hooks/use-order-submit'
import { useQuote } from '@/hooks/use-quote'
import { androidVersionLabel } from '@/domain/catalogue'
import { remainingText } from '@/domain/device-lifecycle'
import { formatDateTime, formatYuan } from '@/domain/formatters'
import { OrderStatus } from '@/domain/order-status'
import { getDevice } from '@/api/device'
import { getGoodPrice, getGoodsList } from '@/api/goods'
import { navigate } from '@/runtime/navigation'
import { createUpOrDownOrder } from '@/api/order'
import styles from './upOrDownConfig.module.scss'

/** What moving to a configuration means for this phone, from the server's upgrade quote. */
export function changeText(quote: Quote): string {
  const newExpiry = quote.upgrade ? formatDateTime(quote.upgrade.newExpireAt) : ''
  switch (quote.upgrade?.direction) {
    case 'up':
      return `升配需补差价 ${formatYuan(quote.total)}（按剩余时长计算），到期时间不变`
    case 'down':
      return `降配无需付费，剩余时长按价值折算延长至 ${newExpiry}，确认后立即生效`
    default:
      return '价格相同，变更后到期时间不变，确认后立即生效'
  }
}

/** Change a phone's configuration up or down within its android version. */
export default function UpOrDownConfig() {
  const { params } = useRouter()
  const deviceId = idParam(params.deviceId) ?? 0
  const [device, setDevice] = useState<Device | null>(null)
  const [targets, setTargets] = useState<{ goods: Goods; quote: Quote | null }[]>([])
  const [toGoodId, setToGoodId] = useState<number>()
  const [problem, setProblem] = useState('')

  useLoad(async () => {
    try {
      const d = await getDevice(deviceId)
      setDevice(d)
      if (!d.permissions.includes('upOrDownConfig')) return setProblem('该云手机的配置不支持升降配')
      const levels = await getGoodsList({ androidVersion: d.androidVersion })
      const others = levels.flatMap((l) => l.goods).filter((g) => g.goodId !== d.goodId)
      if (others.length === 0) return setProblem('暂无可变更的配置')
      const quotes = await Promise.all(
        others.map((g) =>
          getGoodPrice({ kind: 'upgrade', deviceIds: [deviceId], toGoodId: g.goodId }).catch(
            () => null,
          ),
        ),
      )
      setTargets(others.map((goods, i) => ({ goods, quote: quotes[i] })))
    } catch (e) {
      setProblem(errorMessage(e, '云手机信息加载失败'))
    }
  })

  const quoteBody = toGoodId ? { kind: 'upgrade' as const, deviceIds: [deviceId], toGoodId } : null
  const { quote, error: quoteError, pending } = useQuote(quoteBody)
  const coupons = useCoupons(quoteBody)
  const order = useOrderSubmit({
    // a downgrade (nothing to pay) is applied at once
    onCreated: (created: OrderInfo) => {
      if (created.status === OrderStatus.unpaid)
        return navigate('pay', { orderNo: created.orderNo })
      toastSuccess('配置已变更')
      return navigate('home')
    },
  })
  const submit = () =>
    toGoodId &&
    quote &&
    order.submit((idempotencyKey) =>
      createUpOrDownOrder({ deviceId, toGoodId, ...coupons.orderFields(quote), idempotencyKey }),
    )

  return (
    <View className={styles.page}>
      {device && (
        <Section title="当前配置">
          <Text className={styles.name}>{device.name}</Text>
          <Text className={styles.text}>
            {device.goodsName} · {androidVersionLabel(device.androidVersion)}
          </Text>
          <Text className={styles.text}>{remainingText(device.expireAt, Date.now())}</Text>
        </Section>
      )}
      {problem && (
        <View className={styles.error} role="alert">
          {problem}
        </View>
      )}
      {targets.length > 0 && (
        <Section title="目标配置">
          {targets.map(({ goods, quote: preview }) => (
            <View
              key={goods.goodId}
              role="radio"
              aria-checked={goods.goodId === toGoodId}
              className={`${styles.target} ${goods.goodId === toGoodId ? styles.selected : ''}`}
              onClick={() => setToGoodId(goods.goodId)}
            >
              <View className={styles.targetHead}>
                <Text className={styles.name} style={{ color: goods.themeColor }}>
                  {goods.name}
                </Text>
                {preview?.upgrade && (
                  <Text className={styles.direction}>
                    {preview.upgrade.direction === 'up'
                      ? `补差价 ${formatYuan(preview.total)}`
                      : preview.upgrade.direction === 'down'
                        ? '降配'
                        : '同价'}
                  </Text>
                )}
              </View>
              <Text className={styles.text}>{goods.configName}</Text>
            </View>
          ))}
        </Section>
      )}
      {quote && <Text className={styles.notice}>{changeText(quote)}</Text>}
      {quoteError && <Text className={styles.error}>{quoteError}</Text>}
      <CouponPicker result={coupons.result} selected={coupons.selected} onSelect={coupons.select} />
      <CheckoutBar
        quote={coupons.applyTo(quote)}
        pending={pending}
        buttonText={quote?.upgrade?.direction === 'up' ? '去支付' : '确认变更'}
        disabled={!toGoodId || order.running}
        onSubmit={submit}
        error={order.error}
      />
    </View>
  )
}
