import { useState } from 'react'
import Taro, { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import type { Goods } from '@/types/api'
import CheckoutBar from '@/components/CheckoutBar'
import CouponPicker from '@/components/CouponPicker'
import { useCoupons } from '@/components/CouponPicker/use-coupons'
import DurationChips from '@/components/DurationChips'
import Section from '@/components/Section'
import ZoneChips from '@/components/ZoneChips'
import { errorMessage } from '@/runtime/feedback'
import { useOrderSubmit } from '@/hooks/use-order-submit'
import { useQuote } from '@/hooks/use-quote'
import { url } from '@/constants/routes'
import { getGoodsDetail } from '@/api/goods'
import { goLogin } from '@/runtime/navigation'
import { createCloudOrder, purchaseActivationCode } from '@/api/order'
import { useStores } from '@/stores'
import GoodsHeader from './parts/GoodsHeader'
import { QuantitySection, useQuantity } from './parts/QuantityField'
import { idParam, pickPriceId, pickZoneId } from '@/domain/goods-selection'
import styles from './parts/parts.module.scss'

export const PURPOSE_ACTIVATION_CODE = 'activationCode'

/**
 * Buy phones of one configuration (zone, duration, quantity), or with purpose=activationCode the same
 * goods as activation codes (no zone). Public: a logged-out visitor logs in when submitting.
 */
function BuyGoods() {
  const { session } = useStores()
  const { params } = useRouter()
  const goodId = idParam(params.goodId)
  const forCodes = params.purpose === PURPOSE_ACTIVATION_CODE
  const [goods, setGoods] = useState<Goods | null>(null)
  const [loadError, setLoadError] = useState('')
  const [priceId, setPriceId] = useState<number>()
  const [zoneId, setZoneId] = useState<number>()
  const amount = useQuantity()
  const { quantity, error: quantityError } = amount
  const [now] = useState(Date.now())

  const load = () => {
    if (!goodId) return setLoadError('商品不存在')
    getGoodsDetail(goodId)
      .then((g) => {
        setGoods(g)
        setPriceId((current) => pickPriceId(g.prices, current ?? idParam(params.priceId)))
        setZoneId((current) => pickZoneId(g.zones, current ?? idParam(params.zoneId)))
      })
      .catch((e: unknown) => setLoadError(errorMessage(e, '商品加载失败')))
  }
  useLoad(() => {
    if (forCodes) Taro.setNavigationBarTitle({ title: '购买激活码' })
    load()
  })

  const quoteReady = goods && priceId && !quantityError
  const quoteBody = quoteReady
    ? ({ kind: forCodes ? 'activationCode' : 'new', goodId, priceId, quantity } as const)
    : null
  const { quote, error: quoteError, pending } = useQuote(quoteBody)
  const coupons = useCoupons(session.isLoggedIn ? quoteBody : null)
  const charged = coupons.applyTo(quote)
  const zoneMissing = !forCodes && zoneId === undefined
  // out of stock meanwhile: show the zones as they are now
  const order = useOrderSubmit({ onRefused: load })

  const submit = () => {
    if (!goods || !priceId || !quote || quantityError || zoneMissing) return
    if (!session.isLoggedIn) {
      // log in, then come back to this page with the same choice
      return goLogin(url('buyGoods', { goodId, priceId, zoneId, purpose: params.purpose }))
    }
    const common = {
      goodId: goods.goodId,
      priceId,
      quantity,
      expectedAmount: charged?.total ?? quote.total,
      couponId: charged !== quote ? coupons.selected?.id : undefined,
    }
    return order.submit((idempotencyKey) =>
      forCodes
        ? purchaseActivationCode({ ...common, idempotencyKey })
        : createCloudOrder({ ...common, zoneId: zoneId as number, idempotencyKey }),
    )
  }

  if (!goods) {
    return (
      <View className={styles.page}>
        {loadError && <Text className={styles.error}>{loadError}</Text>}
      </View>
    )
  }
  return (
    <View className={styles.page}>
      <GoodsHeader goods={goods} />
      {!forCodes && (
        <Section title="选择地区">
          <ZoneChips zones={goods.zones} value={zoneId} onChange={setZoneId} />
          {zoneMissing && <Text className={styles.error}>该配置各地区均已售罄</Text>}
        </Section>
      )}
      <Section title="购买时长">
        <DurationChips prices={goods.prices} value={priceId} onChange={setPriceId} now={now} />
      </Section>
      <QuantitySection
        title={forCodes ? '激活码数量' : '购买数量'}
        max={goods.maxPerOrder}
        state={amount}
        quote={quote}
        quoteError={quoteError}
      >
        {forCodes && (
          <Text className={styles.text}>
            激活码可自用或赠送他人，每个激活码可开通或续费一台云手机
          </Text>
        )}
      </QuantitySection>
      <CouponPicker result={coupons.result} selected={coupons.selected} onSelect={coupons.select} />
      <CheckoutBar
        quote={charged}
        pending={pending}
        buttonText={session.isLoggedIn ? '提交订单' : '登录后购买'}
        disabled={Boolean(quantityError) || zoneMissing || order.running}
        onSubmit={submit}
        error={order.error}
      />
    </View>
  )
}

export default observer(BuyGoods)
