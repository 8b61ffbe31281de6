import fc from 'fast-check'
import {
  checkCoupon,
  COUPON_NOT_APPLICABLE,
  couponDiscount,
  FIRST_RECHARGE_ONLY,
  fitsOrder,
  pickBestCoupon,
  templateProblem,
  WELL_FITTING_SHARE,
  type Coupon,
  type CouponGoods,
} from '@/domain/coupon'

const goods: CouponGoods = {
  goodId: 10,
  configId: 20,
  id: 30,
  goodTime: 31,
  goodPrice: 5000, // 50 元
  oldPrice: 10000,
  firstCount: 0,
  activityId: null,
  firstPurchase: false,
}

const coupon = (over: Partial<Coupon> = {}): Coupon => ({
  couponType: 2,
  parValue: 500,
  conditionsUse: 0,
  businessType: 1,
  scopeApplication: 1,
  effectiveScope: '',
  ...over,
})

const usable = { usable: true }
const notApplicable = { usable: false, reason: '所购买商品不在适用范围内' }

describe('business type', () => {
  it.each([1, 2, 3, 4, 5])('business type %i is usable', (businessType) => {
    expect(checkCoupon(coupon({ businessType }), goods, 1)).toEqual(usable)
  })
  it.each([0, 6, -1, NaN])('business type %p is not applicable', (businessType) => {
    expect(checkCoupon(coupon({ businessType }), goods, 1)).toEqual(notApplicable)
  })
})

describe('scope', () => {
  it('full business always matches', () => {
    expect(checkCoupon(coupon({ scopeApplication: 1 }), {} as CouponGoods, 1).usable).toBe(true)
  })
  it.each([
    ['product model', 2, 'goodId', 10],
    ['cloud version', 3, 'configId', 20],
    ['billable time product', 4, 'id', 30],
    ['product duration', 5, 'goodTime', 31],
  ] as const)('%s (scope %i) matches %s', (_name, scope, field, value) => {
    const hit = coupon({ scopeApplication: scope, applicableObjects: `99,${value}` })
    const miss = coupon({ scopeApplication: scope, applicableObjects: '99,98' })
    expect(checkCoupon(hit, goods, 1)).toEqual(usable)
    expect(checkCoupon(miss, goods, 1)).toEqual(notApplicable)
    // the same goods with another value in that field no longer matches
    expect(checkCoupon(hit, { ...goods, [field]: 77 }, 1)).toEqual(notApplicable)
  })
  it('reads the objects of a scope from its rule when rules exist', () => {
    const c = coupon({
      scopeApplications: '2,5',
      rules: [
        { type: 2, objectData: [10, 11] },
        { type: 5, objectData: '31' },
      ],
    })
    expect(checkCoupon(c, goods, 1)).toEqual(usable)
    expect(checkCoupon(c, { ...goods, goodTime: 90 }, 1)).toEqual(notApplicable)
  })
  it('takes the comma list of scopeApplications over scopeApplication, all must match', () => {
    const c = coupon({ scopeApplication: 1, scopeApplications: '1,2', applicableObjects: '11' })
    expect(checkCoupon(c, goods, 1)).toEqual(notApplicable)
    expect(checkCoupon(c, { ...goods, goodId: 11 }, 1)).toEqual(usable)
  })
  it('discount ratio: current price / old price must reach the percentage', () => {
    const c = coupon({ scopeApplication: 6, applicableObjects: '50' })
    expect(checkCoupon(c, goods, 1)).toEqual(usable) // 5000/10000 = 50%
    expect(checkCoupon(c, { ...goods, goodPrice: 4999 }, 1)).toEqual(notApplicable)
    expect(checkCoupon(c, { ...goods, oldPrice: undefined, oldGoodPrice: 8000 }, 1)).toEqual(usable)
    expect(checkCoupon(c, { ...goods, oldPrice: null, oldGoodPrice: null }, 1)).toEqual(
      notApplicable,
    )
  })
  it('discount ratio: at the exact boundary of every percentage 1–100 usable, a fen below not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        (percentage, old) => {
          const c = coupon({ scopeApplication: 6, applicableObjects: String(percentage) })
          const atBoundary = Math.ceil((percentage * old) / 100) // the least price that reaches it
          const at = { ...goods, oldPrice: old, goodPrice: atBoundary }
          expect(checkCoupon(c, at, 1)).toEqual(usable)
          expect(checkCoupon(c, { ...at, goodPrice: atBoundary - 1 }, 1)).toEqual(notApplicable)
        },
      ),
      { numRuns: 5_000 },
    )
    // 29/100 × 100 is 28.999999999999996 as a float quotient
    const c29 = coupon({ scopeApplication: 6, applicableObjects: '29' })
    expect(checkCoupon(c29, { ...goods, goodPrice: 29, oldPrice: 100 }, 1)).toEqual(usable)
  })
  it('discount ratio: an oldPrice of 0 is no price, and oldGoodPrice is read', () => {
    const c = coupon({ scopeApplication: 6, applicableObjects: '50' })
    expect(checkCoupon(c, { ...goods, oldPrice: 0, oldGoodPrice: 10000 }, 1)).toEqual(usable)
    expect(checkCoupon(c, { ...goods, oldPrice: 0, oldGoodPrice: 0 }, 1)).toEqual(notApplicable)
  })
  it.each(['0', ' 0', '00', '', null])(
    'scopeApplications %p is unset: scopeApplication is read',
    (scopeApplications) => {
      const c = coupon({ scopeApplication: 1, scopeApplications })
      expect(checkCoupon(c, goods, 1)).toEqual(usable)
    },
  )
  it.each([',', '1,', '0x2', '2a', '1;2', '１'])(
    'a malformed scope list %p is not applicable, and the console refuses it',
    (scopeApplications) => {
      const c = coupon({ scopeApplication: 1, scopeApplications, applicableObjects: '10' })
      expect(checkCoupon(c, goods, 1)).toEqual(notApplicable)
      expect(templateProblem(c)).toBe('适用范围无效')
    },
  )
  it.each([7, 0, null])('scope %p is unmatched and not applicable', (scope) => {
    expect(checkCoupon(coupon({ scopeApplication: scope }), goods, 1)).toEqual(notApplicable)
  })
})

