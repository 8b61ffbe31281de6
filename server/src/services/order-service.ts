import { randomBytes } from 'node:crypto'
import { and, asc, count, desc, eq, lte, or, sql } from 'drizzle-orm'
import { durationLabel } from '#domain/catalogue'
import {
  OrderStatus,
  PAY_WINDOW_MS,
  orderStatusLabels,
  type OrderStatus as OrderStatusValue,
} from '#domain/order-status'
import { checkExpectedAmount } from '#domain/pricing'
import { ResultCode } from '#domain/result-codes'
import type { Quote, QuoteBody } from '../contract/catalog'
import type {
  CreateBigUserLinkOrderBody,
  CreateCloudOrderBody,
  CreateRenewOrderBody,
  CreateUpOrDownOrderBody,
  CreateVideoOrderBody,
  OrderInfo,
  OrderListQuery,
  PurchaseActivationCodeBody,
} from '../contract/order'
import type { Db } from '../db/client'
import { preparedOn } from '../db/prepared'
import { activationCodes, orders, users } from '../db/schema'
import { BizError } from '../domain/biz-error'
import { normalisePage, toPaged } from '../domain/paging'
import type { ServiceContext } from './context'
import { releaseOrderCoupon, type CouponService } from './coupon-service'
import { againIfRacedByPlacedOrder, placeNewPhonesAtOnce } from './order-at-once'
import { insertOrder, newOrderNo, type OrderRow } from './order-insert'
import { rechargeDraft } from './recharge-packages'
import { releaseSeckillUnit } from './seckill-units'
import { spaceDraft } from './space-packages'
import type { FleetService } from './fleet-service'
import type { GoodsService } from './goods-service'
import {
  draftQuote,
  firstOrderOf,
  OrderPricing,
  unpaidUnitsCapped,
  UNPAID_UNITS_REFUSAL,
  type OrderDraft,
} from './order-pricing'
import { lockPlans, type PlanVersions } from './plan-orders'

export const ORDER_NOT_FOUND = '订单不存在'
/** How old a quote for remaining time may be and still be charged as shown. */
export const QUOTE_GRACE_MS = 10 * 60_000
export const payLinkPath = (token: string) => `/pages/pay/pay?link=${token}`

const p = (name: string) => sql.placeholder(name)
const orderNotFound = () => new BizError(ResultCode.SHOW_ERROR_TIPS, ORDER_NOT_FOUND)
const ms = (date: Date | null) => date?.getTime() ?? null

/** What an order keeps of its draft: the lines shown, and what fulfilment applies. */
const orderDetail = (draft: OrderDraft) => ({
  lines: draft.lines,
  renewals: draft.renewals,
  upgrade: draft.upgrade,
})

/** The order's price after its coupon, with the coupon as a line of its own. */
function withCoupon(draft: OrderDraft, coupon: { discount: number; name: string }): OrderDraft {
  const line = {
    label: `优惠券：${coupon.name}`,
    unitPrice: -coupon.discount,
    quantity: 1,
    amount: -coupon.discount,
  }
  return { ...draft, amount: draft.amount - coupon.discount, lines: [...draft.lines, line] }
}

/** Creating, reading, cancelling and timing out orders; payment and fulfilment live next door. */
export class OrderService {
  readonly pricing: OrderPricing

  constructor(
    private readonly ctx: ServiceContext,
    private readonly goods: GoodsService,
    private readonly fleet: FleetService,
    private readonly coupons: CouponService,
  ) {
    this.pricing = new OrderPricing(ctx, goods, fleet)
  }

  /** /CommodityGroup/getGoodPrice: the same computation as order creation, without creating one. */
  async quote(userId: number | null, body: QuoteBody): Promise<Quote> {
    return draftQuote(await this.draft(userId, body))
  }

