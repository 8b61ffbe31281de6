/**
 * SPEC 5 "Coupon applicability". The client previews it; the server enforces the same function, so
 * the two never disagree. Prices and coupon amounts are in fen.
 */
import { BusinessType, CouponScope, CouponType } from './enums'

export type Id = number | string

export interface CouponRule {
  /** a CouponScope value */
  type: number | string
  /** the objects this scope allows: ids, durations or a percentage (comma list or array) */
  objectData: string | number | readonly Id[]
}

export interface Coupon {
  couponType: number
  /** fen for amount coupons; for a discount coupon the rate in tenths (85 = 8.5折) */
  parValue: number
  /** threshold in fen (full-reduction coupons) */
  conditionsUse?: number | null
  businessType: number
  scopeApplication?: number | string | null
  /** comma list of scopes, used instead of scopeApplication when present */
  scopeApplications?: string | null
  /** objects of the scope when there are no per-scope rules (comma list or array) */
  applicableObjects?: string | readonly Id[] | null
  rules?: readonly CouponRule[] | null
  /** comma list of '1'..'4'; empty means effective */
  effectiveScope?: string | null
  usable?: boolean
}

export interface CouponGoods {
  goodId?: Id | null
  configId?: Id | null
  id?: Id | null
  goodTime?: Id | null
  /** fen */
  goodPrice: number
  oldPrice?: number | null
  oldGoodPrice?: number | null
  firstCount?: number | null
  activityId?: Id | null
  firstPurchase?: boolean | number | null
  /** a bean recharge with no earlier paid recharge of the buyer (first-recharge coupons) */
  firstRecharge?: boolean | null
}

export interface CouponCheck {
  usable: boolean
  reason?: string
}

export const COUPON_NOT_APPLICABLE = '所购买商品不在适用范围内'
export const FIRST_RECHARGE_ONLY = '仅限首次充值使用'
export const couponThresholdMessage = (amountYuan: string) => `距离可用门槛还差${amountYuan}元`

const BUSINESS_TYPES: readonly number[] = Object.values(BusinessType)

const splitList = (value: string | number | readonly Id[] | null | undefined): string[] => {
  if (value == null) return []
  const items = Array.isArray(value) ? value : String(value).split(',')
  return items.map((item) => String(item).trim()).filter((item) => item !== '')
}

const present = (value: unknown) => value != null && value !== '' && value !== 0 && value !== '0'

/** A scope field that is set: not null, not blank, not zero however written (0, '0', ' 0', '00'). */
const isSetScope = (value: string | number | null | undefined): value is string | number =>
  value != null && !/^\s*0*\s*$/.test(String(value))

/**
 * The one parser of a scope list: comma-separated decimal codes, spaces around them allowed. Anything
 * else (an empty item as in ',', '0x2', '2a') is one scope that no rule knows (NaN): the console refuses
 * it as 适用范围无效 and a checkout finds the coupon not applicable.
 */
function parseScopeList(value: string | number): number[] {
  const items = String(value)
    .split(',')
    .map((item) => item.trim())
  return items.every((item) => /^\d+$/.test(item)) ? items.map(Number) : [Number.NaN]
}

/** The scopes a coupon declares: scopeApplications (comma list) wins over scopeApplication. */
export function couponScopes(coupon: Coupon): number[] {
  const { scopeApplications: list, scopeApplication: single } = coupon
  if (isSetScope(list)) return parseScopeList(list)
  return isSetScope(single) ? parseScopeList(single) : []
}

/** Objects allowed for one scope: the rule of that type, else applicableObjects. */
function scopeObjects(coupon: Coupon, scope: number): string[] {
  const rule = coupon.rules?.find((r) => Number(r.type) === scope)
  return splitList(rule ? rule.objectData : coupon.applicableObjects)
}

function matchesScope(coupon: Coupon, scope: number, goods: CouponGoods): boolean {
  const has = (value: Id | null | undefined) =>
    value != null && scopeObjects(coupon, scope).includes(String(value))
  switch (scope) {
    case CouponScope.fullBusiness:
      return true
    case CouponScope.productModel:
      return has(goods.goodId)
    case CouponScope.cloudVersion:
      return has(goods.configId)
    case CouponScope.billableTimeProducts:
      return has(goods.id)
    case CouponScope.productDuration:
      return has(goods.goodTime)
    case CouponScope.discountRatio: {
      // the first positive of the two (an oldPrice of 0 is no price); compared in integers, fen × whole
      // percent: as a float quotient 29/100 × 100 is 28.999999999999996 and missed a 29% coupon
      const old = [goods.oldPrice, goods.oldGoodPrice].find((price) => price != null && price > 0)
      const percentage = Number(scopeObjects(coupon, scope)[0])
      if (!old || !Number.isInteger(percentage)) return false
      return goods.goodPrice * 100 >= percentage * old
    }
    default:
      return false
  }
}

function matchesEffectiveScope(value: string, goods: CouponGoods): boolean {
  const firstCount = Number(goods.firstCount ?? 0)
  switch (value) {
    case '1':
      return true
    case '2':
      return firstCount > 0 && !present(goods.activityId)
    case '3':
      return present(goods.activityId)
    case '4':
      return firstCount === 0 && Boolean(goods.firstPurchase)
    default:
      return false
  }
}

/** No effective scope set means effective; otherwise any listed value that holds makes it effective. */
export function isEffective(coupon: Coupon, goods: CouponGoods): boolean {
  const values = splitList(coupon.effectiveScope)
  return values.length === 0 || values.some((value) => matchesEffectiveScope(value, goods))
}

