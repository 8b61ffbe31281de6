/**
 * Screens follow the state they show (issue 25): a page polls while something it shows is still
 * changing by itself — a phone being created, a backup being restored, an order just paid — and only
 * while it is shown. One mechanism for every such page.
 */
import { useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import {
  FOLLOW_LIMIT_MS,
  paidOrders,
  type OrderArea,
  type PaidOrder,
} from '@/stores/paid-orders-store'

export const FOLLOW_POLL_MS = 2_000

/** Whether the page is on screen (a page in the stack under another, or a hidden tab, is not). */
export function usePageShown(): boolean {
  const [shown, setShown] = useState(true)
  useDidShow(() => setShown(true))
  useDidHide(() => setShown(false))
  return shown
}

/**
 * Runs `poll` every `ms` while `pending` holds — one round at a time, stopping when it no longer
 * holds, when the page hides or unmounts, and after `limitMs` of pending in a row (no endless polling
 * of something stuck).
 */
export function usePollWhile(
  pending: boolean,
  poll: () => unknown,
  ms = FOLLOW_POLL_MS,
  limitMs = FOLLOW_LIMIT_MS,
): void {
  const latest = useRef(poll)
  latest.current = poll
  useEffect(() => {
    if (!pending) return undefined
    const until = Date.now() + limitMs
    let timer: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    const tick = async () => {
      try {
        await latest.current()
      } catch {
        // a failed round is retried on the next one
      }
      if (!stopped && Date.now() < until) timer = setTimeout(tick, ms)
    }
    timer = setTimeout(tick, ms)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [pending, ms, limitMs])
}

/**
 * For a page showing `area` (call it from an observer): follows the orders just paid that change it
 * while `active`, and calls `reload` once one of them is delivered. The paid orders it waits for.
 */
export function useFollowPaid(
  area: OrderArea,
  active: boolean,
  reload: () => unknown,
): PaidOrder[] {
  const waiting = paidOrders.pendingIn(area)
  usePollWhile(active && waiting.length > 0, async () => {
    if (await paidOrders.poll(area)) await reload()
  })
  return waiting
}
