import { and, count, desc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import { COUPON_NOT_APPLICABLE } from '#domain/coupon'
import { BusinessType, CouponStatus } from '#domain/enums'
import { DAY_MS } from '#domain/pricing'
import type {
  ApplicableCoupons,
  CouponGoodsInfo,
  CouponListQuery,
  CouponUsage,
} from '../../contract/coupon'
import type { PageQuery } from '../../contract/common'
import type { Db } from '../../db/client'
import { pageOf, pageWithTotal, totalColumn } from '../../db/page-with-total'
import { preparedOn } from '../../db/prepared'
import { couponTemplates, goods, goodsPrices, orders, userCoupons } from '../../db/schema'
import { tip } from '../../domain/biz-error'
import { normalisePage, toPaged } from '../../domain/paging'
import { isFirstRecharge } from '../orders/buyer-standing'
import type { ServiceContext } from '../context'
import {
  checkOnOrder,
  COUPON_LOCKED,
  COUPON_NOT_FOUND,
  holdRefusal,
  shownCoupon,
  view,
} from './coupon-rules'
import type { OrderDraft } from '../orders/order-draft'

/** Frees the coupon an unpaid order held (cancel, timeout): in the caller's transaction. */
export async function releaseOrderCoupon(tx: Db, orderId: number) {
  await tx
    .update(userCoupons)
    .set({ lockedOrderId: null })
    .where(
      and(eq(userCoupons.lockedOrderId, orderId), eq(userCoupons.status, CouponStatus.efficient)),
    )
}

/** The order was paid: its coupon is used (status 2) with the order and the discount it gave. */
export async function spendOrderCoupon(tx: Db, orderId: number, now: Date) {
  await tx
    .update(userCoupons)
    .set({ status: CouponStatus.used, usedAt: now, usedOrderId: orderId, lockedOrderId: null })
    .where(
      and(eq(userCoupons.lockedOrderId, orderId), eq(userCoupons.status, CouponStatus.efficient)),
    )
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

/** Which coupons a list shows: usable now, expired (by status or by date), or one other status. */
type CouponListShape = 'usable' | 'expired' | 'other'

/** A page of the caller's coupons of one shape with their templates and total. */
function couponPage(db: Db, shape: CouponListShape, first: boolean) {
  const now = sql.placeholder('now')
  const byShape: Record<CouponListShape, SQL | undefined> = {
    usable: and(eq(userCoupons.status, CouponStatus.efficient), gt(userCoupons.validUntil, now)),
    expired: or(
      eq(userCoupons.status, CouponStatus.expired),
      and(eq(userCoupons.status, CouponStatus.efficient), lte(userCoupons.validUntil, now)),
    ),
    other: eq(userCoupons.status, sql.placeholder('status')),
  }
  const where = and(eq(userCoupons.userId, sql.placeholder('userId')), byShape[shape])
  const query = db
    .select({ ...shownCoupon, total: totalColumn(db, userCoupons, where) })
    .from(userCoupons)
    .innerJoin(couponTemplates, eq(couponTemplates.id, userCoupons.templateId))
    .where(where)
    .orderBy(
      ...(shape === 'usable'
        ? [userCoupons.validUntil, userCoupons.id]
        : [desc(userCoupons.usedAt), desc(userCoupons.validUntil), desc(userCoupons.id)]),
    )
    .$dynamic()
  return pageOf(query, first)
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
    const status = query.status ?? CouponStatus.efficient
    const shape: CouponListShape =
      status === CouponStatus.efficient
        ? 'usable'
        : status === CouponStatus.expired
          ? 'expired'
          : 'other'
    const now = this.now()
    const found = await pageWithTotal(
      (first) =>
        preparedOn(this.ctx.db, `coupon_list_${shape}${+first}`, (db) =>
          couponPage(db, shape, first),
        ),
      { userId, status, now: now.toISOString() },
      rows,
      offset,
    )
    const at = now.getTime()
    return toPaged(
      found.rows.map((row) => view(row, at)),
      page,
      rows,
      found.total,
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
          eq(userCoupons.status, CouponStatus.efficient),
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
    if (!row) throw tip(COUPON_NOT_FOUND)
    const refusal = holdRefusal(row.coupon, now.getTime())
    if (refusal) throw tip(refusal)
    const checked = checkOnOrder(row.template, draft, await this.goodsInfo(tx, draft, userId))
    if (!checked.usable) throw tip(checked.reason ?? COUPON_NOT_APPLICABLE)
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
              eq(userCoupons.status, CouponStatus.efficient),
              isNull(userCoupons.lockedOrderId),
              gt(userCoupons.validUntil, now),
            ),
          )
          .returning({ id: userCoupons.id })
        if (!locked) throw tip(COUPON_LOCKED)
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
          eq(userCoupons.status, CouponStatus.efficient),
          lte(userCoupons.validUntil, now),
          isNull(userCoupons.lockedOrderId),
        ),
      )
      .returning({ id: userCoupons.id })
    return expired.length
  }
}
