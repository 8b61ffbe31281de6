/**
 * Orders just paid and not yet delivered (issue 25: screens follow the state they show). The pay page
 * reports every answer it gets for its order; a paid order stays here until it is final, and the
 * pages that show what it changes (我的云机, 我的云豆, 云空间) follow it while they are shown and reload
 * once it is delivered — whether or not the buyer is still on the pay page by then.
 *
 * One instance, `paidOrders`, outside the RootStore: only signed-in pages use it, so it stays out of
 * the H5 first route (check:h5); in the mini-program the fleet (main package) imports it, so every
 * sub-package shares the main package's instance.
 */
import { makeAutoObservable, observableRef, runInAction } from 'mobx'
import type { OrderInfo } from '../../types/api'
import { isFinal, OrderStatus } from '@/domain/order-states'
import { client } from '@/runtime/request'

/** Which screen shows what an order changes. */
export type OrderArea = 'fleet' | 'wallet' | 'space'

export const ORDER_AREA: Record<OrderInfo['kind'], OrderArea | null> = {
  new: 'fleet',
  renew: 'fleet',
  upgrade: 'fleet',
  video: 'fleet',
  timeToMonth: 'fleet',
  // the pay page itself shows the codes
  activationCode: null,
  beanRecharge: 'wallet',
  balanceRecharge: 'wallet',
  cloudSpace: 'space',
}

/**
 * Delivery normally takes seconds; an order still paid after this is left to the next visit of the
 * page (which loads fresh anyway), so no page polls for ever.
 */
export const FOLLOW_LIMIT_MS = 3 * 60_000

export type OrderSnapshot = Pick<OrderInfo, 'orderNo' | 'kind' | 'status' | 'quantity'>

export interface PaidOrder {
  orderNo: string
  kind: OrderInfo['kind']
  quantity: number
  /** when it was first seen paid */
  since: number
}

export interface PaidOrdersDeps {
  getOrder: (orderNo: string) => Promise<OrderSnapshot>
  now: () => number
}

/** The order as the pay page reads it, without its 加载中 overlay (a page polls it quietly). */
export const fetchOrder = async (orderNo: string): Promise<OrderSnapshot> =>
  (await client.get<OrderInfo>('/order/getOrderInfo', { orderNo }, { loading: false })).data

export class PaidOrdersStore {
  pending: PaidOrder[] = []

  constructor(private readonly deps: PaidOrdersDeps) {
    makeAutoObservable<PaidOrdersStore, 'deps'>(
      this,
      { deps: false, pending: observableRef },
      { autoBind: true },
    )
  }

  /** Paid orders whose delivery changes `area`. */
  pendingIn(area: OrderArea): PaidOrder[] {
    return this.pending.filter((order) => ORDER_AREA[order.kind] === area)
  }

  /**
   * An answer about an order: paid → followed; final → no longer. true when a followed order just
   * became final (what it changed is now there to load).
   */
  note(order: OrderSnapshot): boolean {
    if (!ORDER_AREA[order.kind]) return false
    const followed = this.pending.some((p) => p.orderNo === order.orderNo)
    if (order.status === OrderStatus.paid && !followed) {
      const { orderNo, kind, quantity } = order
      this.pending = [...this.pending, { orderNo, kind, quantity, since: this.deps.now() }]
    } else if (isFinal(order.status) && followed) {
      this.pending = this.pending.filter((p) => p.orderNo !== order.orderNo)
      return true
    }
    return false
  }

  /**
   * One round for a page showing `area`: asks for each of its paid orders (a failed ask waits for the
   * next round) and forgets those followed past FOLLOW_LIMIT_MS. true when one of them became final
   * or was given up: the page reloads what it shows.
   */
  async poll(area: OrderArea): Promise<boolean> {
    const now = this.deps.now()
    const orders = this.pendingIn(area)
    const stale = orders.filter((o) => now - o.since >= FOLLOW_LIMIT_MS).map((o) => o.orderNo)
    const answers = await Promise.all(
      orders
        .filter((o) => !stale.includes(o.orderNo))
        .map((o) => this.deps.getOrder(o.orderNo).catch(() => null)),
    )
    return runInAction(() => {
      let settled = stale.length > 0
      if (settled) this.pending = this.pending.filter((p) => !stale.includes(p.orderNo))
      for (const answer of answers) if (answer && this.note(answer)) settled = true
      return settled
    })
  }

  /** Logout, account switch: another account's orders are not followed. */
  reset() {
    this.pending = []
  }
}

/** The app's one follower of paid orders (tests mock this module to pass their own). */
export const paidOrders = new PaidOrdersStore({ getOrder: fetchOrder, now: () => Date.now() })
