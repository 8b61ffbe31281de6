/**
 * What an operator may set on the catalogue (the console's 商品与价格 page and the server's
 * /vmcloud/admin/api/catalogue routes check the same rules). Money is integer fen; the checkout reads
 * these rows through #domain/pricing (unitPrice, orderTotal), so a row that passes here prices as the
 * list shows it.
 */

/**
 * The highest price one unit may have, in fen (¥100,000): the seeded 365-day top level is far below it,
 * and a quantity of 500 (the company limit) times it stays a safe integer and within the database's
 * integer for an order's amount.
 */
export const MAX_PRICE_FEN = 10_000_000
/** The most free units one goods may have in one zone (the seed has up to a few hundred). */
export const MAX_FREE_STOCK = 100_000

export interface PriceEdit {
  goodPrice: number
  /** The struck-through price; null for none. */
  oldGoodPrice: number | null
  /** null for no first-purchase offer. */
  firstPurchasePrice: number | null
  /** How many units of a first order get the first-purchase price. */
  firstCount: number
  /** Only on a row with an activity (activityId set): null ends the activity price. */
  activityPrice: number | null
  /** ms since epoch; null: the activity runs until changed. */
  activityEndsAt: number | null
}

const isFen = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_PRICE_FEN

/**
 * The first rule a price edit breaks, as the operator should read it, or null when it is valid.
 * `row`: what the edit cannot change (whether the row has an activity, the goods' per-order limit).
 */
export function validatePriceEdit(
  edit: PriceEdit,
  row: { activityId: number | null; maxPerOrder: number },
): string | null {
  const fen = `须为 0.01–${MAX_PRICE_FEN / 100} 元之间、精确到分的金额`
  if (!isFen(edit.goodPrice)) return `售价${fen}`
  if (edit.oldGoodPrice !== null) {
    if (!isFen(edit.oldGoodPrice)) return `划线价${fen}`
    if (edit.oldGoodPrice <= edit.goodPrice) return '划线价须高于售价'
  }
  if (edit.firstPurchasePrice !== null) {
    if (!isFen(edit.firstPurchasePrice)) return `首购价${fen}`
    if (edit.firstPurchasePrice >= edit.goodPrice) return '首购价须低于售价'
  }
  if (
    !Number.isSafeInteger(edit.firstCount) ||
    edit.firstCount < 0 ||
    edit.firstCount > row.maxPerOrder
  ) {
    return `首购数量须为 0–${row.maxPerOrder} 的整数`
  }
  if (edit.firstCount > 0 && edit.firstPurchasePrice === null)
    return '首购数量大于 0 时须填写首购价'
  if (edit.activityPrice !== null) {
    if (row.activityId === null) return '该价格没有关联活动，不能设置活动价'
    if (!isFen(edit.activityPrice)) return `活动价${fen}`
    if (edit.activityPrice >= edit.goodPrice) return '活动价须低于售价'
  }
  if (edit.activityEndsAt !== null) {
    if (!Number.isSafeInteger(edit.activityEndsAt) || edit.activityEndsAt <= 0) {
      return '活动结束时间无效'
    }
    if (edit.activityPrice === null) return '没有活动价时不能设置活动结束时间'
  }
  return null
}

/** The first rule a free-stock edit breaks, or null. */
export function validateFreeStock(free: number): string | null {
  if (!Number.isSafeInteger(free) || free < 0 || free > MAX_FREE_STOCK) {
    return `可售库存须为 0–${MAX_FREE_STOCK} 的整数`
  }
  return null
}

/**
 * 元 as an operator types them, to fen (formatters' fenToYuan shows fen as 元); null when it is not an
 * amount with at most two decimals. Parsed as text: 0.29 * 100 is 28.999999999999996 in floating point.
 */
export function yuanToFen(yuan: string | number): number | null {
  const text = String(yuan).trim()
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) return null
  const [whole, part = ''] = text.split('.')
  return Number(whole) * 100 + Number(part.padEnd(2, '0'))
}

/** The longest supplier id (an ACEP configuration code or data-centre id) the mapping keeps. */
export const MAX_REMOTE_ID_LENGTH = 64
/** What a supplier id is made of: letters, digits and . _ : - (no space, NUL or control character). */
const REMOTE_ID = /^[A-Za-z0-9._:-]+$/

/**
 * A supplier id as an operator typed it (商品与价格 → 供应商映射, and the server's mapping edit): trimmed,
 * 1–64 characters of A–Z a–z 0–9 . _ : -. `{ remoteId }` to store, or `{ why }` as the operator should
 * read it. Anything but a string is refused, so the server's body cannot slip past it.
 */
export function checkRemoteId(raw: unknown): { remoteId: string } | { why: string } {
  if (typeof raw !== 'string') return { why: '供应商ID须为文本' }
  const remoteId = raw.trim()
  if (remoteId.length === 0) return { why: '请填写供应商ID' }
  if (remoteId.length > MAX_REMOTE_ID_LENGTH) {
    return { why: `供应商ID最长 ${MAX_REMOTE_ID_LENGTH} 个字符` }
  }
  if (!REMOTE_ID.test(remoteId)) {
    return { why: '供应商ID只能包含英文字母、数字和 . _ : -（不能有空格或控制字符）' }
  }
  return { remoteId }
}
