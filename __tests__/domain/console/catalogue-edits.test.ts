import fc from 'fast-check'
import {
  MAX_FREE_STOCK,
  MAX_PRICE_FEN,
  validateFreeStock,
  validatePriceEdit,
  yuanToFen,
  type PriceEdit,
} from '@/domain/console/catalogue-edits'
import { fenToYuan } from '@/domain/formatters'

const plain: PriceEdit = {
  goodPrice: 3000,
  oldGoodPrice: null,
  firstPurchasePrice: null,
  firstCount: 0,
  activityPrice: null,
  activityEndsAt: null,
}
const noActivity = { activityId: null, maxPerOrder: 10 }
const withActivity = { activityId: 3, maxPerOrder: 10 }

describe('yuanToFen', () => {
  it('reads 元 with up to two decimals exactly (no floating point)', () => {
    expect(yuanToFen('0.29')).toBe(29)
    expect(yuanToFen('0.3')).toBe(30)
    expect(yuanToFen('12')).toBe(1200)
    expect(yuanToFen(' 99.99 ')).toBe(9999)
    expect(yuanToFen(19.9)).toBe(1990)
  })

  it('refuses anything else', () => {
    for (const text of ['', '-1', '1.234', '1e3', '0x10', '1,000', '1\u00000', 'NaN', '.5']) {
      expect(yuanToFen(text)).toBeNull()
    }
  })

  it('round-trips every fen amount shown as 元', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_PRICE_FEN }), (fen) => {
        expect(yuanToFen(fenToYuan(fen))).toBe(fen)
      }),
    )
  })
})

describe('validatePriceEdit', () => {
  it('accepts a plain price, a first-purchase offer below it and an activity below it', () => {
    expect(validatePriceEdit(plain, noActivity)).toBeNull()
    expect(
      validatePriceEdit(
        { ...plain, oldGoodPrice: 3500, firstPurchasePrice: 1500, firstCount: 1 },
        noActivity,
      ),
    ).toBeNull()
    expect(
      validatePriceEdit(
        { ...plain, activityPrice: 2100, activityEndsAt: 1_800_000_000_000 },
        withActivity,
      ),
    ).toBeNull()
  })

  it.each<[Partial<PriceEdit>, string]>([
    [{ goodPrice: 0 }, '售价须为'],
    [{ goodPrice: -1 }, '售价须为'],
    [{ goodPrice: 10.5 }, '售价须为'],
    [{ goodPrice: MAX_PRICE_FEN + 1 }, '售价须为'],
    [{ goodPrice: Number.NaN }, '售价须为'],
    [{ oldGoodPrice: 3000 }, '划线价须高于售价'],
    [{ firstPurchasePrice: 3000, firstCount: 1 }, '首购价须低于售价'],
    [{ firstCount: 1 }, '首购数量大于 0 时须填写首购价'],
    [{ firstPurchasePrice: 1000, firstCount: 11 }, '首购数量须为 0–10 的整数'],
    [{ activityPrice: 2000 }, '该价格没有关联活动'],
  ])('refuses %j', (change, message) => {
    expect(validatePriceEdit({ ...plain, ...change }, noActivity)).toMatch(message)
  })

  it('refuses an activity price not below the price, and an end without a price', () => {
    expect(validatePriceEdit({ ...plain, activityPrice: 3000 }, withActivity)).toBe(
      '活动价须低于售价',
    )
    expect(validatePriceEdit({ ...plain, activityEndsAt: 1 }, withActivity)).toBe(
      '没有活动价时不能设置活动结束时间',
    )
  })
})

describe('validateFreeStock', () => {
  it('takes whole counts from 0 to MAX_FREE_STOCK', () => {
    expect(validateFreeStock(0)).toBeNull()
    expect(validateFreeStock(MAX_FREE_STOCK)).toBeNull()
    for (const bad of [-1, 1.5, MAX_FREE_STOCK + 1, Number.NaN]) {
      expect(validateFreeStock(bad)).toMatch('可售库存须为')
    }
  })
})
