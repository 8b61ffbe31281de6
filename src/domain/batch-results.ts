/** Batch commands (docs/cloud-phones.md "Devices"): one result per phone, summed up for a toast. */

export interface CommandResult {
  deviceId: number
  ok: boolean
  msg: string
}

export interface BatchFailure {
  msg: string
  deviceIds: number[]
}

export interface BatchSummary {
  okCount: number
  failCount: number
  /** '3台成功', '2台成功，1台失败', '3台失败'. */
  text: string
  /** Failed phones grouped by reason, reasons in the order first met. */
  failures: BatchFailure[]
}

/** Phone commands (重启, 移动分组, 授权…) run per phone and answer per phone: at most this many at once. */
export const MAX_BATCH = 500
/**
 * A renewal is one order priced and delivered set-based, so a whole studio renews at once:
 * at most this many phones in one renewal order or quote (docs/decisions.md). The server's contract
 * refuses more (a hostile body); the client checks the same bound before it asks.
 */
export const MAX_RENEW_BATCH = 10_000

export function summariseBatch(results: readonly CommandResult[]): BatchSummary {
  const byMsg = new Map<string, number[]>()
  for (const r of results) {
    if (r.ok) continue
    const ids = byMsg.get(r.msg) ?? []
    ids.push(r.deviceId)
    byMsg.set(r.msg, ids)
  }
  const failCount = results.length - results.filter((r) => r.ok).length
  const okCount = results.length - failCount
  let text = `${okCount}台成功`
  if (failCount > 0) text = okCount > 0 ? `${text}，${failCount}台失败` : `${failCount}台失败`
  return {
    okCount,
    failCount,
    text,
    failures: [...byMsg].map(([msg, deviceIds]) => ({ msg, deviceIds })),
  }
}

/** null when the selection can be sent as one batch, else the reason in Chinese. */
export function validateBatchSelection(ids: readonly number[], max = MAX_BATCH): string | null {
  const unique = new Set(ids)
  if (unique.size === 0) return '请选择云手机'
  for (const id of unique) if (!Number.isInteger(id) || id <= 0) return '云手机编号无效'
  if (unique.size > max) return `一次最多操作${max}台`
  return null
}

/** The same check for a renewal, whose bound is the studio's (MAX_RENEW_BATCH). */
export const validateRenewSelection = (ids: readonly number[]) =>
  validateBatchSelection(ids, MAX_RENEW_BATCH)
