import { useCallback, useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import type { OrderInfo, OrderInfoQuery } from '../../../../types/api'
import { errorMessage } from '@/runtime/feedback'
import { getOrderInfo } from '@/api/order'
import { paidOrders } from '@/stores/paid-orders-store'
import { orderSettled, POLL_INTERVAL_MS } from './pay-flow'

/**
 * Follows an order: loads it when the page shows, then every 2 s until it is settled (a final state,
 * and for a renewal every phone renewed: orderSettled).
 * Stops while the page is hidden and when it unmounts. Every answer goes to the paid-orders store,
 * so the pages showing what the order changes follow it on if the buyer leaves before it is delivered.
 */
export function useOrderPoll(query: OrderInfoQuery) {
  const [order, setOrder] = useState<OrderInfo | null>(null)
  const [error, setError] = useState('')
  const timer = useRef<ReturnType<typeof setTimeout>>()
  const active = useRef(false)
  const queryKey = JSON.stringify(query)

  const stop = useCallback(() => {
    active.current = false
    clearTimeout(timer.current)
  }, [])

  const tick = useCallback(async () => {
    clearTimeout(timer.current)
    try {
      const next = await getOrderInfo(JSON.parse(queryKey) as OrderInfoQuery, { loading: false })
      // a shared link's payer gets nothing of it: only the buyer's screens follow it
      if (next.isOwner) paidOrders.note(next)
      if (!active.current) return
      setOrder(next)
      setError('')
      if (orderSettled(next)) return stop()
    } catch (e) {
      if (!active.current) return
      setError(errorMessage(e, '订单加载失败'))
    }
    timer.current = setTimeout(tick, POLL_INTERVAL_MS)
  }, [queryKey, stop])

  const start = useCallback(() => {
    active.current = true
    void tick()
  }, [tick])

  useDidShow(start)
  useDidHide(stop)
  useEffect(() => stop, [stop])

  return { order, setOrder, error, refresh: start }
}
