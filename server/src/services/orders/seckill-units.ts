import { and, asc, eq, gte, lt, sql } from 'drizzle-orm'
import { durationLabel } from '#domain/catalogue'
import { BusinessType } from '#domain/enums'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import {
  activities,
  goods,
  goodsInventory,
  goodsPrices,
  seckillItems,
  seckillPurchases,
  zones,
} from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import type { GoodsService } from '../catalogue/goods-service'
import { emptyDraft, type OrderDraft } from './order-draft'

export const ACTIVITY_NOT_FOUND = '活动不存在或已下线'
export const SECKILL_MESSAGES = {
  itemNotFound: '抢购商品不存在',
  notStarted: '活动尚未开始，请稍后再来',
  ended: '活动已结束',
  soldOut: '已抢光',
  limit: '每人限购1件',
  noZone: '该商品各地区均已售罄，暂时无法抢购',
} as const

/**
 * A seckill order's unit, taken in the order's transaction as it is priced: the activity must run, the
 * buyer must not hold a unit yet, and `sold` moves by a conditional update, so concurrent buyers never
 * take more than `stock`; any refusal rolls everything back.
 */
export async function takeSeckillUnit(
  tx: Db,
  catalogue: GoodsService,
  clock: { now(): Date },
  userId: number,
  ask: { itemId: number; zoneId?: number },
): Promise<OrderDraft> {
  const [found] = await tx
    .select({ item: seckillItems, activity: activities, price: goodsPrices, good: goods })
    .from(seckillItems)
    .innerJoin(activities, eq(activities.id, seckillItems.activityId))
    .innerJoin(goodsPrices, eq(goodsPrices.id, seckillItems.priceId))
    .innerJoin(goods, eq(goods.id, goodsPrices.goodId))
    .where(eq(seckillItems.id, ask.itemId))
  if (!found) throw tip(SECKILL_MESSAGES.itemNotFound)
  const { item, activity, price, good } = found
  const now = clock.now()
  if (activity.enabled !== 1 || activity.kind !== 'seckill') throw tip(ACTIVITY_NOT_FOUND)
  if (now < activity.startsAt) throw tip(SECKILL_MESSAGES.notStarted)
  if (now >= activity.endsAt) throw tip(SECKILL_MESSAGES.ended)
  const [held] = await tx
    .select({ id: seckillPurchases.id })
    .from(seckillPurchases)
    .where(and(eq(seckillPurchases.itemId, item.id), eq(seckillPurchases.userId, userId)))
  if (held) throw tip(SECKILL_MESSAGES.limit)
  const zoneId = ask.zoneId ?? (await firstZoneWithStock(tx, good.id))
  if (ask.zoneId !== undefined && !(await catalogue.getZoneOnSale(ask.zoneId, tx))) {
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
  return {
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
}

async function firstZoneWithStock(tx: Db, goodId: number): Promise<number> {
  const [row] = await tx
    .select({ zoneId: goodsInventory.zoneId })
    .from(goodsInventory)
    .innerJoin(zones, eq(zones.id, goodsInventory.zoneId))
    .where(
      and(eq(goodsInventory.goodId, goodId), gte(goodsInventory.stock, 1), eq(zones.onSale, true)),
    )
    .orderBy(asc(zones.sort), asc(zones.id))
    .limit(1)
  if (!row) throw new BizError(ResultCode.CLOUD_OUT_OF_STOCK, SECKILL_MESSAGES.noZone)
  return row.zoneId
}

/** The buyer's unit of the item, held by the order just written (in its transaction). */
export async function recordSeckillPurchase(
  tx: Db,
  purchase: { itemId: number; userId: number; orderId: number; createdAt: Date },
): Promise<void> {
  await tx.insert(seckillPurchases).values(purchase)
}

/**
 * An unpaid seckill order closed (cancelled or timed out), in the closing transaction: its unit goes
 * back to the item and the buyer's slot is freed (the purchase row is deleted). No-op for other orders.
 */
export async function releaseSeckillUnit(tx: Db, orderId: number): Promise<void> {
  const [freed] = await tx
    .delete(seckillPurchases)
    .where(eq(seckillPurchases.orderId, orderId))
    .returning({ itemId: seckillPurchases.itemId })
  if (!freed) return
  await tx
    .update(seckillItems)
    .set({ sold: sql`${seckillItems.sold} - 1` })
    .where(eq(seckillItems.id, freed.itemId))
}

/** The seckill order was paid (in the payment's transaction): the unit is the buyer's for good. */
export async function markSeckillPaid(tx: Db, orderId: number): Promise<void> {
  await tx
    .update(seckillPurchases)
    .set({ status: 'paid' })
    .where(eq(seckillPurchases.orderId, orderId))
}
