import {
  activityRunning,
  checkExpectedAmount,
  dailyPrice,
  DAY_MS,
  MIN_QUANTITY,
  orderTotal,
  type PriceRow,
  proRata,
  renewalQuote,
  unitPrice,
  upgradeQuote,
  validateQuantity,
  videoUpgradeQuote,
} from '@/domain/pricing'

const NOW = 1_800_000_000_000

const base: PriceRow = {
  priceId: 11,
  goodId: 1,
  goodTime: 30,
  goodPrice: 3000,
  oldGoodPrice: null,
  firstPurchasePrice: null,
  firstCount: 0,
  activityId: null,
  activityPrice: null,
  activityEndsAt: null,
}
const withFirst: PriceRow = { ...base, firstPurchasePrice: 990, firstCount: 2 }
const withActivity: PriceRow = {
  ...withFirst,
  activityId: 7,
  activityPrice: 1990,
  activityEndsAt: NOW + 1000,
}

describe('activityRunning', () => {
  it('runs before its end and stops exactly at it', () => {
    expect(activityRunning(withActivity, NOW)).toBe(true)
    expect(activityRunning(withActivity, NOW + 999)).toBe(true)
    expect(activityRunning(withActivity, NOW + 1000)).toBe(false)
  })
  it('runs with no end set, and never without an activity price or id', () => {
    expect(activityRunning({ ...withActivity, activityEndsAt: null }, NOW)).toBe(true)
    expect(activityRunning({ ...withActivity, activityPrice: null }, NOW)).toBe(false)
    expect(activityRunning({ ...withActivity, activityId: null }, NOW)).toBe(false)
  })
})

describe('unitPrice', () => {
  it('is the activity price while it runs, even for a first purchase', () => {
    expect(unitPrice(withActivity, { firstPurchaseEligible: true, now: NOW })).toBe(1990)
  })
  it('falls back once the activity has ended', () => {
    const after = { now: NOW + 1000 }
    expect(unitPrice(withActivity, { ...after, firstPurchaseEligible: true })).toBe(990)
    expect(unitPrice(withActivity, { ...after, firstPurchaseEligible: false })).toBe(3000)
  })
  it('gives the first-purchase price only when eligible and the row has one', () => {
    expect(unitPrice(withFirst, { firstPurchaseEligible: true, now: NOW })).toBe(990)
    expect(unitPrice(withFirst, { firstPurchaseEligible: false, now: NOW })).toBe(3000)
    expect(unitPrice(base, { firstPurchaseEligible: true, now: NOW })).toBe(3000)
    const noCount = { ...withFirst, firstCount: 0 }
    expect(unitPrice(noCount, { firstPurchaseEligible: true, now: NOW })).toBe(3000)
  })
})

describe('orderTotal', () => {
  it('prices the first firstCount units of a first order at the first-purchase price', () => {
    const q = orderTotal(withFirst, 5, { isFirstOrder: true, now: NOW })
    expect(q.lines).toEqual([
      { label: '首购价', unitPrice: 990, quantity: 2, amount: 1980 },
      { label: '原价', unitPrice: 3000, quantity: 3, amount: 9000 },
    ])
    expect(q.total).toBe(10980)
    expect(q.originalAmount).toBe(15000)
  })
  it('gives every unit the first-purchase price when firstCount exceeds the quantity', () => {
    const q = orderTotal({ ...withFirst, firstCount: 10 }, 3, { isFirstOrder: true, now: NOW })
    expect(q.lines).toEqual([{ label: '首购价', unitPrice: 990, quantity: 3, amount: 2970 }])
    expect(q.total).toBe(2970)
  })
  it('charges a later order the normal price', () => {
    const q = orderTotal(withFirst, 2, { isFirstOrder: false, now: NOW })
    expect(q.lines).toEqual([{ label: '原价', unitPrice: 3000, quantity: 2, amount: 6000 }])
  })
  it('a running activity prices every unit, first order or not', () => {
    const q = orderTotal(withActivity, 3, { isFirstOrder: true, now: NOW })
    expect(q.lines).toEqual([{ label: '活动价', unitPrice: 1990, quantity: 3, amount: 5970 }])
    expect(q.total).toBe(5970)
  })
  it('an activity ending exactly now no longer applies', () => {
    const q = orderTotal(withActivity, 3, { isFirstOrder: true, now: NOW + 1000 })
    expect(q.total).toBe(2 * 990 + 3000)
  })
  it('measures the original amount by the struck-through price when it is higher', () => {
    const q = orderTotal({ ...base, oldGoodPrice: 5000 }, 2, { isFirstOrder: false, now: NOW })
    expect(q.originalAmount).toBe(10000)
    const lower = orderTotal({ ...base, oldGoodPrice: 100 }, 2, { isFirstOrder: false, now: NOW })
    expect(lower.originalAmount).toBe(6000)
  })
  it('refuses a negative or fractional quantity instead of pricing it', () => {
    expect(() => orderTotal(base, -1, { isFirstOrder: false, now: NOW })).toThrow(RangeError)
    expect(() => orderTotal(base, 1.5, { isFirstOrder: false, now: NOW })).toThrow(RangeError)
  })
})

