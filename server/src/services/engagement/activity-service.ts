import { and, asc, eq, gt, gte, lt, sql } from 'drizzle-orm'
import { durationLabel } from '#domain/catalogue'
import { BusinessType } from '#domain/enums'
import { ResultCode } from '#domain/result-codes'
import type {
  ActivityDetail,
  ActivitySummary,
  CreateSeckillOrderBody,
  SeckillItem,
} from '../../contract/activity'
import type { OrderInfo } from '../../contract/order'
import type { Db } from '../../db/client'
import {
  activities,
  goods,
  goodsInventory,
  goodsPrices,
  orders,
  seckillItems,
  seckillPurchases,
  zones,
} from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import type { ServiceContext } from '../context'
import type { GoodsService } from '../catalogue/goods-service'
import { emptyDraft, type OrderDraft } from '../orders/order-draft'
import type { OrderService } from '../orders/order-service'

type ActivityRow = typeof activities.$inferSelect

export const ACTIVITY_NOT_FOUND = '活动不存在或已下线'
export const SECKILL_MESSAGES = {
  itemNotFound: '抢购商品不存在',
  notStarted: '活动尚未开始，请稍后再来',
  ended: '活动已结束',
  soldOut: '已抢光',
  limit: '每人限购1件',
  noZone: '该商品各地区均已售罄，暂时无法抢购',
} as const

const isUniqueViolation = (error: unknown, constraint: string): boolean => {
  for (let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined; e;) {
    if (e.code === '23505' && e.constraint === constraint) return true
    e = e.cause as typeof e
  }
  return false
}

function summary(row: ActivityRow, now: number): ActivitySummary {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    banner: row.banner,
    kind: row.kind,
    startsAt: row.startsAt.getTime(),
    endsAt: row.endsAt.getTime(),
    running: row.startsAt.getTime() <= now && now < row.endsAt.getTime(),
  }
}

