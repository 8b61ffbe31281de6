import { and, eq, sql } from 'drizzle-orm'
import { OrderStatus, PAY_WINDOW_MS } from '#domain/order-status'
import { checkExpectedAmount } from '#domain/pricing'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import { orders, users } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import type { ServiceContext } from '../context'
import type { GoodsService } from '../catalogue/goods-service'
import type { CouponService } from '../coupons/coupon-service'
import type { DeviceLifecycleService } from '../devices/device-lifecycle'
import { firstOrderOf, unpaidUnitsCapped, UNPAID_UNITS_REFUSAL } from './buyer-standing'
import { againIfRacedByPlacedOrder } from './order-at-once'
import type { OrderDraft } from './order-draft'
import { insertOrder, orderDetail, type OrderRow } from './order-insert'
import type { OrderPricing } from './order-pricing'
import { withCoupon } from './order-quote'
import type { OrderRequest } from './order-request'
import type { OrderWriter } from './order-writer'
import { lockPlans, refuseIfPlansMoved, type PlanVersions } from './plan-orders'
import { recordSeckillPurchase } from './seckill-units'

const p = (name: string) => sql.placeholder(name)

/**
 * One transaction per order: the user's row is locked so their orders made this way are decided one
 * at a time (the idempotency key's replay, first-purchase eligibility), and the unique indexes on the
 * key and on live first orders hold against orders placed at once; the amount is the server's own
 * (1023 when the client showed another, 1021 when zero); stock is taken with a conditional update
 * (1017 when gone).
 */
export class OrderTransactionWriter implements OrderWriter {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly pricing: OrderPricing,
    private readonly coupons: CouponService,
    private readonly goods: GoodsService,
    private readonly lifecycle: DeviceLifecycleService,
  ) {}

  write(request: OrderRequest): Promise<OrderRow> {
    return unpaidUnitsCapped(UNPAID_UNITS_REFUSAL, () =>
      againIfRacedByPlacedOrder(() => this.ctx.db.transaction((tx) => this.writeIn(tx, request))),
    )
  }

  private async writeIn(tx: Db, request: OrderRequest): Promise<OrderRow> {
    const { userId, idempotencyKey: key } = request
    await preparedOn(tx, 'order_lock_buyer', (db) =>
      db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.id, p('userId')))
        .for('no key update'),
    ).execute({ userId })
    // After the lock, in a statement of its own: a statement sees what was committed before it began,
    // and the lock may have waited for another order of this buyer's. Whether this key made an order
    // already, and whether this would be the buyer's first order (decided one order at a time).
    const [buyer] = await preparedOn(tx, 'order_buyer_standing', (db) =>
      db
        .select({
          replay: sql<boolean>`exists (${db
            .select({ id: orders.id })
            .from(orders)
            .where(and(eq(orders.userId, p('userId')), eq(orders.idempotencyKey, p('key'))))})`,
          firstOrder: firstOrderOf(db, p('userId')),
        })
        .from(users)
        .where(eq(users.id, p('userId'))),
    ).execute({ userId, key })
    if (buyer?.replay) {
      const [existing] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)))
      return existing
    }
    const firstOrder = buyer?.firstOrder ?? true
    // Before pricing: the plan priced is then the plan the order records (nothing changes it meanwhile).
    const planVersions: PlanVersions | undefined = request.planOf
      ? await lockPlans(tx, request.planOf, userId)
      : undefined
    if (request.planSeen && planVersions) refuseIfPlansMoved(request.planSeen, planVersions)
    const priced = await this.pricing
      .forBuyer(userId, firstOrder)
      .priceOrder(tx, userId, request.item, request.expectedAmount)
    // The coupon is checked against the server's own price; expectedAmount is the price after it.
    const coupon =
      request.couponId === undefined || priced.amount === 0
        ? null
        : await this.coupons.prepare(tx, userId, request.couponId, priced)
    const draft = coupon ? withCoupon(priced, coupon) : priced
    if (!checkExpectedAmount(request.expectedAmount, draft.amount)) {
      throw new BizError(ResultCode.ORDER_PRICE_INCONSISTENT, '订单价格已变化，请刷新后重新下单')
    }
    const free = draft.amount === 0 && request.appliedWhenFree
    if (draft.amount === 0 && !free) throw new BizError(ResultCode.ORDER_AMOUNT_ZERO)
    const now = this.ctx.clock.now()
    const order = await insertOrder(
      tx,
      {
        userId,
        businessType: draft.businessType,
        kind: draft.kind,
        status: OrderStatus.unpaid,
        amount: draft.amount,
        originalAmount: draft.originalAmount,
        quantity: draft.quantity,
        goodId: draft.goodId,
        priceId: draft.priceId,
        goodTime: draft.goodTime,
        zoneId: draft.zoneId,
        reservedGoodId: draft.reserve?.goodId ?? null,
        reservedZoneId: draft.reserve?.zoneId ?? null,
        reservedQuantity: draft.reserve?.quantity ?? 0,
        deviceIds: draft.deviceIds,
        payDeadline: new Date(now.getTime() + PAY_WINDOW_MS),
        idempotencyKey: key,
        linkToken: request.linkToken,
        remark: request.remark,
        detail: { ...request.detail, ...orderDetail(draft), planVersions },
        createdAt: now,
        firstOrder: draft.kind === 'new' && firstOrder,
      },
      now,
    )
    await coupon?.lock(order.id)
    if (request.item.kind === 'seckill') {
      await recordSeckillPurchase(tx, {
        itemId: request.item.itemId,
        userId,
        orderId: order.id,
        createdAt: this.ctx.clock.now(),
      })
    }
    // Stock last: a buyer of this goods in this zone who lands on the same stock slot waits for its
    // row from here until this transaction ends (an out-of-stock refusal rolls the order back with
    // everything else).
    if (draft.reserve) {
      const { goodId, zoneId, quantity } = draft.reserve
      if (!(await this.goods.reserveStock(tx, goodId, zoneId, quantity))) {
        throw new BizError(ResultCode.CLOUD_OUT_OF_STOCK, '所选地区库存不足，请更换地区或减少数量')
      }
    }
    if (!free) return order
    await this.applyFreeChange(tx, order, draft)
    const [done] = await tx.select().from(orders).where(eq(orders.id, order.id))
    return done
  }

  /** A downgrade (or a change at the same rate) costs nothing: the phone changes now, the order completes. */
  private async applyFreeChange(tx: Db, order: OrderRow, draft: OrderDraft) {
    const upgrade = draft.upgrade!
    await this.lifecycle.applyConfigChange(tx, {
      deviceId: draft.deviceIds[0],
      toGoodId: draft.goodId!,
      newExpireAt: upgrade.newExpireAt,
    })
    await this.goods.returnStock(tx, upgrade.fromGoodId, draft.zoneId!, 1)
    const now = this.ctx.clock.now()
    await tx
      .update(orders)
      .set({ status: OrderStatus.completed, reservedQuantity: 0, paidAt: now, completedAt: now })
      .where(eq(orders.id, order.id))
  }
}
