import { and, asc, eq, lte } from 'drizzle-orm'
import { OrderStatus, type OrderStatus as OrderStatusValue } from '#domain/order-status'
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
import { orders } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { refuseOverUnpaidCap } from './buyer-standing'
import type { ServiceContext } from '../context'
import { releaseOrderCoupon } from '../coupons/coupon-service'
import { orderNotFound, type OrderReads } from './order-reads'
import type { OrderRow } from './order-insert'
import { draftOf } from './order-quote'
import { releaseSeckillUnit } from './seckill-units'
import type { GoodsService } from '../catalogue/goods-service'
import { draftQuote, type OrderDraft } from './order-draft'
import type { OrderPricing } from './order-pricing'
import {
  activationCodeOrder,
  bigUserLinkOrder,
  cloudOrder,
  renewOrder,
  upOrDownOrder,
  videoOrder,
  type OrderRequest,
} from './order-request'
import type { OrderWriter } from './order-writer'

/**
 * Creating, cancelling and timing out orders; reading them is OrderReads', payment and fulfilment live
 * next door. Every order is made one way (place): the body as an OrderRequest (order-request.ts), the
 * buyer's unpaid units, then the writer, which prices it, checks its coupon and writes it.
 */
export class OrderService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly goods: GoodsService,
    private readonly pricing: OrderPricing,
    private readonly writer: OrderWriter,
    private readonly reads: OrderReads,
  ) {}

  /** /CommodityGroup/getGoodPrice: the same computation as order creation, without creating one. */
  async quote(userId: number | null, body: QuoteBody): Promise<Quote> {
    return draftQuote(await this.draft(userId, body))
  }

  /** The order a quote body describes, priced as creating it would (before any coupon). */
  draft(userId: number | null, body: QuoteBody): Promise<OrderDraft> {
    return draftOf(this.pricing, this.ctx.db, userId, body)
  }

  createCloudOrder(userId: number, body: CreateCloudOrderBody) {
    return this.place(cloudOrder(userId, body))
  }

  createBigUserLinkOrder(userId: number, body: CreateBigUserLinkOrderBody) {
    return this.place(bigUserLinkOrder(userId, body))
  }

  createRenewOrder(userId: number, body: CreateRenewOrderBody) {
    return this.place(renewOrder(userId, body))
  }

  /** A downgrade (or a change at the same rate) costs nothing and is applied at once. */
  createUpOrDownOrder(userId: number, body: CreateUpOrDownOrderBody) {
    return this.place(upOrDownOrder(userId, body))
  }

  createVideoOrder(userId: number, body: CreateVideoOrderBody) {
    return this.place(videoOrder(userId, body))
  }

  purchaseActivationCode(userId: number, body: PurchaseActivationCodeBody) {
    return this.place(activationCodeOrder(userId, body))
  }

  /**
   * The order the request asks for: a new-phone order past the buyer's unpaid-units cap is refused
   * before anything is priced (buyer-standing.ts), then the writer prices, checks the coupon and writes.
   */
  async place(request: OrderRequest): Promise<OrderInfo> {
    const { userId } = request
    if (request.capUnits !== null) {
      await refuseOverUnpaidCap(this.ctx.db, userId, request.capUnits, request.idempotencyKey)
    }
    return this.reads.info(await this.writer.write(request), userId, this.ctx.db)
  }

  async cancel(userId: number, orderNo: string): Promise<OrderInfo> {
    const order = await this.reads.ownOrder(userId, orderNo, this.ctx.db)
    if (order.userId !== userId) throw orderNotFound()
    const closed = await this.close(order.id, OrderStatus.cancelled)
    if (!closed) {
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '订单已支付或已关闭，不能取消')
    }
    return this.reads.info(closed, userId, this.ctx.db)
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
