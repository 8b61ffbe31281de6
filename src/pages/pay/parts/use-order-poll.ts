import { useCallback, useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import type { OrderInfo, OrderInfoQuery } from '@/types/api'
import { errorMessage } from '@/runtime/feedback'
import { getOrderInfo } from '@/api/order'
import { useFollow } from '@/hooks/use-follow'
import { orderSettled } from './pay-flow'

/**
 * Follows an order: loads it when the page shows, then follows the server (useFollow) until it is
 * settled (a final state, and for a renewal every phone renewed: orderSettled) — asked again each
 * round while unpaid or being confirmed, and once delivered while paid. Only while the page is shown.
 */
export function useOrderPoll(query: OrderInfoQuery) {
  const [order, setOrder] = useState<OrderInfo | null>(null)
  const [error, setError] = useState('')
  const queryKey = JSON.stringify(query)

  const load = useCallback(async () => {
    try {
      setOrder(await getOrderInfo(JSON.parse(queryKey) as OrderInfoQuery, { loading: false }))
      setError('')
    } catch (e) {
      setError(errorMessage(e, '订单加载失败'))
    }
  }, [queryKey])

  useDidShow(() => void load())
  useFollow('orders', load, { pending: error !== '' || (order !== null && !orderSettled(order)) })

  return { order, setOrder, error, refresh: load }
}
