import { and, count, desc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import {
  COUPON_NOT_APPLICABLE,
  checkCoupon,
  couponDiscount,
  type Coupon,
  type CouponCheck,
} from '#domain/coupon'
import { BusinessType } from '#domain/enums'
import { OrderStatus } from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import type {
  ApplicableCoupons,
  CouponGoodsInfo,
  CouponListQuery,
  CouponUsage,
  UserCoupon,
} from '../contract/coupon'
import type { PageQuery } from '../contract/common'
import type { Db } from '../db/client'
import { couponTemplates, goods, goodsPrices, orders, userCoupons, users } from '../db/schema'
import { BizError } from '../domain/biz-error'
import { normalisePage, toPaged } from '../domain/paging'
import type { ServiceContext } from './context'
import type { OrderDraft } from './order-pricing'

export const CouponStatus = { usable: 1, used: 2, expired: 3, invalid: 4 } as const
const DAY_MS = 86_400_000
/** New-arrival and expiring-soon markers: issued, or ending, within this window. */
export const COUPON_MARKER_MS = 3 * DAY_MS

export const COUPON_NOT_FOUND = '优惠券不存在'
export const COUPON_USED = '优惠券已使用'
export const COUPON_EXPIRED = '优惠券已过期'
export const COUPON_INVALID = '优惠券已失效'
export const COUPON_NOT_STARTED = '优惠券尚未生效'
export const COUPON_LOCKED = '优惠券已被其他待支付订单占用，请取消该订单后再用'

type TemplateRow = typeof couponTemplates.$inferSelect
type CouponRow = typeof userCoupons.$inferSelect
type Joined = { coupon: CouponRow; template: TemplateRow }

const refuse = (msg: string) => new BizError(ResultCode.SHOW_ERROR_TIPS, msg)

/** The template's rule fields in the shape src/domain/coupon.ts checks (and the pages show). */
const ruleFields = (template: TemplateRow) => ({
  couponType: template.couponType,
  parValue: template.parValue,
  conditionsUse: template.conditionsUse,
  businessType: template.businessType,
  scopeApplications: template.scopeApplications,
  applicableObjects: template.applicableObjects,
  rules: template.rules,
  effectiveScope: template.effectiveScope,
})
const asDomainCoupon = (template: TemplateRow): Coupon => ruleFields(template)

/** A usable coupon whose end has passed reads as expired even before the expiry job flips it. */
const statusAt = (coupon: CouponRow, now: number) =>
  coupon.status === CouponStatus.usable && coupon.validUntil.getTime() <= now
    ? CouponStatus.expired
    : coupon.status

function view({ coupon, template }: Joined, now: number): UserCoupon {
  const status = statusAt(coupon, now)
  return {
    id: coupon.id,
    name: template.name,
    ...ruleFields(template),
    status,
    validFrom: coupon.validFrom.getTime(),
    validUntil: coupon.validUntil.getTime(),
    issuedAt: coupon.issuedAt.getTime(),
    usedAt: coupon.usedAt?.getTime() ?? null,
    locked: coupon.lockedOrderId != null,
    newArrival: now - coupon.issuedAt.getTime() < COUPON_MARKER_MS,
    expiringSoon:
      status === CouponStatus.usable && coupon.validUntil.getTime() - now < COUPON_MARKER_MS,
  }
}

/**
 * The coupon rules on a priced order: the shared checkCoupon, and the order's business type must be
 * the coupon's (a first-recharge coupon, business type 3, applies only to bean recharges). The discount leaves
 * at least 1 fen to pay, since a zero-amount order cannot be paid.
 */
export function checkOnOrder(
  template: TemplateRow,
  draft: Pick<OrderDraft, 'businessType'>,
  info: CouponGoodsInfo,
): CouponCheck & { discount: number } {
  if (template.businessType !== draft.businessType) {
    return { usable: false, reason: COUPON_NOT_APPLICABLE, discount: 0 }
  }
  const coupon = asDomainCoupon(template)
  const check = checkCoupon(coupon, info, 1)
  if (!check.usable) return { ...check, discount: 0 }
  const discount = Math.min(couponDiscount(coupon, info, 1), Math.max(0, info.goodPrice - 1))
  return { usable: true, discount }
}

/** Why a held coupon cannot be put on a new order now, or null. */
function holdRefusal(coupon: CouponRow, now: number): string | null {
  if (coupon.status === CouponStatus.used) return COUPON_USED
  if (coupon.status === CouponStatus.invalid) return COUPON_INVALID
  if (statusAt(coupon, now) === CouponStatus.expired) return COUPON_EXPIRED
  if (coupon.validFrom.getTime() > now) return COUPON_NOT_STARTED
  if (coupon.lockedOrderId != null) return COUPON_LOCKED
  return null
}

/** Frees the coupon an unpaid order held (cancel, timeout): in the caller's transaction. */
export async function releaseOrderCoupon(tx: Db, orderId: number) {
  await tx
    .update(userCoupons)
    .set({ lockedOrderId: null })
    .where(and(eq(userCoupons.lockedOrderId, orderId), eq(userCoupons.status, CouponStatus.usable)))
}

/** The order was paid: its coupon is used (status 2) with the order and the discount it gave. */
export async function spendOrderCoupon(tx: Db, orderId: number, now: Date) {
  await tx
    .update(userCoupons)
    .set({ status: CouponStatus.used, usedAt: now, usedOrderId: orderId, lockedOrderId: null })
    .where(and(eq(userCoupons.lockedOrderId, orderId), eq(userCoupons.status, CouponStatus.usable)))
}

/**
 * Whether the user's next bean recharge is a first recharge (what a 首充券 needs): no paid recharge of
 * theirs, and the person behind the account did not recharge on an earlier one (services/benefits.ts).
 */
export async function isFirstRecharge(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({
      usedBefore: users.firstRechargeUsed,
      paid: sql<boolean>`exists (${db
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.userId, userId),
            eq(orders.businessType, BusinessType.cloudBeans),
            inArray(orders.status, [OrderStatus.paid, OrderStatus.completed, OrderStatus.refunded]),
          ),
        )})`,
    })
    .from(users)
    .where(eq(users.id, userId))
  return !!row && !row.usedBefore && !row.paid
}

/** The 新人券 set (templates issued on 'welcome'), in the registration transaction. */
export async function issueWelcomeCoupons(tx: Db, userId: number, now: Date): Promise<number> {
  const templates = await tx
    .select()
    .from(couponTemplates)
    .where(eq(couponTemplates.issueOn, 'welcome'))
  if (templates.length === 0) return 0
  await tx.insert(userCoupons).values(
    templates.map((template) => ({
      userId,
      templateId: template.id,
      validFrom: now,
      validUntil: new Date(now.getTime() + template.validDays * DAY_MS),
      issuedAt: now,
    })),
  )
  return templates.length
}

/** Coupon templates, the coupons users hold, and their part in orders (docs/coupons.md). */
export class CouponService {
  constructor(private readonly ctx: ServiceContext) {}

  private now() {
    return this.ctx.clock.now()
  }

  private joined(db: Db) {
    return db
      .select({ coupon: userCoupons, template: couponTemplates })
      .from(userCoupons)
      .innerJoin(couponTemplates, eq(couponTemplates.id, userCoupons.templateId))
  }

  /** Paged by status; usable ones ending soonest first, the others newest first. */
  async list(userId: number, query: CouponListQuery) {
    const { page, rows, offset } = normalisePage(query)
    const status = query.status ?? CouponStatus.usable
    const now = this.now()
    const usableNow = and(
      eq(userCoupons.status, CouponStatus.usable),
      gt(userCoupons.validUntil, now),
    )
    const byStatus: Record<number, SQL | undefined> = {
      [CouponStatus.usable]: usableNow,
      [CouponStatus.expired]: or(
        eq(userCoupons.status, CouponStatus.expired),
        and(eq(userCoupons.status, CouponStatus.usable), lte(userCoupons.validUntil, now)),
      ),
    }
    const where = and(
      eq(userCoupons.userId, userId),
      byStatus[status] ?? eq(userCoupons.status, status),
    )
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(userCoupons).where(where)
    const found = await this.joined(this.ctx.db)
      .where(where)
      .orderBy(
        ...(status === CouponStatus.usable
          ? [userCoupons.validUntil, userCoupons.id]
          : [desc(userCoupons.usedAt), desc(userCoupons.validUntil), desc(userCoupons.id)]),
      )
      .limit(rows)
      .offset(offset)
    const at = now.getTime()
    return toPaged(
      found.map((row) => view(row, at)),
      page,
      rows,
      total,
    )
  }

  /** Used coupons with the order each went on and what it took off, newest first. */
  async usage(userId: number, query: PageQuery) {
    const { page, rows, offset } = normalisePage(query)
    const where = and(eq(userCoupons.userId, userId), eq(userCoupons.status, CouponStatus.used))
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(userCoupons).where(where)
    const found = await this.ctx.db
      .select({ coupon: userCoupons, template: couponTemplates, orderNo: orders.orderNo })
      .from(userCoupons)
      .innerJoin(couponTemplates, eq(couponTemplates.id, userCoupons.templateId))
      .leftJoin(orders, eq(orders.id, userCoupons.usedOrderId))
      .where(where)
      .orderBy(desc(userCoupons.usedAt), desc(userCoupons.id))
      .limit(rows)
      .offset(offset)
    const records: CouponUsage[] = found.map(({ coupon, template, orderNo }) => ({
      id: coupon.id,
      name: template.name,
      couponType: template.couponType,
      parValue: template.parValue,
      orderNo,
      discount: coupon.discount ?? 0,
      usedAt: (coupon.usedAt ?? coupon.issuedAt).getTime(),
    }))
    return toPaged(records, page, rows, total)
  }

  /** The priced purchase as the coupon rules see it (one unit at the order's total). */
  async goodsInfo(db: Db, draft: OrderDraft, userId: number): Promise<CouponGoodsInfo> {
    const [good] = draft.goodId
      ? await db.select({ level: goods.level }).from(goods).where(eq(goods.id, draft.goodId))
      : []
    const [price] = draft.priceId
      ? await db.select().from(goodsPrices).where(eq(goodsPrices.id, draft.priceId))
      : []
    const activityRunning =
      price?.activityId != null &&
      (price.activityEndsAt == null || price.activityEndsAt.getTime() > this.now().getTime())
    return {
      goodId: draft.goodId,
      configId: good?.level ?? null,
      id: draft.priceId,
      goodTime: draft.goodTime,
      goodPrice: draft.amount,
      oldPrice: draft.originalAmount || null,
      firstCount: price?.firstCount ?? null,
      activityId: activityRunning ? price!.activityId : null,
      // No seeded coupon is limited to first purchases (effective scope 4).
      firstPurchase: false,
      firstRecharge:
        draft.businessType === BusinessType.cloudBeans && (await isFirstRecharge(db, userId)),
    }
  }

  /** Every usable coupon of the user against this purchase: usable or why not, and its discount. */
  async applicable(userId: number, draft: OrderDraft): Promise<ApplicableCoupons> {
    const now = this.now()
    const info = await this.goodsInfo(this.ctx.db, draft, userId)
    const held = await this.joined(this.ctx.db)
      .where(
        and(
          eq(userCoupons.userId, userId),
          eq(userCoupons.status, CouponStatus.usable),
          gt(userCoupons.validUntil, now),
          lte(userCoupons.validFrom, now),
        ),
      )
      .orderBy(userCoupons.validUntil, userCoupons.id)
    const coupons = held.map((row) => {
      const checked = checkOnOrder(row.template, draft, info)
      const locked = row.coupon.lockedOrderId != null
      return {
        ...view(row, now.getTime()),
        usable: checked.usable && !locked,
        reason: locked ? COUPON_LOCKED : (checked.reason ?? null),
        discount: locked ? 0 : checked.discount,
      }
    })
    return {
      total: draft.amount,
      businessType: draft.businessType,
      goods: info,
      number: 1,
      coupons,
    }
  }

  /**
   * Checks the caller's coupon against the priced order (a clear message for every refusal) and
   * returns its discount and a `lock` for the order once inserted: a conditional update, so of two
   * orders racing for one coupon exactly one gets it and the other's transaction is refused.
   */
  async prepare(tx: Db, userId: number, couponId: number, draft: OrderDraft) {
    const now = this.now()
    const [row] = await this.joined(tx).where(
      and(eq(userCoupons.id, couponId), eq(userCoupons.userId, userId)),
    )
    if (!row) throw refuse(COUPON_NOT_FOUND)
    const refusal = holdRefusal(row.coupon, now.getTime())
    if (refusal) throw refuse(refusal)
    const checked = checkOnOrder(row.template, draft, await this.goodsInfo(tx, draft, userId))
    if (!checked.usable) throw refuse(checked.reason ?? COUPON_NOT_APPLICABLE)
    return {
      discount: checked.discount,
      name: row.template.name,
      lock: async (orderId: number) => {
        const [locked] = await tx
          .update(userCoupons)
          .set({ lockedOrderId: orderId, discount: checked.discount })
          .where(
            and(
              eq(userCoupons.id, couponId),
              eq(userCoupons.status, CouponStatus.usable),
              isNull(userCoupons.lockedOrderId),
              gt(userCoupons.validUntil, now),
            ),
          )
          .returning({ id: userCoupons.id })
        if (!locked) throw refuse(COUPON_LOCKED)
      },
    }
  }

  /** The expiry job: usable coupons past their end and not held by an order become expired (3). */
  async expire(now: Date): Promise<number> {
    const expired = await this.ctx.db
      .update(userCoupons)
      .set({ status: CouponStatus.expired })
      .where(
        and(
          eq(userCoupons.status, CouponStatus.usable),
          lte(userCoupons.validUntil, now),
          isNull(userCoupons.lockedOrderId),
        ),
      )
      .returning({ id: userCoupons.id })
    return expired.length
  }
}
