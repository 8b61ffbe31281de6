/**
 * Pricing rules shared by client (display) and server (the amount actually charged); docs/cloud-phones.md
 * "Shared pricing rules". Money is integer fen, times epoch ms, `now` always a parameter.
 */

export interface PriceRow {
  priceId: number
  goodId: number
  /** Duration bought, in days. */
  goodTime: number
  goodPrice: number
  oldGoodPrice: number | null
  firstPurchasePrice: number | null
  /** How many units of a first order get the first-purchase price; 0 when none. */
  firstCount: number
  activityId: number | null
  activityPrice: number | null
  activityEndsAt: number | null
}

export const DAY_MS = 86_400_000

/** SPEC number box minimum. */
export const MIN_QUANTITY = 1

export const PRICE_LABELS = { firstPurchase: '首购价', activity: '活动价', normal: '原价' } as const

// Products of fractional daily prices carry float noise (e.g. 100.00000000001): ignore it when rounding.
const EPSILON = 1e-7
const ceilFen = (value: number) => Math.max(0, Math.ceil(value - EPSILON))
const floorMs = (value: number) => Math.max(0, Math.floor(value + EPSILON))

/** An activity runs from when it is set until (not including) activityEndsAt; no end means open-ended. */
export function activityRunning(price: PriceRow, now: number): boolean {
  if (price.activityId == null || price.activityPrice == null) return false
  return price.activityEndsAt == null || now < price.activityEndsAt
}

function hasFirstPurchasePrice(price: PriceRow): boolean {
  return price.firstPurchasePrice != null && price.firstCount > 0
}

export function unitPrice(
  price: PriceRow,
  opts: { firstPurchaseEligible: boolean; now: number },
): number {
  if (activityRunning(price, opts.now)) return price.activityPrice as number
  if (opts.firstPurchaseEligible && hasFirstPurchasePrice(price)) {
    return price.firstPurchasePrice as number
  }
  return price.goodPrice
}

export interface QuoteLine {
  label: string
  unitPrice: number
  quantity: number
  amount: number
}

export interface Quote {
  total: number
  /** What the units would cost at the list price (the struck-through one when that is higher). */
  originalAmount: number
  lines: QuoteLine[]
}

function line(label: string, unit: number, quantity: number): QuoteLine {
  return { label, unitPrice: unit, quantity, amount: unit * quantity }
}

function assertCount(quantity: number, what: string): void {
  if (!Number.isInteger(quantity) || quantity < 0) {
    throw new RangeError(`${what} must be a non-negative integer, got ${quantity}`)
  }
}

/**
 * A new-phone order: on a user's first order (and with no running activity) the first `firstCount`
 * units get the first-purchase price, the rest the normal price; a running activity prices every unit.
 */
export function orderTotal(
  price: PriceRow,
  quantity: number,
  opts: { isFirstOrder: boolean; now: number },
): Quote {
  assertCount(quantity, 'quantity')
  const lines: QuoteLine[] = []
  if (activityRunning(price, opts.now)) {
    lines.push(line(PRICE_LABELS.activity, price.activityPrice as number, quantity))
  } else {
    const firstUnits =
      opts.isFirstOrder && hasFirstPurchasePrice(price) ? Math.min(price.firstCount, quantity) : 0
    if (firstUnits > 0) {
      lines.push(line(PRICE_LABELS.firstPurchase, price.firstPurchasePrice as number, firstUnits))
    }
    if (quantity - firstUnits > 0) {
      lines.push(line(PRICE_LABELS.normal, price.goodPrice, quantity - firstUnits))
    }
  }
  const listPrice = Math.max(price.goodPrice, price.oldGoodPrice ?? 0)
  return {
    total: lines.reduce((sum, l) => sum + l.amount, 0),
    originalAmount: listPrice * quantity,
    lines,
  }
}

export interface RenewalDevice {
  deviceId: number
  expireAt: number
}

