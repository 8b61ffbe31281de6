/** Renewal rules of the page: whether the phones passed can be renewed together. */
export const MIXED_GOODS_MESSAGE = '请选择同一配置的云手机批量续费'

/** The one goods every phone has, or null when they differ (one price list must fit all). */
export function commonGoodId(devices: { goodId: number }[]): number | null {
  const ids = new Set(devices.map((d) => d.goodId))
  return ids.size === 1 ? [...ids][0] : null
}
