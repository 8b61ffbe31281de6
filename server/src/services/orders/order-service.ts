import { randomBytes } from 'node:crypto'
import { and, asc, eq, lte, sql } from 'drizzle-orm'
import {
  OrderStatus,
  PAY_WINDOW_MS,
  type OrderStatus as OrderStatusValue,
} from '#domain/order-status'
import { checkExpectedAmount } from '#domain/pricing'
import { ResultCode } from '#domain/result-codes'
import type { Quote, QuoteBody } from '../../contract/goods'
import type {
  CreateBigUserLinkOrderBody,
  CreateCloudOrderBody,
  CreateRenewOrderBody,
  CreateUpOrDownOrderBody,
  CreateVideoOrderBody,
  OrderInfo,
  PurchaseActivationCodeBody,
} from '../../contract/order'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import { orders, users } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import {
  firstOrderOf,
  refuseOverUnpaidCap,
  unpaidUnitsCapped,
  UNPAID_UNITS_REFUSAL,
} from './buyer-standing'
import type { ServiceContext } from '../context'
import { releaseOrderCoupon, type CouponService } from '../coupons/coupon-service'
import { orderNotFound, OrderReads } from './order-reads'
import { againIfRacedByPlacedOrder, placeAtOnce } from './order-at-once'
import { insertOrder, orderDetail, type OrderRow } from './order-insert'
import { draftOf, honourRecentQuote, QUOTE_GRACE_MS, withCoupon } from './order-quote'
import { releaseSeckillUnit } from './seckill-units'
import type { DeviceLifecycleService } from '../devices/device-lifecycle'
import type { GoodsService } from '../catalogue/goods-service'
import { draftQuote, type OrderDraft } from './order-draft'
import { OrderPricing } from './order-pricing'
import { lockPlans, type PlanVersions } from './plan-orders'

const p = (name: string) => sql.placeholder(name)

/** Creating, reading, cancelling and timing out orders; payment and fulfilment live next door. */
export class OrderService extends OrderReads {
  readonly pricing: OrderPricing

  constructor(
    ctx: ServiceContext,
    goods: GoodsService,
    private readonly lifecycle: DeviceLifecycleService,
    private readonly coupons: CouponService,
  ) {
    super(ctx, goods)
    this.pricing = new OrderPricing(ctx, goods, lifecycle)
  }

  /** /CommodityGroup/getGoodPrice: the same computation as order creation, without creating one. */
  async quote(userId: number | null, body: QuoteBody): Promise<Quote> {
    return draftQuote(await this.draft(userId, body))
  }

  /** The order a quote body describes, priced as creating it would (before any coupon). */
  draft(userId: number | null, body: QuoteBody): Promise<OrderDraft> {
    return draftOf(this.pricing, this.ctx.db, userId, body)
  }

  async createCloudOrder(userId: number, body: CreateCloudOrderBody) {
    await refuseOverUnpaidCap(this.ctx.db, userId, body.quantity, body.idempotencyKey)
    const placed =
      body.couponId === undefined ? await placeAtOnce(this.ctx, this.pricing, userId, body) : null
    if (placed) return this.info(placed, userId, this.ctx.db)
    return this.create(userId, body, (tx, pricing) => pricing.newPhones(tx, userId, body))
  }

  async createBigUserLinkOrder(userId: number, body: CreateBigUserLinkOrderBody) {
    await refuseOverUnpaidCap(this.ctx.db, userId, body.quantity, body.idempotencyKey)
    return this.create(
      userId,
      body,
      async (tx, pricing) => {
        if (!(await pricing.isCompany(tx, userId))) {
          throw new BizError(
            ResultCode.SHOW_ERROR_TIPS,
            '大客户采购仅对企业用户开放，请先完成企业认证',
          )
        }
        return pricing.newPhones(tx, userId, body, { bigUser: true })
      },
      { linkToken: randomBytes(18).toString('base64url'), remark: body.remark ?? null },
    )
  }

  createRenewOrder(userId: number, body: CreateRenewOrderBody) {
    return this.create(
      userId,
      body,
      (tx) =>
        this.pricing.renewal(tx, userId, {
          deviceIds: body.deviceIds,
          priceId: body.priceId,
          alignToLatest: body.alignToLatest ?? false,
        }),
      { planOf: body.deviceIds },
    )
  }

  /** A downgrade (or a change at the same rate) costs nothing and is applied at once. */
  createUpOrDownOrder(userId: number, body: CreateUpOrDownOrderBody) {
    return this.create(userId, body, (tx, pricing) => pricing.upgrade(tx, userId, body), {
      planOf: [body.deviceId],
      applyFree: async (tx, order, draft) => {
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
          .set({
            status: OrderStatus.completed,
            reservedQuantity: 0,
            paidAt: now,
            completedAt: now,
          })
          .where(eq(orders.id, order.id))
      },
    })
  }

  createVideoOrder(userId: number, body: CreateVideoOrderBody) {
    return this.create(userId, body, (tx, pricing) => pricing.video(tx, userId, body), {
      planOf: [body.deviceId],
    })
  }

  purchaseActivationCode(userId: number, body: PurchaseActivationCodeBody) {
    return this.create(userId, body, (tx) => this.pricing.activationCodes(tx, body))
  }