describe('effective scope', () => {
  const withScope = (effectiveScope: string | null) => coupon({ effectiveScope })
  it('no scope set is effective', () => {
    expect(checkCoupon(withScope(''), goods, 1)).toEqual(usable)
    expect(checkCoupon(withScope(null), goods, 1)).toEqual(usable)
  })
  it("'1' is always effective", () => {
    expect(checkCoupon(withScope('1'), goods, 1)).toEqual(usable)
    expect(checkCoupon(withScope('1'), { ...goods, activityId: 5 }, 1)).toEqual(usable)
  })
  it("'2' needs firstCount > 0 and no activity", () => {
    expect(checkCoupon(withScope('2'), { ...goods, firstCount: 1 }, 1)).toEqual(usable)
    expect(checkCoupon(withScope('2'), { ...goods, firstCount: 0 }, 1)).toEqual(notApplicable)
    expect(checkCoupon(withScope('2'), { ...goods, firstCount: 1, activityId: 9 }, 1)).toEqual(
      notApplicable,
    )
  })
  it("'3' needs an activity", () => {
    expect(checkCoupon(withScope('3'), { ...goods, activityId: 9 }, 1)).toEqual(usable)
    expect(checkCoupon(withScope('3'), goods, 1)).toEqual(notApplicable)
  })
  it("'4' needs firstCount 0 and a first purchase", () => {
    expect(checkCoupon(withScope('4'), { ...goods, firstPurchase: true }, 1)).toEqual(usable)
    expect(checkCoupon(withScope('4'), { ...goods, firstPurchase: false }, 1)).toEqual(
      notApplicable,
    )
    expect(
      checkCoupon(withScope('4'), { ...goods, firstCount: 2, firstPurchase: true }, 1),
    ).toEqual(notApplicable)
  })
  it('a comma list is effective when any of its values holds', () => {
    expect(checkCoupon(withScope('2,3'), { ...goods, activityId: 9 }, 1)).toEqual(usable)
    expect(checkCoupon(withScope('2,3'), goods, 1)).toEqual(notApplicable)
  })
})