/** Activity pages (webView/activity) and the seckill flash sale (docs/cloud-phones.md). */
export class ActivityService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly goods: GoodsService,
    private readonly orders: OrderService,
  ) {}

  private now() {
    return this.ctx.clock.now()
  }

  /** Enabled activities that have not ended: the running ones first, then the upcoming ones. */
  async list(): Promise<ActivitySummary[]> {
    const now = this.now()
    const rows = await this.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.enabled, 1), gt(activities.endsAt, now)))
      .orderBy(asc(activities.startsAt), asc(activities.sort), asc(activities.id))
    const all = rows.map((row) => summary(row, now.getTime()))
    return [...all.filter((a) => a.running), ...all.filter((a) => !a.running)]
  }

  /** One enabled activity (an ended one too, so an old link explains itself); disabled → not found. */
  async detail(id: number, userId: number | null): Promise<ActivityDetail> {
    const db = this.ctx.db
    const [row] = await db
      .select()
      .from(activities)
      .where(and(eq(activities.id, id), eq(activities.enabled, 1)))
    if (!row) throw tip(ACTIVITY_NOT_FOUND)
    const now = this.now()
    const items = await db
      .select({ item: seckillItems, price: goodsPrices, good: goods })
      .from(seckillItems)
      .innerJoin(goodsPrices, eq(goodsPrices.id, seckillItems.priceId))
      .innerJoin(goods, eq(goods.id, goodsPrices.goodId))
      .where(eq(seckillItems.activityId, id))
      .orderBy(asc(seckillItems.sort), asc(seckillItems.id))
    const mine =
      userId == null
        ? []
        : await db
            .select({
              itemId: seckillPurchases.itemId,
              orderNo: orders.orderNo,
              status: orders.status,
            })
            .from(seckillPurchases)
            .innerJoin(orders, eq(orders.id, seckillPurchases.orderId))
            .innerJoin(seckillItems, eq(seckillItems.id, seckillPurchases.itemId))
            .where(and(eq(seckillPurchases.userId, userId), eq(seckillItems.activityId, id)))
    const byItem = new Map(mine.map((m) => [m.itemId, m]))
    return {
      ...summary(row, now.getTime()),
      rules: row.rules,
      serverTime: now.getTime(),
      items: items.map(({ item, price, good }): SeckillItem => {
        const own = byItem.get(item.id)
        return {
          itemId: item.id,
          goodId: good.id,
          priceId: price.id,
          goodsName: good.name,
          configName: good.configName,
          goodTime: price.goodTime,
          durationLabel: durationLabel(price.goodTime),
          price: item.price,
          originalPrice: Math.max(price.goodPrice, price.oldGoodPrice ?? 0),
          stock: item.stock,
          left: item.stock - item.sold,
          perUserLimit: item.perUserLimit,
          bought: own !== undefined,
          orderNo: own?.orderNo ?? null,
          orderStatus: own?.status ?? null,
        }
      }),
    }
  }

  /**
   * A one-phone 'new' order at the seckill price, through OrderService.create (user row locked,
   * idempotency key, zone stock reserved, pay deadline). In that transaction: the activity must run,
   * the buyer must not hold a unit yet, and `sold` moves by a conditional update, so concurrent
   * buyers never take more than `stock`; any refusal rolls everything back.
   */
  async createSeckillOrder(userId: number, body: CreateSeckillOrderBody): Promise<OrderInfo> {
    const itemId = body.itemId
    try {
      return await this.orders.create(userId, body, (tx) => this.takeUnit(tx, userId, body), {
        onCreated: async (tx, order) => {
          await tx
            .insert(seckillPurchases)
            .values({ itemId, userId, orderId: order.id, createdAt: this.now() })
        },
      })
    } catch (error) {
      // Backstop: the user row lock already serialises one buyer's attempts.
      if (isUniqueViolation(error, 'seckill_purchases_item_user_key')) {
        throw tip(SECKILL_MESSAGES.limit)
      }
      throw error
    }
  }

  private async takeUnit(tx: Db, userId: number, body: CreateSeckillOrderBody) {
    const [found] = await tx
      .select({ item: seckillItems, activity: activities, price: goodsPrices, good: goods })
      .from(seckillItems)
      .innerJoin(activities, eq(activities.id, seckillItems.activityId))
      .innerJoin(goodsPrices, eq(goodsPrices.id, seckillItems.priceId))
      .innerJoin(goods, eq(goods.id, goodsPrices.goodId))
      .where(eq(seckillItems.id, body.itemId))
    if (!found) throw tip(SECKILL_MESSAGES.itemNotFound)
    const { item, activity, price, good } = found
    const now = this.now()
    if (activity.enabled !== 1 || activity.kind !== 'seckill') throw tip(ACTIVITY_NOT_FOUND)
    if (now < activity.startsAt) throw tip(SECKILL_MESSAGES.notStarted)
    if (now >= activity.endsAt) throw tip(SECKILL_MESSAGES.ended)
    const [held] = await tx
      .select({ id: seckillPurchases.id })
      .from(seckillPurchases)
      .where(and(eq(seckillPurchases.itemId, item.id), eq(seckillPurchases.userId, userId)))
    if (held) throw tip(SECKILL_MESSAGES.limit)
    const zoneId = body.zoneId ?? (await this.firstZoneWithStock(tx, good.id))
    if (body.zoneId !== undefined && !(await this.goods.getZoneOnSale(body.zoneId, tx))) {
      throw tip('所选地区不存在')
    }
    const taken = await tx
      .update(seckillItems)
      .set({ sold: sql`${seckillItems.sold} + 1` })
      .where(and(eq(seckillItems.id, item.id), lt(seckillItems.sold, seckillItems.stock)))
      .returning({ id: seckillItems.id })
    if (taken.length === 0) throw tip(SECKILL_MESSAGES.soldOut)
    const originalPrice = Math.max(price.goodPrice, price.oldGoodPrice ?? 0)
    const label = `限时秒杀 ${good.name} ${durationLabel(price.goodTime)}`
    const draft: OrderDraft = {
      ...emptyDraft('new', BusinessType.cloudMachine),
      amount: item.price,
      originalAmount: originalPrice,
      quantity: 1,
      goodId: good.id,
      priceId: price.id,
      goodTime: price.goodTime,
      zoneId,
      lines: [{ label, unitPrice: item.price, quantity: 1, amount: item.price }],
      reserve: { goodId: good.id, zoneId, quantity: 1 },
    }
    return draft
  }

  private async firstZoneWithStock(tx: Db, goodId: number): Promise<number> {
    const [row] = await tx
      .select({ zoneId: goodsInventory.zoneId })
      .from(goodsInventory)
      .innerJoin(zones, eq(zones.id, goodsInventory.zoneId))
      .where(
        and(
          eq(goodsInventory.goodId, goodId),
          gte(goodsInventory.stock, 1),
          eq(zones.onSale, true),
        ),
      )
      .orderBy(asc(zones.sort), asc(zones.id))
      .limit(1)
    if (!row) throw new BizError(ResultCode.CLOUD_OUT_OF_STOCK, SECKILL_MESSAGES.noZone)
    return row.zoneId
  }
}
