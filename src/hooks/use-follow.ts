/**
 * Screens follow the server (docs/cloud-phones.md): a page showing server state watches its area of
 * /user/flux (stores/flux-store.ts) while it is shown, and loads again when what it shows changed —
 * a phone being created, restored or renewed, an order paid and not yet delivered, a task running.
 * The one mechanism for every such page.
 */
import { useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import { paidIn, type FluxArea } from '@/domain/flux'
import { flux } from '@/stores/flux-store'
import type { PaidOrder } from '@/types/api'

/** Whether the page is on screen (a page in the stack under another, or a hidden tab, is not). */
export function usePageShown(): boolean {
  const [shown, setShown] = useState(true)
  useDidShow(() => setShown(true))
  useDidHide(() => setShown(false))
  return shown
}

export interface FollowOptions {
  /** the page shows something still changing (default: nothing) */
  pending?: boolean
  /** follow only while this holds, e.g. signed in (default: always) */
  enabled?: boolean
}

/**
 * Follows `area` while the page is shown (and `enabled`): `reload` runs whenever what the area shows
 * changed on the server, and while `pending` the page shows something the server has settled. Call it
 * from an observer: answers the area's orders paid and not yet delivered.
 */
export function useFollow(
  area: FluxArea,
  reload: () => unknown,
  { pending = false, enabled = true }: FollowOptions = {},
): PaidOrder[] {
  const shown = usePageShown()
  const latest = useRef({ reload, pending })
  latest.current = { reload, pending }
  const following = shown && enabled
  useEffect(() => {
    if (!following) return undefined
    return flux.watch({
      area,
      onChange: () => latest.current.reload(),
      pending: () => latest.current.pending,
    })
  }, [area, following])
  // a page newly pending (it just started something) has the store ask again, even if it had stopped
  useEffect(() => {
    if (following && pending) flux.askNow()
  }, [following, pending])
  return flux.current && enabled ? paidIn(flux.current, area) : []
}
