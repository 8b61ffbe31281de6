import { useState } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Switch } from '@nutui/nutui-react-taro'
import { ariaRole } from '@/platform/a11y'
import type { Device, GoodsPrice } from '@/types/api'
import CheckoutBar from '@/components/CheckoutBar'
import CouponPicker from '@/components/CouponPicker'
import { useCoupons } from '@/components/CouponPicker/use-coupons'
import DurationChips from '@/components/DurationChips'
import Section from '@/components/Section'
import { pickPriceId } from '@/domain/goods-selection'
import { errorMessage } from '@/runtime/feedback'
import { useOrderSubmit } from '@/hooks/use-order-submit'
import { useQuote } from '@/hooks/use-quote'
import { canRenew } from '@/domain/device-lifecycle'
import { formatDateTime } from '@/domain/formatters'
import { parseDeviceIds } from '@/domain/fleet-selection'
import { validateRenewSelection } from '@/domain/batch-results'
import { useStores } from '@/stores'
import { getDevice } from '@/api/device'
import { getGoodsDetail } from '@/api/goods'
import { createRenewOrder } from '@/api/order'
import { loadAll } from '@/runtime/load-all'
import { commonGoodId, MIXED_GOODS_MESSAGE } from './parts/renew-plan'
import AutoRenewSection from './parts/AutoRenewSection'
import styles from './index.module.scss'

/** The phones the page lists one by one; a studio's renewal (up to 10,000) then says how many more. */
export const LISTED_PHONES = 20
/** Up to this many phones are listed at once; more stay behind N台 展开, under the duration. */
export const SHOWN_UNASKED = 3

/**
 * Renew one phone or several of the same configuration, optionally aligned to one expiry. Many phones
 * (a studio's 全选, `selection=1`) come from the fleet's selection and the phones it already loaded.
 */
export default function Renew() {
  const { params } = useRouter()
  const { fleet, session } = useStores()
  const fromSelection = params.selection === '1'
  const [deviceIds] = useState(() =>
    fromSelection ? fleet.selectedIds : parseDeviceIds(params.deviceIds),
  )
  const [devices, setDevices] = useState<Device[]>([])
  const [prices, setPrices] = useState<GoodsPrice[]>([])
  const [priceId, setPriceId] = useState<number>()
  const [align, setAlign] = useState(false)
  const [problem, setProblem] = useState('')
  const [now] = useState(Date.now())
  const [expanded, setExpanded] = useState(false)
  const order = useOrderSubmit()

  useLoad(async () => {
    if (deviceIds.length === 0) return setProblem('请选择要续费的云手机')
    const tooMany = validateRenewSelection(deviceIds)
    if (tooMany) return setProblem(tooMany)
    try {
      // the fleet already holds the selected phones; only those it does not are asked for
      const known = new Map(fleet.devices.map((d) => [d.deviceId, d]))
      const fetched = await loadAll(
        deviceIds.filter((id) => !known.has(id)),
        getDevice,
      )
      for (const d of fetched) known.set(d.deviceId, d)
      const loaded = deviceIds.map((id) => known.get(id) as Device)
      setDevices(loaded)
      const blocked = loaded.find((d) => !canRenew(d.status))
      if (blocked) return setProblem(`${blocked.name}${blocked.statusName}，暂不可续费`)
      const goodId = commonGoodId(loaded)
      if (goodId === null) return setProblem(MIXED_GOODS_MESSAGE)
      const goods = await getGoodsDetail(goodId)
      setPrices(goods.prices)
      setPriceId(pickPriceId(goods.prices))
    } catch (e) {
      setProblem(errorMessage(e, '云手机信息加载失败'))
    }
  })

  const several = devices.length > 1
  const alignToLatest = several && align
  const quoteBody =
    priceId && !problem ? { kind: 'renew' as const, priceId, deviceIds, alignToLatest } : null
  const { quote, error: quoteError, pending } = useQuote(quoteBody)
  const coupons = useCoupons(quoteBody)
  const newExpiry = new Map(quote?.renewals?.map((r) => [r.deviceId, r.newExpireAt]))

  const submit = () =>
    priceId &&
    quote &&
    order.submit((idempotencyKey) =>
      createRenewOrder({
        deviceIds,
        priceId,
        alignToLatest,
        ...coupons.orderFields(quote),
        idempotencyKey,
      }),
    )

  const collapsible = devices.length > SHOWN_UNASKED
  const phones = (
    <Section title={`续费云手机（${devices.length}台）`}>
      {collapsible && (
        <View
          className={styles.toggle}
          role="button"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? '收起' : `${devices.length}台 展开`}
        </View>
      )}
      {(!collapsible || expanded) &&
        devices.slice(0, LISTED_PHONES).map((d) => (
          <View key={d.deviceId} className={styles.device}>
            <Text className={styles.name}>{d.name}</Text>
            <Text className={styles.expiry}>到期：{formatDateTime(d.expireAt)}</Text>
            {newExpiry.has(d.deviceId) && (
              <Text className={styles.newExpiry}>
                续费后：{formatDateTime(newExpiry.get(d.deviceId) as number)}
              </Text>
            )}
          </View>
        ))}
      {expanded && devices.length > LISTED_PHONES && (
        <Text className={styles.more}>等共{devices.length}台云手机</Text>
      )}
    </Section>
  )

  // what is bought comes first: the duration (and the total in the bar below), then the phones
  return (
    <View className={styles.page}>
      {problem ? (
        <View className={styles.error} role="alert">
          {problem}
        </View>
      ) : (
        <Section title="续费时长">
          <DurationChips prices={prices} value={priceId} onChange={setPriceId} now={now} />
          {several && (
            <View className={styles.align}>
              <View className={styles.alignText}>
                <Text>对齐到期时间</Text>
                <Text className={styles.hint}>
                  所有云手机续至同一到期时间，补齐的时长按天折算计费
                </Text>
              </View>
              <Switch
                {...ariaRole('switch')}
                aria-label="对齐到期时间"
                checked={align}
                onChange={setAlign}
              />
            </View>
          )}
          {quoteError && <Text className={styles.error}>{quoteError}</Text>}
        </Section>
      )}
      {!problem && devices.length > 0 && (
        <AutoRenewSection
          deviceIds={deviceIds}
          devices={devices}
          days={prices.find((p) => p.priceId === priceId)?.goodTime}
          company={session.userType === 2}
          onChanged={(autoRenew) => fleet.patchMany(deviceIds, { autoRenew })}
        />
      )}
      {phones}
      <CouponPicker result={coupons.result} selected={coupons.selected} onSelect={coupons.select} />
      <CheckoutBar
        quote={coupons.applyTo(quote)}
        pending={pending}
        buttonText="确认续费"
        disabled={Boolean(problem) || order.running}
        onSubmit={submit}
        error={order.error}
      />
    </View>
  )
}
