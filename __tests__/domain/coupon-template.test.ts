/**
 * templateProblem (the console's template check) against checkCoupon (the checkout): a template it
 * accepts for every product is usable on a purchase reaching its threshold, and one it refuses for its
 * type is one the checkout would never honour.
 */
import fc from 'fast-check'
import { checkCoupon, couponDiscount, templateProblem, type Coupon } from '../../src/domain/coupon'
import { BusinessType, CouponScope, CouponType } from '../../src/domain/enums'

const template = fc.record({
  couponType: fc.integer({ min: 0, max: 6 }),
  parValue: fc.integer({ min: -5, max: 20_000 }),
  conditionsUse: fc.option(fc.integer({ min: -5, max: 50_000 }), { nil: null }),
  businessType: fc.integer({ min: 0, max: 6 }),
  scopeApplications: fc.constantFrom('1', '1,1', '7', '', '1,6'),
  applicableObjects: fc.constantFrom(null, '80', '150', 'x'),
  effectiveScope: fc.constantFrom(null, '', '1', '1,3', '5'),
})

describe('templateProblem', () => {
  it('a template it accepts for every product is usable at its threshold and gives a discount', () => {
    let accepted = 0
    fc.assert(
      fc.property(template, fc.integer({ min: 0, max: 100_000 }), (coupon: Coupon, extra) => {
        // every effective scope the generator can make and templateProblem accepts lists '1' (any goods)
        if (templateProblem(coupon) !== null || coupon.scopeApplications !== '1') return
        accepted++
        const price = Number(coupon.conditionsUse ?? 0) + 1 + extra
        const goods = { goodPrice: price, firstRecharge: true }
        expect(checkCoupon(coupon, goods, 1)).toEqual({ usable: true })
        expect(couponDiscount(coupon, goods, 1)).toBeGreaterThan(0)
      }),
      { numRuns: 2000 },
    )
    // the property held on enough accepted templates: about 58 of 2,000 on average (42–77 over 30
    // samples), so 20 is far below any run's count, where 50 failed one run in five
    expect(accepted).toBeGreaterThan(20)
  })

  it('names the rule a template breaks', () => {
    const base: Coupon = {
      couponType: CouponType.noThresholdRoll,
      parValue: 500,
      businessType: BusinessType.cloudMachine,
      scopeApplications: String(CouponScope.fullBusiness),
    }
    expect(templateProblem(base)).toBeNull()
    expect(templateProblem({ ...base, couponType: CouponType.firstRechargeCoupon })).toBe(
      '首充券只能用于云豆充值',
    )
    expect(
      checkCoupon({ ...base, couponType: CouponType.firstRechargeCoupon }, { goodPrice: 9999 }, 1)
        .usable,
    ).toBe(false)
    expect(templateProblem({ ...base, parValue: 0 })).toBe('面额须至少 1 分')
    expect(templateProblem({ ...base, couponType: CouponType.discountCoupon, parValue: 100 })).toBe(
      '折扣须在 0.1 折到 9.9 折之间',
    )
    expect(
      templateProblem({ ...base, couponType: CouponType.fullVolumeReduction, conditionsUse: 500 }),
    ).toBe('满减券的门槛须高于面额')
    expect(templateProblem({ ...base, scopeApplications: '2' })).toBe('请填写适用对象')
    expect(templateProblem({ ...base, scopeApplications: '2', applicableObjects: '101,abc' })).toBe(
      '适用对象须是编号',
    )
    expect(templateProblem({ ...base, effectiveScope: '9' })).toBe('生效范围无效')
  })
})
