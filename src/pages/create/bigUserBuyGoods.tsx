import { useState } from 'react'
import Taro, { useLoad } from '@tarojs/taro'
import { View, Text, Textarea } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import type { Goods, GoodsLevelGroup, OrderInfo } from '@/types/api'
import CheckoutBar from '@/components/CheckoutBar'
import CouponPicker from '@/components/CouponPicker'
import { useCoupons } from '@/components/CouponPicker/use-coupons'
import DurationChips from '@/components/DurationChips'
import Section from '@/components/Section'
import ZoneChips from '@/components/ZoneChips'
import { errorMessage, toastSuccess } from '@/runtime/feedback'
import { useOrderSubmit } from '@/hooks/use-order-submit'
import { useQuote } from '@/hooks/use-quote'
import { UserType } from '@/domain/enums'
import { getGoodsList } from '@/api/goods'
import { navigate, openPath } from '@/runtime/navigation'
import { createBigUserLinkOrder } from '@/api/order'
import { useStores } from '@/stores'
import GoodsPicker from './parts/GoodsPicker'
import { QuantityLines, useQuantity } from './parts/QuantityField'
import { shareablePayLink } from './parts/pay-link'
import { pickPriceId, pickZoneId } from '@/domain/goods-selection'
import styles from './parts/parts.module.scss'

export const REMARK_MAX = 200

/** Company buyers: order in bulk and get a payment link that whoever pays can open. */
function BigUserBuyGoods() {
  const { session } = useStores()
  const [levels, setLevels] = useState<GoodsLevelGroup[]>([])
  const [loadError, setLoadError] = useState('')
  const [goodId, setGoodId] = useState<number>()
  const [priceId, setPriceId] = useState<number>()
  const [zoneId, setZoneId] = useState<number>()
  const amount = useQuantity()
  const { quantity, error: quantityError } = amount
  const [remark, setRemark] = useState('')
  const [created, setCreated] = useState<OrderInfo | null>(null)
  const [now] = useState(Date.now())
  const all = levels.flatMap((l) => l.goods)
  const goods = all.find((g) => g.goodId === goodId)

  const choose = (g: Goods) => {
    setGoodId(g.goodId)
    setPriceId(pickPriceId(g.prices))
    setZoneId(pickZoneId(g.zones))
    amount.recheck(g.maxPerOrder)
  }

  useLoad(() => {
    if (session.userType === null) session.loadUserInfo().catch(() => undefined)
    getGoodsList()
      .then((list) => {
        setLevels(list)
        const first = list.flatMap((l) => l.goods)[0]
        if (first) choose(first)
      })
      .catch((e: unknown) => setLoadError(errorMessage(e, '商品加载失败')))
  })

  const quoteBody =
    goods && priceId && !quantityError
      ? ({ kind: 'new', goodId, priceId, quantity } as const)
      : null
  const { quote, error: quoteError, pending } = useQuote(quoteBody)
  // the company's own coupons, as on every order (the payer of the link pays what is left)
  const coupons = useCoupons(quoteBody)
  const order = useOrderSubmit({ onCreated: setCreated })
  const submit = () =>
    goods &&
    priceId &&
    zoneId &&
    quote &&
    order.submit((idempotencyKey) =>
      createBigUserLinkOrder({
        goodId: goods.goodId,
        priceId,
        zoneId,
        quantity,
        remark: remark.trim() || undefined,
        ...coupons.orderFields(quote),
        idempotencyKey,
      }),
    )

  if (session.userType === null) {
    return (
      <View className={styles.page}>
        <Text className={styles.text}>正在确认账号信息…</Text>
      </View>
    )
  }
  if (session.userType !== UserType.company) {
    return (
      <View className={styles.page}>
        <Section title="企业采购">
          <Text className={styles.text}>
            企业采购仅面向企业用户，支持大批量下单并生成付款链接，由财务或同事代为支付。请先在个人资料中完善企业信息。
          </Text>
          <Button type="primary" onClick={() => navigate('personalData')}>
            去完善企业信息
          </Button>
        </Section>
      </View>
    )
  }

  if (created?.payLink) {
    const link = shareablePayLink(created.payLink)
    return (
      <View className={styles.page}>
        <Section title="付款链接已生成">
          <View className={styles.link}>
            <Text className={styles.text}>
              订单号 {created.orderNo}
              ，请在15分钟内完成支付。任何已登录的账号打开链接均可支付，云手机归属于付款账号。
            </Text>
            <Text selectable>{link}</Text>
            <View className={styles.linkActions}>
              <Button
                onClick={() =>
                  Taro.setClipboardData({ data: link }).then(() => toastSuccess('链接已复制'))
                }
              >
                复制链接
              </Button>
              <Button type="primary" onClick={() => openPath(created.payLink as string)}>
                去支付
              </Button>
            </View>
          </View>
        </Section>
      </View>
    )
  }

  return (
    <View className={styles.page}>
      {loadError && <Text className={styles.error}>{loadError}</Text>}
      {/* the five choices in one section, so that they and the total fit on one screen */}
      <Section title="采购配置">
        <GoodsPicker
          levels={levels}
          value={goodId}
          onChange={(id) => choose(all.find((g) => g.goodId === id) as Goods)}
        />
        {goods && (
          <>
            <Text className={styles.label}>地区</Text>
            <ZoneChips zones={goods.zones} value={zoneId} onChange={setZoneId} />
            <Text className={styles.label}>时长</Text>
            <DurationChips prices={goods.prices} value={priceId} onChange={setPriceId} now={now} />
            <QuantityLines
              max={goods.maxPerOrder}
              state={amount}
              quote={quote}
              quoteError={quoteError}
            />
          </>
        )}
      </Section>
      {goods && (
        <Section title="备注（选填）">
          <Textarea
            className={styles.remark}
            value={remark}
            maxlength={REMARK_MAX}
            placeholder="如采购用途、发票信息等"
            onInput={(e) => setRemark(e.detail.value)}
          />
        </Section>
      )}
      <CouponPicker result={coupons.result} selected={coupons.selected} onSelect={coupons.select} />
      <CheckoutBar
        quote={coupons.applyTo(quote)}
        pending={pending}
        buttonText="生成付款链接"
        disabled={!zoneId || Boolean(quantityError) || order.running}
        onSubmit={submit}
        error={order.error}
      />
    </View>
  )
}

export default observer(BigUserBuyGoods)