/** A coupon type checkCoupon knows for the coupon's business type. */
function knownType(coupon: Coupon): boolean {
  const type = Number(coupon.couponType)
  return (
    type === CouponType.fullVolumeReduction ||
    type === CouponType.noThresholdRoll ||
    type === CouponType.discountCoupon ||
    // First-recharge coupons apply only to bean recharges; any other type is unmatched.
    (type === CouponType.firstRechargeCoupon &&
      Number(coupon.businessType) === BusinessType.cloudBeans)
  )
}

const SCOPES: readonly number[] = Object.values(CouponScope)
const EFFECTIVE_SCOPES = ['1', '2', '3', '4']

/**
 * Why a coupon template could never be used as checkCoupon reads it, or null when it can (the console's
 * template form; the same rules the checkout applies, so a template the console saves is one it honours).
 */
export function templateProblem(coupon: Coupon): string | null {
  if (!BUSINESS_TYPES.includes(Number(coupon.businessType))) return '业务类型无效'
  if (!knownType(coupon)) return '首充券只能用于云豆充值'
  const type = Number(coupon.couponType)
  const par = coupon.parValue
  if (type === CouponType.discountCoupon) {
    if (!(Number.isInteger(par) && par >= 1 && par <= 99)) return '折扣须在 0.1 折到 9.9 折之间'
  } else if (!(Number.isInteger(par) && par >= 1)) return '面额须至少 1 分'
  const threshold = Number(coupon.conditionsUse ?? 0)
  if (!Number.isInteger(threshold) || threshold < 0) return '使用门槛无效'
  if (type === CouponType.fullVolumeReduction && threshold <= par) return '满减券的门槛须高于面额'
  const scopes = couponScopes(coupon)
  if (scopes.length === 0 || new Set(scopes).size !== scopes.length) return '请选择适用范围'
  for (const scope of scopes) {
    if (!SCOPES.includes(scope)) return '适用范围无效'
    if (scope === CouponScope.fullBusiness) continue
    const objects = scopeObjects(coupon, scope)
    if (objects.length === 0) return '请填写适用对象'
    if (scope === CouponScope.discountRatio) {
      const percentage = Number(objects[0])
      if (
        objects.length !== 1 ||
        !Number.isInteger(percentage) ||
        percentage < 1 ||
        percentage > 100
      )
        return '折扣比例须是 1–100 的整数'
    } else if (!objects.every((object) => /^\d{1,10}$/.test(object))) return '适用对象须是编号'
  }
  if (!splitList(coupon.effectiveScope).every((value) => EFFECTIVE_SCOPES.includes(value)))
    return '生效范围无效'
  return null
}

/** Whether `coupon` can be used to buy `number` of `goods`, and why not. */
export function checkCoupon(coupon: Coupon, goods: CouponGoods, number: number): CouponCheck {
  const notApplicable: CouponCheck = { usable: false, reason: COUPON_NOT_APPLICABLE }
  if (!BUSINESS_TYPES.includes(Number(coupon.businessType))) return notApplicable

  const type = Number(coupon.couponType)
  const firstRecharge = type === CouponType.firstRechargeCoupon
  if (!knownType(coupon)) return notApplicable

  const scopes = couponScopes(coupon)
  if (scopes.length === 0 || !scopes.every((scope) => matchesScope(coupon, scope, goods))) {
    return notApplicable
  }
  if (!isEffective(coupon, goods)) return notApplicable
  if (firstRecharge && !goods.firstRecharge) return { usable: false, reason: FIRST_RECHARGE_ONLY }

  // A first-recharge coupon takes parValue off once the recharge reaches its threshold.
  if (type === CouponType.fullVolumeReduction || firstRecharge) {
    const total = goods.goodPrice * number
    const threshold = Number(coupon.conditionsUse ?? 0)
    if (total < threshold) {
      return {
        usable: false,
        reason: couponThresholdMessage(((threshold - total) / 100).toFixed(2)),
      }
    }
  }
  return { usable: true }
}

/** Discount in fen the coupon gives on `number` of `goods` (0 when it is not usable). */
export function couponDiscount(coupon: Coupon, goods: CouponGoods, number: number): number {
  if (!checkCoupon(coupon, goods, number).usable) return 0
  const total = goods.goodPrice * number
  const discount =
    Number(coupon.couponType) === CouponType.discountCoupon
      ? Math.round((total * (100 - coupon.parValue)) / 100)
      : coupon.parValue
  return Math.max(0, Math.min(total, discount))
}

/**
 * An amount coupon (满减, 无门槛, 首充) fits an order when the order uses at least this share of its face
 * value; a ¥5 无门槛券 on a ¥1.50 order would throw ¥3.51 of it away (docs/coupons.md "Automatic pick").
 */
export const WELL_FITTING_SHARE = 0.5

/** Whether giving `discount` fen uses enough of the coupon; a discount coupon (折扣券) always fits. */
export function fitsOrder(coupon: Coupon, discount: number): boolean {
  if (Number(coupon.couponType) === CouponType.discountCoupon) return discount > 0
  return discount > 0 && discount >= coupon.parValue * WELL_FITTING_SHARE
}

/**
 * The coupon checkout preselects: of the usable coupons that fit the order (fitsOrder), the one with the
 * largest discount; ties keep the earlier coupon (lists come ending soonest first). None when no coupon
 * fits: the buyer may still choose a poorly fitting one by hand.
 */
export function pickBestCoupon<C extends Coupon>(
  coupons: readonly C[],
  goods: CouponGoods,
  number: number,
): C | null {
  let best: C | null = null
  let bestDiscount = 0
  for (const coupon of coupons) {
    const discount = couponDiscount(coupon, goods, number)
    if (discount > bestDiscount && fitsOrder(coupon, discount)) {
      best = coupon
      bestDiscount = discount
    }
  }
  return best
}