describe('renewalQuote', () => {
  const period = 30 * DAY_MS
  it('extends a running phone from its expiry by goodTime days at goodPrice', () => {
    const q = renewalQuote([{ deviceId: 1, expireAt: NOW + DAY_MS }], base, {
      alignToLatest: false,
      now: NOW,
    })
    expect(q.lines).toEqual([
      { deviceId: 1, newExpireAt: NOW + DAY_MS + period, amount: 3000, extraMs: 0 },
    ])
    expect(q.total).toBe(3000)
  })
  it('renews an expired phone from now, not from its old expiry', () => {
    const q = renewalQuote([{ deviceId: 1, expireAt: NOW - 3600_000 }], base, {
      alignToLatest: false,
      now: NOW,
    })
    expect(q.lines[0].newExpireAt).toBe(NOW + period)
  })
  it('uses the activity price while the activity runs', () => {
    const q = renewalQuote([{ deviceId: 1, expireAt: NOW }], withActivity, {
      alignToLatest: false,
      now: NOW,
    })
    expect(q.total).toBe(1990)
  })
  it('without align each phone keeps its own new expiry', () => {
    const q = renewalQuote(
      [
        { deviceId: 1, expireAt: NOW + DAY_MS },
        { deviceId: 2, expireAt: NOW + 3 * DAY_MS },
      ],
      base,
      { alignToLatest: false, now: NOW },
    )
    expect(q.lines.map((l) => l.newExpireAt)).toEqual([
      NOW + DAY_MS + period,
      NOW + 3 * DAY_MS + period,
    ])
    expect(q.total).toBe(6000)
  })
  it('with align carries every phone to the latest expiry, charging the extra days pro rata', () => {
    const q = renewalQuote(
      [
        { deviceId: 1, expireAt: NOW + DAY_MS },
        { deviceId: 2, expireAt: NOW + 3 * DAY_MS },
        { deviceId: 3, expireAt: NOW - DAY_MS },
      ],
      base,
      { alignToLatest: true, now: NOW },
    )
    const latest = NOW + 3 * DAY_MS + period
    expect(q.lines).toEqual([
      { deviceId: 1, newExpireAt: latest, amount: 3000 + 200, extraMs: 2 * DAY_MS },
      { deviceId: 2, newExpireAt: latest, amount: 3000, extraMs: 0 },
      { deviceId: 3, newExpireAt: latest, amount: 3000 + 300, extraMs: 3 * DAY_MS },
    ])
    expect(q.total).toBe(9500)
  })
  it('aligning a single phone adds nothing', () => {
    const q = renewalQuote([{ deviceId: 1, expireAt: NOW + DAY_MS }], base, {
      alignToLatest: true,
      now: NOW,
    })
    expect(q.lines[0].extraMs).toBe(0)
    expect(q.total).toBe(3000)
  })
  it('rounds the pro-rata charge up to the fen', () => {
    expect(proRata(base, 1)).toBe(1)
    expect(proRata(base, 3600_000)).toBe(5) // 100 fen/day ÷ 24 = 4.17
    expect(proRata(base, 0)).toBe(0)
  })
  it('no phones, nothing to pay', () => {
    expect(renewalQuote([], base, { alignToLatest: true, now: NOW })).toEqual({
      total: 0,
      lines: [],
    })
  })
})