describe('type rules', () => {
  it('full reduction needs goodPrice × number ≥ conditionsUse, and says how much is missing', () => {
    const c = coupon({ couponType: 1, parValue: 1000, conditionsUse: 12000 })
    expect(checkCoupon(c, goods, 3)).toEqual(usable) // 15000
    expect(checkCoupon(c, { ...goods, goodPrice: 4000 }, 3)).toEqual(usable) // exactly 12000
    expect(checkCoupon(c, goods, 2)).toEqual({ usable: false, reason: '距离可用门槛还差20.00元' })
    expect(checkCoupon(c, { ...goods, goodPrice: 3333 }, 1)).toEqual({
      usable: false,
      reason: '距离可用门槛还差86.67元',
    })
  })
  it('no-threshold and discount coupons always pass', () => {
    expect(checkCoupon(coupon({ couponType: 2, conditionsUse: 999999 }), goods, 1)).toEqual(usable)
    expect(
      checkCoupon(coupon({ couponType: 3, parValue: 85, conditionsUse: 999999 }), goods, 1),
    ).toEqual(usable)
  })
  it('first-recharge coupons never apply to purchases (business types other than 3)', () => {
    expect(checkCoupon(coupon({ couponType: 4 }), goods, 1)).toEqual(notApplicable)
    expect(checkCoupon(coupon({ couponType: 4 }), { ...goods, firstRecharge: true }, 1)).toEqual(
      notApplicable,
    )
  })
  it.each([5, 0, -1, 99])('coupon type %i is unmatched and not applicable', (couponType) => {
    expect(checkCoupon(coupon({ couponType }), goods, 1)).toEqual(notApplicable)
  })
  it('uses the exported message', () => {
    expect(COUPON_NOT_APPLICABLE).toBe('所购买商品不在适用范围内')
  })
})

describe('first-recharge coupons (type 4, bean recharges only)', () => {
  const firstRecharge = coupon({
    couponType: 4,
    businessType: 3,
    parValue: 300,
    conditionsUse: 3000,
  })
  const recharge: CouponGoods = { goodPrice: 3000, oldPrice: 3000, firstRecharge: true }

  it("apply to the buyer's first bean recharge", () => {
    expect(checkCoupon(firstRecharge, recharge, 1)).toEqual(usable)
    expect(couponDiscount(firstRecharge, recharge, 1)).toBe(300)
  })
  it('are refused on a later recharge with 仅限首次充值使用', () => {
    expect(FIRST_RECHARGE_ONLY).toBe('仅限首次充值使用')
    for (const later of [{ ...recharge, firstRecharge: false }, { goodPrice: 3000 }]) {
      expect(checkCoupon(firstRecharge, later, 1)).toEqual({
        usable: false,
        reason: '仅限首次充值使用',
      })
      expect(couponDiscount(firstRecharge, later, 1)).toBe(0)
    }
  })
  it('need the recharge to reach their threshold', () => {
    expect(checkCoupon(firstRecharge, { ...recharge, goodPrice: 600 }, 1)).toEqual({
      usable: false,
      reason: '距离可用门槛还差24.00元',
    })
  })
  it('other types on a recharge keep their rules and messages', () => {
    const bean = (over: Partial<Coupon>) => coupon({ businessType: 3, ...over })
    expect(checkCoupon(bean({ couponType: 2 }), recharge, 1)).toEqual(usable)
    expect(checkCoupon(bean({ couponType: 1, conditionsUse: 5000 }), recharge, 1)).toEqual({
      usable: false,
      reason: '距离可用门槛还差20.00元',
    })
  })
})

