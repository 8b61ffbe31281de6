import { useEffect, useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { GoodsLevelGroup } from '@/types/api'
import EmptyState from '@/components/EmptyState'
import { errorMessage } from '@/runtime/feedback'
import { LOADING_TEXT } from '@/constants/limits'
import { takeGoodsList } from '@/api/goods'
import { navigate } from '@/runtime/navigation'
import { holdPrerender } from '@/runtime/prerender'
import LevelGoods, { OPENING_LEVEL } from './parts/catalogue/LevelGoods'
import LevelTabs from './parts/catalogue/LevelTabs'
import styles from './create.module.scss'

/** 创建云机: the catalogue by level, each configuration with its price and stock per zone. */
export default function Create() {
  const [levels, setLevels] = useState<GoodsLevelGroup[] | null>(null)
  const [error, setError] = useState('')
  const [level, setLevel] = useState(OPENING_LEVEL)
  const [now, setNow] = useState(Date.now())

  const load = () => {
    setError('')
    setNow(Date.now())
    takeGoodsList()
      .then(setLevels)
      .catch((e: unknown) => setError(errorMessage(e, '商品加载失败')))
  }
  // stock changes while the visitor is away: reload whenever the tab shows
  useDidShow(load)

  const group = levels?.find((g) => g.level === level)
  // until the catalogue has arrived (or failed) the footer waits too, so the cards never push it down
  const settled = levels !== null || error !== ''
  // H5: the server's copy of the catalogue stays on screen until this page shows its own
  const [releasePrerender] = useState(holdPrerender)
  useEffect(() => {
    if (settled) releasePrerender()
  }, [settled, releasePrerender])

  return (
    <View className={styles.page}>
      <LevelTabs value={level} onChange={setLevel} />
      {group && (
        <LevelGoods
          group={group}
          now={now}
          onOpen={(goods) => navigate('goodsDetails', { goodId: goods.goodId })}
        />
      )}
      {error && (
        <View className={styles.error}>
          <Text>{error}</Text>
          <Button size="small" onClick={load}>
            重新加载
          </Button>
        </View>
      )}
      {!settled && (
        <View className={styles.loading} role="status">
          <Text>{LOADING_TEXT}</Text>
        </View>
      )}
      {levels && !group?.goods.length && !error && <EmptyState title="该系列暂无在售配置" />}
      {settled && (
        <View className={styles.footer}>
          <Button fill="outline" type="primary" block onClick={() => navigate('bigUserBuyGoods')}>
            企业采购
          </Button>
          <Text>批量采购、定制配置？客服可为您推荐配置并办理开通</Text>
          <Button fill="outline" block onClick={() => navigate('customerService')}>
            联系客服开通
          </Button>
        </View>
      )}
    </View>
  )
}