  /**
   * One transaction per order: the user's row is locked so their orders made this way are decided one
   * at a time (the idempotency key's replay, first-purchase eligibility), and the unique indexes on the
   * key and on live first orders hold against orders placed at once; the amount is the server's own
   * (1023 when the client showed another, 1021 when zero); stock is taken with a conditional update
   * (1017 when gone).
   */
  async create(
    userId: number,
    request: { expectedAmount: number; idempotencyKey: string; couponId?: number },
    price: (tx: Db, pricing: OrderPricing) => Promise<OrderDraft>,
    options: {
      linkToken?: string
      remark?: string | null
      /** Kept in the order's detail for fulfilment (e.g. the beans a recharge package credits). */
      detail?: Record<string, unknown>
      applyFree?: (tx: Db, order: OrderRow, draft: OrderDraft) => Promise<void>
      /** Runs in the order's transaction once the row exists (e.g. the seckill purchase row). */
      onCreated?: (tx: Db, order: OrderRow) => Promise<void>
      /**
       * The caller's phones whose plan the order is priced against: locked before pricing, their plan
       * versions kept in the order for delivery (plan-orders.ts).
       */
      planOf?: number[]
    } = {},
  ): Promise<OrderInfo> {
    const row = await unpaidUnitsCapped(UNPAID_UNITS_REFUSAL, () =>
      againIfRacedByPlacedOrder(() =>
        this.ctx.db.transaction(async (tx) => {
          const key = request.idempotencyKey
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
                  .where(
                    and(eq(orders.userId, p('userId')), eq(orders.idempotencyKey, p('key'))),
                  )})`,
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
          const planVersions: PlanVersions | undefined = options.planOf
            ? await lockPlans(tx, options.planOf, userId)
            : undefined
          const pricing = this.pricing.forBuyer(userId, firstOrder)
          const priced = await honourRecentQuote(
            await price(tx, pricing),
            request.expectedAmount,
            () => price(tx, pricing.at(this.ctx.clock.now().getTime() - QUOTE_GRACE_MS)),
          )
          // The coupon is checked against the server's own price; expectedAmount is the price after it.
          const coupon =
            request.couponId === undefined || priced.amount === 0
              ? null
              : await this.coupons.prepare(tx, userId, request.couponId, priced)
          const draft = coupon ? withCoupon(priced, coupon) : priced
          if (!checkExpectedAmount(request.expectedAmount, draft.amount)) {
            throw new BizError(
              ResultCode.ORDER_PRICE_INCONSISTENT,
              '订单价格已变化，请刷新后重新下单',
            )
          }
          const free = draft.amount === 0 && options.applyFree !== undefined
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
              idempotencyKey: request.idempotencyKey,
              linkToken: options.linkToken ?? null,
              remark: options.remark ?? null,
              detail: { ...options.detail, ...orderDetail(draft), planVersions },
              createdAt: now,
              firstOrder: draft.kind === 'new' && firstOrder,
            },
            now,
          )
          await coupon?.lock(order.id)
          await options.onCreated?.(tx, order)
          // Stock last: a buyer of this goods in this zone who lands on the same stock slot waits for its
          // row from here until this transaction ends (an out-of-stock refusal rolls the order back with
          // everything else).
          if (draft.reserve) {
            const { goodId, zoneId, quantity } = draft.reserve
            if (!(await this.goods.reserveStock(tx, goodId, zoneId, quantity))) {
              throw new BizError(
                ResultCode.CLOUD_OUT_OF_STOCK,
                '所选地区库存不足，请更换地区或减少数量',
              )
            }
          }
          if (free) {
            await options.applyFree!(tx, order, draft)
            const [done] = await tx.select().from(orders).where(eq(orders.id, order.id))
            return done
          }
          return order
        }),
      ),
    )
    return this.info(row, userId, this.ctx.db)
  }

  async cancel(userId: number, orderNo: string): Promise<OrderInfo> {
    const order = await this.ownOrder(userId, orderNo, this.ctx.db)
    if (order.userId !== userId) throw orderNotFound()
    const closed = await this.close(order.id, OrderStatus.cancelled)
    if (!closed) {
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '订单已支付或已关闭，不能取消')
    }
    return this.info(closed, userId, this.ctx.db)
  }

  /**
   * Unpaid → cancelled or timed out, and the reserved stock back. The status change is conditional, so
   * of a cancel and a timeout racing only one closes the order and the stock returns exactly once.
   */
  async close(orderId: number, status: OrderStatusValue): Promise<OrderRow | null> {
    return this.ctx.db.transaction(async (tx) => {
      const [closed] = await tx
        .update(orders)
        .set({ status, closedAt: this.ctx.clock.now() })
        .where(and(eq(orders.id, orderId), eq(orders.status, OrderStatus.unpaid)))
        .returning()
      if (!closed) return null
      await releaseOrderCoupon(tx, orderId)
      await releaseSeckillUnit(tx, orderId)
      if (closed.reservedGoodId && closed.reservedZoneId && closed.reservedQuantity > 0) {
        await this.goods.returnStock(
          tx,
          closed.reservedGoodId,
          closed.reservedZoneId,
          closed.reservedQuantity,
        )
        await tx.update(orders).set({ reservedQuantity: 0 }).where(eq(orders.id, orderId))
      }
      return { ...closed, reservedQuantity: 0 }
    })
  }

  /** Unpaid orders past their deadline, oldest first (the timeout job closes them). */
  async overdue(now: Date, limit = 500): Promise<number[]> {
    const rows = await this.ctx.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.status, OrderStatus.unpaid), lte(orders.payDeadline, now)))
      .orderBy(asc(orders.payDeadline))
      .limit(limit)
    return rows.map((row) => row.id)
  }
}
