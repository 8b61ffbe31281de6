import { useEffect, useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import type { ActivityDetail, ActivitySummary, SeckillItem } from '@/types/api'
import EmptyState from '@/components/EmptyState'
import Picture from '@/components/Picture'
import { errorMessage } from '@/runtime/feedback'
import { idParam } from '@/domain/goods-selection'
import { useOrderSubmit } from '@/hooks/use-order-submit'
import { url } from '@/constants/routes'
import { activityCountdown, activityPhase } from '@/domain/activity'
import { formatDateTime } from '@/domain/formatters'
import { createSeckillOrder, getActivityDetail, listActivities } from '@/api/activity'
import { loginUrl, navigate, openPath } from '@/runtime/navigation'
import { fileUrl } from '@/runtime/request'
import { useStores } from '@/stores'
import SeckillItemCard from './parts/activity/SeckillItemCard'
import { useServerClock } from './parts/activity/use-server-clock'
import styles from './activity.module.scss'

/** Several activities at once (no id given): one card each, and the game trial landing. */
function ActivityList({ list }: { list: ActivitySummary[] }) {
  return (
    <View className={styles.page}>
      {list.length === 0 && <EmptyState description="暂无进行中的活动" />}
      {list.map((a) => (
        <View
          key={a.id}
          className={styles.card}
          role="button"
          onClick={() => navigate('activity', { id: a.id })}
        >
          <Text className={styles.cardTitle}>{a.title}</Text>
          <Text className={styles.summary}>{a.summary}</Text>
          <Text className={styles.window}>
            {a.running ? '进行中' : '即将开始'} · {formatDateTime(a.startsAt)} 至{' '}
            {formatDateTime(a.endsAt)}
          </Text>
        </View>
      ))}
      <View className={styles.card} role="button" onClick={() => navigate('playTrial')}>
        <Text className={styles.cardTitle}>免费试玩游戏</Text>
        <Text className={styles.summary}>领取试玩云机，在云端挂机玩游戏</Text>
      </View>
    </View>
  )
}

/**
 * webView/activity?id=: one activity — banner, time window with a countdown by the server's clock,
 * rules, and for a seckill its items with 立即抢购 (→ the new order's pay page). Public: a visitor
 * sees everything and is sent to login (and back) when buying. Without an id: the running activity,
 * or a list when there are several.
 */
function ActivityPage() {
  const { session } = useStores()
  const { params } = useRouter()
  const id = idParam(params.id)
  const [detail, setDetail] = useState<ActivityDetail | null>(null)
  const [list, setList] = useState<ActivitySummary[] | null>(null)
  const [problem, setProblem] = useState('')
  const now = useServerClock(detail?.serverTime ?? null)
  const order = useOrderSubmit()

  const load = async (activityId: number) => {
    try {
      setDetail(await getActivityDetail(activityId, { loading: false }))
      setProblem('')
    } catch (error) {
      setProblem(errorMessage(error, '活动加载失败，请稍后重试'))
    }
  }

  useDidShow(() => {
    if (id) {
      void load(id)
      return
    }
    listActivities({ loading: false })
      .then((found) => (found.length === 1 ? load(found[0].id) : setList(found)))
      .catch((error) => setProblem(errorMessage(error, '活动加载失败，请稍后重试')))
  })

  const phase = detail ? activityPhase(detail.startsAt, detail.endsAt, now) : null
  const loadedPhase = detail
    ? activityPhase(detail.startsAt, detail.endsAt, detail.serverTime)
    : null
  useEffect(() => {
    // the sale opened or closed while the page was open: fresh stock and buttons
    if (detail && phase !== loadedPhase) void load(detail.id)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase, loadedPhase])

  if (problem) return <EmptyState description={problem} />
  if (list) return <ActivityList list={list} />
  if (!detail || !phase) return <View className={styles.page} />

  const countdown = activityCountdown(detail.startsAt, detail.endsAt, now)
  const buy = async (item: SeckillItem) => {
    if (!session.isLoggedIn) {
      await openPath(loginUrl(url('activity', { id: detail.id })))
      return
    }
    await order.submit((idempotencyKey) =>
      createSeckillOrder({ itemId: item.itemId, expectedAmount: item.price, idempotencyKey }),
    )
    void load(detail.id)
  }

  return (
    <View className={styles.page}>
      {detail.banner ? (
        <Picture className={styles.banner} src={fileUrl(detail.banner)} alt={detail.title} />
      ) : null}
      <View className={styles.hero}>
        <Text className={styles.title}>{detail.title}</Text>
        <Text className={styles.heroSummary}>{detail.summary}</Text>
        <View className={styles.countdown} aria-live="polite">
          <Text className={styles.countdownLabel}>{countdown.label}</Text>
          {countdown.time && <Text className={styles.countdownTime}>{countdown.time}</Text>}
        </View>
        <Text className={styles.heroWindow}>
          活动时间：{formatDateTime(detail.startsAt)} 至 {formatDateTime(detail.endsAt)}
        </Text>
      </View>
      {detail.kind === 'seckill' && (
        <View className={styles.section}>
          <Text className={styles.sectionTitle}>限时秒杀</Text>
          {detail.items.map((item) => (
            <SeckillItemCard
              key={item.itemId}
              item={item}
              phase={phase}
              busy={order.running}
              onBuy={buy}
              onPay={(orderNo) => navigate('pay', { orderNo })}
            />
          ))}
          {order.error && (
            <View className={styles.error} role="alert">
              {order.error}
            </View>
          )}
        </View>
      )}
      <View className={styles.section}>
        <Text className={styles.sectionTitle}>活动规则</Text>
        <Text className={styles.rules}>{detail.rules}</Text>
      </View>
    </View>
  )
}

export default observer(ActivityPage)