export interface RenewalLine {
  deviceId: number
  newExpireAt: number
  amount: number
  /** Time added beyond goodTime days to reach the latest expiry (align); 0 otherwise. */
  extraMs: number
}

/** What `ms` of this price's duration costs pro rata, rounded up to the fen. */
export function proRata(price: PriceRow, ms: number): number {
  return ceilFen((price.goodPrice * ms) / (price.goodTime * DAY_MS))
}

/**
 * Renewal of several phones by one price row. Each phone extends from its expiry, or from now when it has
 * already expired, by goodTime days at goodPrice (the activity price while it runs). With alignToLatest
 * every phone is also carried to the latest new expiry, the extra time charged pro rata.
 */
export function renewalQuote(
  devices: RenewalDevice[],
  price: PriceRow,
  opts: { alignToLatest: boolean; now: number },
): { total: number; lines: RenewalLine[] } {
  const periodPrice = activityRunning(price, opts.now)
    ? (price.activityPrice as number)
    : price.goodPrice
  const periodMs = price.goodTime * DAY_MS
  const extended = devices.map((d) => ({
    deviceId: d.deviceId,
    newExpireAt: Math.max(d.expireAt, opts.now) + periodMs,
  }))
  const latest = Math.max(...extended.map((d) => d.newExpireAt))
  const lines = extended.map((d): RenewalLine => {
    const extraMs = opts.alignToLatest ? latest - d.newExpireAt : 0
    return {
      deviceId: d.deviceId,
      newExpireAt: d.newExpireAt + extraMs,
      amount: periodPrice + proRata(price, extraMs),
      extraMs,
    }
  })
  return { total: lines.reduce((sum, l) => sum + l.amount, 0), lines }
}

/** Fen per day of a price row (may be fractional). */
export function dailyPrice(price: PriceRow): number {
  return price.goodPrice / price.goodTime
}

export type UpgradeDirection = 'up' | 'down' | 'same'

/**
 * Changing configuration for the remaining time: going up pays the daily difference (rounded up to the
 * fen); going down costs nothing and stretches the remaining time by value (rounded down to the ms).
 */
export function upgradeQuote(
  fromDaily: number,
  toDaily: number,
  remainingMs: number,
): { amount: number; newRemainingMs: number; direction: UpgradeDirection } {
  if (!(fromDaily > 0 && toDaily > 0)) {
    throw new RangeError(`daily prices must be positive, got ${fromDaily} → ${toDaily}`)
  }
  const remaining = Math.max(0, remainingMs)
  if (toDaily > fromDaily) {
    return {
      amount: ceilFen(((toDaily - fromDaily) * remaining) / DAY_MS),
      newRemainingMs: remaining,
      direction: 'up',
    }
  }
  if (toDaily < fromDaily) {
    return {
      amount: 0,
      newRemainingMs: floorMs((remaining * fromDaily) / toDaily),
      direction: 'down',
    }
  }
  return { amount: 0, newRemainingMs: remaining, direction: 'same' }
}

/** Video-custom edition for the remaining time: at least 1 fen while any time remains. */
export function videoUpgradeQuote(dailyFee: number, remainingMs: number): number {
  if (remainingMs <= 0) return 0
  return Math.max(1, ceilFen((dailyFee * remainingMs) / DAY_MS))
}

/** The client's expectedAmount must equal the server's own amount to the fen (else 1023). */
export function checkExpectedAmount(expected: number, actual: number): boolean {
  return Number.isInteger(expected) && expected === actual
}

/** null when the quantity can be ordered, else the reason in Chinese. */
export function validateQuantity(quantity: number, maxPerOrder: number): string | null {
  if (!Number.isInteger(quantity)) return '购买数量须为整数'
  if (quantity < MIN_QUANTITY) return `购买数量至少为${MIN_QUANTITY}`
  if (quantity > maxPerOrder) return `单次最多购买${maxPerOrder}台`
  return null
}
