import { useState } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import type { Goods } from '@/types/api'
import DurationChips from '@/components/DurationChips'
import Section from '@/components/Section'
import ZoneChips from '@/components/ZoneChips'
import { errorMessage } from '@/runtime/feedback'
import { formatYuan } from '@/domain/formatters'
import { getGoodsDetail } from '@/api/goods'
import { loginUrl, navigate, openPath } from '@/runtime/navigation'
import { url } from '@/constants/routes'
import { useStores } from '@/stores'
import GoodsHeader from './parts/GoodsHeader'
import { idParam, pickPriceId, pickZoneId } from '@/domain/goods-selection'
import styles from './parts/parts.module.scss'

/**
 * One configuration: what it includes, its durations with prices and the zones with stock. Open to
 * visitors; 立即购买 sends a visitor to login and on to the purchase with what they chose.
 */
function GoodsDetails() {
  const { session } = useStores()
  const { params } = useRouter()
  const goodId = idParam(params.goodId)
  const [goods, setGoods] = useState<Goods | null>(null)
  const [error, setError] = useState('')
  const [priceId, setPriceId] = useState<number>()
  const [zoneId, setZoneId] = useState<number>()
  const [now] = useState(Date.now())

  useLoad(() => {
    if (!goodId) return setError('商品不存在')
    getGoodsDetail(goodId)
      .then((g) => {
        setGoods(g)
        setPriceId(pickPriceId(g.prices))
        setZoneId(pickZoneId(g.zones))
      })
      .catch((e: unknown) => setError(errorMessage(e, '商品加载失败')))
  })

  if (!goods) {
    return (
      <View className={styles.page}>{error && <Text className={styles.error}>{error}</Text>}</View>
    )
  }
  const price = goods.prices.find((p) => p.priceId === priceId)
  const soldOut = zoneId === undefined

  return (
    <View className={styles.page}>
      <GoodsHeader goods={goods} />
      {goods.description && (
        <Section title="配置说明">
          <Text className={styles.text}>{goods.description}</Text>
        </Section>
      )}
      <Section title="购买时长">
        <DurationChips prices={goods.prices} value={priceId} onChange={setPriceId} now={now} />
        {price?.firstPurchasePrice != null && price.firstCount > 0 && (
          <Text className={styles.text}>
            首次购买云手机，前{price.firstCount}台享首购价 {formatYuan(price.firstPurchasePrice)}
          </Text>
        )}
      </Section>
      <Section title="地区与库存">
        <ZoneChips zones={goods.zones} value={zoneId} onChange={setZoneId} />
        {soldOut && <Text className={styles.error}>该配置各地区均已售罄，请选择其他配置</Text>}
      </Section>
      <View className={styles.actions}>
        <Button
          type="primary"
          block
          disabled={!price || soldOut}
          onClick={() => {
            const choice = { goodId: goods.goodId, priceId, zoneId }
            if (session.isLoggedIn) return void navigate('buyGoods', choice)
            void openPath(loginUrl(url('buyGoods', choice)))
          }}
        >
          立即购买
        </Button>
      </View>
    </View>
  )
}

export default observer(GoodsDetails)