  /** The order a quote body describes, priced as creating it would (before any coupon). */
  async draft(userId: number | null, body: QuoteBody): Promise<OrderDraft> {
    const db = this.ctx.db
    const need = <T>(value: T | undefined, field: string): T => {
      if (value === undefined) throw new BizError(ResultCode.SHOW_ERROR_TIPS, `缺少参数 ${field}`)
      return value
    }
    const loggedIn = () => {
      if (userId == null) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
      return userId
    }
    switch (body.kind) {
      case 'new':
        // A company user may be pricing a big-user link order: quote up to its limit.
        return this.pricing.newPhones(
          db,
          userId,
          {
            goodId: need(body.goodId, 'goodId'),
            priceId: need(body.priceId, 'priceId'),
            quantity: body.quantity ?? 1,
          },
          { bigUser: await this.pricing.isCompany(db, userId) },
        )
      case 'activationCode':
        return this.pricing.activationCodes(db, {
          goodId: need(body.goodId, 'goodId'),
          priceId: need(body.priceId, 'priceId'),
          quantity: body.quantity ?? 1,
        })
      case 'renew':
        return this.pricing.renewal(db, loggedIn(), {
          deviceIds: need(body.deviceIds, 'deviceIds'),
          priceId: need(body.priceId, 'priceId'),
          alignToLatest: body.alignToLatest ?? false,
        })
      case 'upgrade':
        return this.pricing.upgrade(db, loggedIn(), {
          deviceId: need(body.deviceIds, 'deviceIds')[0],
          toGoodId: need(body.toGoodId, 'toGoodId'),
        })
      case 'video':
        return this.pricing.video(db, loggedIn(), {
          deviceId: need(body.deviceIds, 'deviceIds')[0],
        })
      case 'recharge': {
        const { detail: _detail, ...draft } = rechargeDraft(need(body.packageId, 'packageId'))
        return draft
      }
      case 'cloudSpace': {
        const { detail: _detail, ...draft } = spaceDraft(need(body.packageId, 'packageId'))
        return draft
      }
    }
  }

  async createCloudOrder(userId: number, body: CreateCloudOrderBody) {
    const placed = body.couponId === undefined ? await this.placeAtOnce(userId, body) : null
    if (placed) return this.info(placed, userId)
    return this.create(userId, body, (tx, pricing) => pricing.newPhones(tx, userId, body))
  }

  /**
   * Most orders are new phones without a coupon: they are tried as one statement (order-at-once.ts),
   * priced for the standing whose amount the buyer was shown (an established buyer's first). Null
   * when that did not place the order; the transaction path then decides, and answers as it always has.
   */
  private async placeAtOnce(userId: number, body: CreateCloudOrderBody): Promise<OrderRow | null> {
    for (const firstOrder of [false, true]) {
      let draft: OrderDraft
      try {
        draft = await this.pricing.forBuyer(userId, firstOrder).newPhones(this.ctx.db, userId, body)
      } catch (error) {
        if (error instanceof BizError) return null
        throw error
      }
      if (draft.amount === 0 || !checkExpectedAmount(body.expectedAmount, draft.amount)) continue
      const now = this.ctx.clock.now()
      const placed = await placeNewPhonesAtOnce(this.ctx.db, {
        orderNo: newOrderNo(now),
        userId,
        businessType: draft.businessType,
        amount: draft.amount,
        originalAmount: draft.originalAmount,
        quantity: draft.quantity,
        goodId: body.goodId,
        priceId: body.priceId,
        goodTime: draft.goodTime!,
        zoneId: body.zoneId,
        payDeadline: new Date(now.getTime() + PAY_WINDOW_MS),
        idempotencyKey: body.idempotencyKey,
        detail: orderDetail(draft),
        createdAt: now,
        firstOrder,
      })
      if (placed) return placed
    }
    return null
  }