describe('upgradeQuote', () => {
  it('upgrading pays the daily difference for the remaining time, rounded up', () => {
    expect(dailyPrice(base)).toBe(100)
    expect(upgradeQuote(100, 250, 10 * DAY_MS)).toEqual({
      amount: 1500,
      newRemainingMs: 10 * DAY_MS,
      direction: 'up',
    })
    expect(upgradeQuote(100, 250, 3600_000).amount).toBe(7) // 6.25
  })
  it('does not let float noise add a fen', () => {
    // 1600/7 − 100/7 over 7 days is exactly 1500 fen, but the float sum is 1500.0000000000002.
    const week = { ...base, goodTime: 7 }
    const from = dailyPrice({ ...week, goodPrice: 100 })
    const to = dailyPrice({ ...week, goodPrice: 1600 })
    expect(upgradeQuote(from, to, 7 * DAY_MS).amount).toBe(1500)
  })
  it('downgrading is free and stretches the remaining time by value', () => {
    expect(upgradeQuote(300, 100, 10 * DAY_MS)).toEqual({
      amount: 0,
      newRemainingMs: 30 * DAY_MS,
      direction: 'down',
    })
    expect(upgradeQuote(100, 300, 0).amount).toBe(0)
    expect(upgradeQuote(200, 300, 1000).direction).toBe('up')
    expect(upgradeQuote(300, 200, 1001).newRemainingMs).toBe(1501) // 1501.5 rounded down
  })
  it('the same daily price changes nothing', () => {
    expect(upgradeQuote(100, 100, DAY_MS)).toEqual({
      amount: 0,
      newRemainingMs: DAY_MS,
      direction: 'same',
    })
  })
  it('refuses a free configuration rather than dividing by zero', () => {
    expect(() => upgradeQuote(100, 0, DAY_MS)).toThrow(RangeError)
  })
})

describe('videoUpgradeQuote', () => {
  it('charges the daily fee for the remaining time, rounded up, at least 1 fen', () => {
    expect(videoUpgradeQuote(200, 5 * DAY_MS)).toBe(1000)
    expect(videoUpgradeQuote(200, DAY_MS / 3)).toBe(67)
    expect(videoUpgradeQuote(200, 1)).toBe(1)
    expect(videoUpgradeQuote(200, 0)).toBe(0)
    expect(videoUpgradeQuote(200, -5)).toBe(0)
  })
})

describe('checkExpectedAmount', () => {
  it('matches only the exact integer amount', () => {
    expect(checkExpectedAmount(1000, 1000)).toBe(true)
    expect(checkExpectedAmount(999, 1000)).toBe(false)
    expect(checkExpectedAmount(1000.4, 1000)).toBe(false)
  })
})

describe('validateQuantity', () => {
  it('accepts 1 up to the limit', () => {
    expect(MIN_QUANTITY).toBe(1)
    expect(validateQuantity(1, 10)).toBeNull()
    expect(validateQuantity(10, 10)).toBeNull()
  })
  it('says why a quantity is refused', () => {
    expect(validateQuantity(0, 10)).toBe('购买数量至少为1')
    expect(validateQuantity(-3, 10)).toBe('购买数量至少为1')
    expect(validateQuantity(11, 10)).toBe('单次最多购买10台')
    expect(validateQuantity(1.5, 10)).toBe('购买数量须为整数')
    expect(validateQuantity(Number.NaN, 10)).toBe('购买数量须为整数')
  })
})