describe('best coupon', () => {
  it('computes the discount per type, capped at the total', () => {
    expect(couponDiscount(coupon({ couponType: 2, parValue: 500 }), goods, 2)).toBe(500)
    expect(couponDiscount(coupon({ couponType: 3, parValue: 80 }), goods, 2)).toBe(2000)
    expect(couponDiscount(coupon({ couponType: 2, parValue: 99999 }), goods, 1)).toBe(5000)
    expect(couponDiscount(coupon({ couponType: 4 }), goods, 1)).toBe(0)
  })
  it('picks the usable coupon with the largest discount', () => {
    const small = coupon({ couponType: 2, parValue: 500 })
    const discount = coupon({ couponType: 3, parValue: 90 }) // 10% of 10000 = 1000
    const bigButLocked = coupon({ couponType: 1, parValue: 5000, conditionsUse: 50000 })
    const wrongScope = coupon({
      couponType: 2,
      parValue: 9000,
      scopeApplication: 2,
      applicableObjects: '1',
    })
    expect(pickBestCoupon([small, bigButLocked, discount, wrongScope], goods, 2)).toBe(discount)
    expect(pickBestCoupon([bigButLocked, wrongScope], goods, 2)).toBeNull()
    expect(pickBestCoupon([], goods, 1)).toBeNull()
  })
})

describe('automatic pick (docs/coupons.md)', () => {
  const order = (fen: number): CouponGoods => ({ ...goods, goodPrice: fen })
  const noThreshold5 = coupon({ couponType: 2, parValue: 500 })

  it('does not spend a ¥5 无门槛券 on a ¥1.50 order: ¥3.50 of it would be thrown away', () => {
    expect(couponDiscount(noThreshold5, order(150), 1)).toBe(150)
    expect(pickBestCoupon([noThreshold5], order(150), 1)).toBeNull()
  })
  it('spends it once the order uses at least half of it', () => {
    expect(pickBestCoupon([noThreshold5], order(250), 1)).toBe(noThreshold5)
    expect(pickBestCoupon([noThreshold5], order(249), 1)).toBeNull()
    expect(pickBestCoupon([noThreshold5], order(125), 2)).toBe(noThreshold5)
  })
  it('prefers a better-fitting coupon to a poorly fitting bigger one', () => {
    const noThreshold1 = coupon({ couponType: 2, parValue: 100 })
    const discount = coupon({ couponType: 3, parValue: 90 }) // 10% off
    expect(pickBestCoupon([noThreshold5, noThreshold1], order(150), 1)).toBe(noThreshold1)
    expect(pickBestCoupon([noThreshold5, discount], order(150), 1)).toBe(discount)
  })
  it('a discount coupon always fits; a coupon giving nothing never does', () => {
    expect(fitsOrder(coupon({ couponType: 3, parValue: 99 }), 1)).toBe(true)
    expect(fitsOrder(coupon({ couponType: 3, parValue: 99 }), 0)).toBe(false)
    expect(fitsOrder(noThreshold5, 0)).toBe(false)
  })

  const arbitraryCoupon = fc.record({
    couponType: fc.constantFrom(1, 2, 3),
    parValue: fc.integer({ min: 1, max: 10_000 }),
    conditionsUse: fc.integer({ min: 0, max: 20_000 }),
  })
  const arbitraryCoupons = fc.array(
    arbitraryCoupon.map(({ couponType, parValue, conditionsUse }) =>
      coupon({
        couponType,
        parValue: couponType === 3 ? 1 + (parValue % 99) : parValue,
        conditionsUse: couponType === 1 ? conditionsUse : 0,
      }),
    ),
    { maxLength: 6 },
  )

  it('never wastes more than half of an amount coupon, and gives the most of those that fit', () => {
    fc.assert(
      fc.property(
        arbitraryCoupons,
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 5 }),
        (coupons, fen, number) => {
          const picked = pickBestCoupon(coupons, order(fen), number)
          const fitting = coupons.filter((c) => fitsOrder(c, couponDiscount(c, order(fen), number)))
          if (!picked) return fitting.length === 0
          const given = couponDiscount(picked, order(fen), number)
          const wasted = picked.couponType === 3 ? 0 : picked.parValue - given
          return (
            checkCoupon(picked, order(fen), number).usable &&
            wasted <= picked.parValue * (1 - WELL_FITTING_SHARE) &&
            fitting.every((c) => couponDiscount(c, order(fen), number) <= given)
          )
        },
      ),
    )
  })
})