  createBigUserLinkOrder(userId: number, body: CreateBigUserLinkOrderBody) {
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
        await this.fleet.applyConfigChange(tx, {
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
          const priced = await this.honourRecentQuote(
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
    return this.info(row, userId)
  }

  /**
   * Upgrades and the video edition charge for the remaining time, so their price falls a little every
   * minute: a quote shown up to QUOTE_GRACE_MS ago (between the price now and the price then) is
   * charged as shown instead of being refused with 1023.
   */
  private async honourRecentQuote(
    draft: OrderDraft,
    expected: number,
    priceEarlier: () => Promise<OrderDraft>,
  ): Promise<OrderDraft> {
    const timePriced = draft.kind === 'upgrade' || draft.kind === 'video'
    if (
      !timePriced ||
      draft.amount === 0 ||
      !Number.isInteger(expected) ||
      expected <= draft.amount
    ) {
      return draft
    }
    const earlier = await priceEarlier()
    if (expected > earlier.amount) return draft
    const lines = draft.lines.map((line) => ({ ...line, unitPrice: expected, amount: expected }))
    return { ...draft, amount: expected, originalAmount: expected, lines }
  }

  /** The order if the caller created it or paid it, else 订单不存在 (never someone else's). */
  async ownOrder(userId: number, orderNo: string, db: Db = this.ctx.db): Promise<OrderRow> {
    const [row] = await db
      .select()
      .from(orders)
      .where(
        and(eq(orders.orderNo, orderNo), or(eq(orders.userId, userId), eq(orders.buyerId, userId))),
      )
    if (!row) throw orderNotFound()
    return row
  }

  async byLink(link: string, db: Db = this.ctx.db): Promise<OrderRow> {
    const [row] = await db.select().from(orders).where(eq(orders.linkToken, link))
    if (!row) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '支付链接无效或已失效')
    return row
  }

  async getOrderInfo(userId: number, query: { orderNo?: string; link?: string }) {
    if (query.link) return this.info(await this.byLink(query.link), userId)
    if (!query.orderNo) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '缺少参数 orderNo')
    return this.info(await this.ownOrder(userId, query.orderNo), userId)
  }

  async list(userId: number, query: OrderListQuery) {
    const { page, rows, offset } = normalisePage(query)
    const where = and(
      or(eq(orders.userId, userId), eq(orders.buyerId, userId)),
      query.status === undefined ? undefined : eq(orders.status, query.status),
    )
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(orders).where(where)
    const found = await this.ctx.db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(rows)
      .offset(offset)
    const records = await Promise.all(found.map((row) => this.info(row, userId)))
    return toPaged(records, page, rows, total)
  }

  async cancel(userId: number, orderNo: string): Promise<OrderInfo> {
    const order = await this.ownOrder(userId, orderNo)
    if (order.userId !== userId) throw orderNotFound()
    const closed = await this.close(order.id, OrderStatus.cancelled)
    if (!closed) {
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '订单已支付或已关闭，不能取消')
    }
    return this.info(closed, userId)
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

  async info(row: OrderRow, viewerId: number, db: Db = this.ctx.db): Promise<OrderInfo> {
    const good = row.goodId ? await this.goods.getGoods(row.goodId, db) : null
    const zone = row.zoneId ? await this.goods.getZone(row.zoneId, db) : null
    const codes =
      row.kind === 'activationCode' && row.status === OrderStatus.completed
        ? await db
            .select({ code: activationCodes.code })
            .from(activationCodes)
            .where(eq(activationCodes.orderId, row.id))
            .orderBy(asc(activationCodes.id))
        : []
    const detail = row.detail as Pick<OrderDraft, 'lines' | 'renewals'>
    return {
      orderNo: row.orderNo,
      kind: row.kind,
      businessType: row.businessType,
      status: row.status,
      statusText: orderStatusLabels[row.status as OrderStatusValue],
      amount: row.amount,
      originalAmount: row.originalAmount,
      quantity: row.quantity,
      goodId: row.goodId,
      goodsName: good?.name ?? null,
      priceId: row.priceId,
      goodTime: row.goodTime,
      durationLabel: row.goodTime ? durationLabel(row.goodTime) : null,
      zoneId: row.zoneId,
      zoneName: zone?.name ?? null,
      deviceIds: row.deviceIds,
      codes: codes.map((c) => c.code),
      payMethod: row.payMethod,
      payDeadline: row.payDeadline.getTime(),
      createdAt: row.createdAt.getTime(),
      paidAt: ms(row.paidAt),
      completedAt: ms(row.completedAt),
      payLink: row.linkToken ? payLinkPath(row.linkToken) : null,
      remark: row.remark,
      lines: detail.lines ?? [],
      renewals: (detail.renewals ?? []).map(({ deviceId, newExpireAt, amount, extraMs }) => ({
        deviceId,
        newExpireAt,
        amount,
        extraMs,
      })),
      isOwner: row.userId === viewerId,
    }
  }

  /** The order, locked for the caller's transaction. */
  async lock(tx: Db, orderId: number): Promise<OrderRow | null> {
    const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
    return row ?? null
  }
}
