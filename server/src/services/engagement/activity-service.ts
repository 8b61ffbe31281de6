import { and, asc, eq, gt } from 'drizzle-orm'
import { durationLabel } from '#domain/catalogue'
import type {
  ActivityDetail,
  ActivitySummary,
  CreateSeckillOrderBody,
  SeckillItem,
} from '../../contract/activity'
import type { OrderInfo } from '../../contract/order'
import {
  activities,
  goods,
  goodsPrices,
  orders,
  seckillItems,
  seckillPurchases,
} from '../../db/schema'
import { tip } from '../../domain/biz-error'
import type { ServiceContext } from '../context'
import type { OrderService } from '../orders/order-service'
import { seckillOrder } from '../orders/order-request'
import { ACTIVITY_NOT_FOUND, SECKILL_MESSAGES } from '../orders/seckill-units'

type ActivityRow = typeof activities.$inferSelect

export { ACTIVITY_NOT_FOUND, SECKILL_MESSAGES }

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
   * A one-phone 'new' order at the seckill price, through OrderService.place (user row locked,
   * idempotency key, zone stock reserved, pay deadline); its unit is taken in that transaction
   * (orders/seckill-units.ts).
   */
  async createSeckillOrder(userId: number, body: CreateSeckillOrderBody): Promise<OrderInfo> {
    try {
      return await this.orders.place(seckillOrder(userId, body))
    } catch (error) {
      // Backstop: the user row lock already serialises one buyer's attempts.
      if (isUniqueViolation(error, 'seckill_purchases_item_user_key')) {
        throw tip(SECKILL_MESSAGES.limit)
      }
      throw error
    }
  }
}
