/** Initial choices on the goods pages: the route's choice when it is still valid, else a sensible one. */
import type { GoodsPrice, ZoneStock } from '../types/api'
import { InventoryStatus } from './enums'

export const DEFAULT_DAYS = 30

/** A zone the supplier has no stock in: ZoneChips shows it greyed out, and no page preselects it. */
export const isZoneSoldOut = (zone: ZoneStock) =>
  zone.inventoryStatus === InventoryStatus.insufficient

export function pickPriceId(prices: GoodsPrice[], wanted?: number): number | undefined {
  if (wanted && prices.some((p) => p.priceId === wanted)) return wanted
  return (prices.find((p) => p.goodTime === DEFAULT_DAYS) ?? prices[0])?.priceId
}

/** A zone with stock: the wanted one if it has any, else the first that does. */
export function pickZoneId(zones: ZoneStock[], wanted?: number): number | undefined {
  const open = zones.filter((z) => !isZoneSoldOut(z))
  return (open.find((z) => z.zoneId === wanted) ?? open[0])?.zoneId
}

/** Route params arrive as strings; anything not a positive integer is ignored. */
export function idParam(value: string | undefined): number | undefined {
  const n = Number(value)
  return Number.isInteger(n) && n > 0 ? n : undefined
}
