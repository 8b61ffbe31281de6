/** Renewal rules of the page: which ids were passed, and whether they can be renewed together. */
export const MIXED_GOODS_MESSAGE = '请选择同一配置的云手机批量续费'

/** '1,2,3' → [1, 2, 3]; junk and repeats dropped. */
export function parseDeviceIds(value: string | undefined): number[] {
  const ids = (value ? decodeURIComponent(value) : '')
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isInteger(n) && n > 0)
  return [...new Set(ids)]
}

/** The one goods every phone has, or null when they differ (one price list must fit all). */
export function commonGoodId(devices: { goodId: number }[]): number | null {
  const ids = new Set(devices.map((d) => d.goodId))
  return ids.size === 1 ? [...ids][0] : null
}
