/**
 * What of the user's is in flux, per screen area, read from the server's answer to /user/flux
 * (docs/cloud-phones.md, "Screens follow the server"): whether the area is still changing by itself,
 * and a version that moves whenever what it shows changed. Also how often a page asks again.
 */
import type { OrderKind, PaidOrder, UserFlux } from '../types/api'

/**
 * The screens that show what changes by itself: 我的云机, 我的云豆, the cloud space pages, and an
 * order on the pay page (every order paid and not yet delivered).
 */
export type FluxArea = 'fleet' | 'wallet' | 'space' | 'orders'

/** Which area shows what a paid order delivers (activation codes show on the pay page itself). */
export const ORDER_AREA: Record<OrderKind, FluxArea | null> = {
  new: 'fleet',
  renew: 'fleet',
  upgrade: 'fleet',
  video: 'fleet',
  timeToMonth: 'fleet',
  activationCode: null,
  beanRecharge: 'wallet',
  balanceRecharge: 'wallet',
  cloudSpace: 'space',
}

export interface AreaFlux {
  /** Something the area shows is still changing by itself. */
  busy: boolean
  /** Moves whenever what the area shows changed. */
  version: string
}

/** The area's orders paid and not yet delivered. */
export const paidIn = (flux: UserFlux, area: FluxArea): PaidOrder[] =>
  area === 'orders'
    ? flux.paidOrders
    : flux.paidOrders.filter((order) => ORDER_AREA[order.kind] === area)

export function areaFlux(flux: UserFlux, area: FluxArea): AreaFlux {
  const paid = paidIn(flux, area).map((order) => order.orderNo)
  switch (area) {
    case 'fleet':
      return {
        busy: paid.length > 0 || flux.busyPhones > 0,
        version: [flux.fleetVersion, ...paid].join(' '),
      }
    case 'wallet':
      return { busy: paid.length > 0, version: [flux.walletVersion, ...paid].join(' ') }
    case 'orders':
      return { busy: paid.length > 0, version: paid.join(' ') }
    case 'space':
      return {
        busy: paid.length > 0 || flux.runningTasks.length > 0,
        version: [...paid, '|', ...flux.runningTasks].join(' '),
      }
  }
}

/** The first wait after a change: most transitions end within a few seconds. */
export const FOLLOW_FIRST_MS = 1_000
/** The longest wait between two asks: a stuck phone costs one small read this often. */
export const FOLLOW_MAX_MS = 5_000

/** The wait before the next ask: back to the first after a change, else half as long again. */
export const nextFollowDelay = (previous: number | null, changed: boolean): number =>
  changed || previous === null ? FOLLOW_FIRST_MS : Math.min(FOLLOW_MAX_MS, previous * 1.5)

/** What an order paid but not yet delivered does to the fleet, said until it is delivered. */
export function fleetNotice(paid: PaidOrder[]): string {
  const creating = paid.filter((o) => o.kind === 'new').reduce((n, o) => n + o.quantity, 0)
  if (creating > 0) return `支付成功，${creating}台云手机创建中…`
  if (paid.some((o) => o.kind === 'renew')) return '续费已支付，到期时间更新中…'
  return paid.length > 0 ? '支付成功，云手机更新中…' : ''
}
