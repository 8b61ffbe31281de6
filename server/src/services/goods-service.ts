import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm'
import {
  INVENTORY_STATUS_TEXT,
  androidVersionLabel,
  imageTypeLabel,
  inventoryStatus,
  levelInfo,
  durationLabel,
  type AndroidVersion,
} from '../../../src/domain/catalogue'
import type { ImageType } from '../../../src/domain/enums'
import { activityRunning, type PriceRow } from '../../../src/domain/pricing'
import { ResultCode } from '../../../src/domain/result-codes'
import type {
  Goods,
  GoodsLevelGroup,
  GoodsListQuery,
  GoodsPrice,
  ZoneStock,
} from '../contract/catalog'
import type { Db } from '../db/client'
import { goods, goodsInventory, goodsLevels, goodsPrices, zones } from '../db/schema'
import { BizError } from '../domain/biz-error'
import type { ServiceContext } from './context'

export type GoodsRow = typeof goods.$inferSelect
type PriceDbRow = typeof goodsPrices.$inferSelect

export function toPriceRow(row: PriceDbRow): PriceRow {
  return {
    priceId: row.id,
    goodId: row.goodId,
    goodTime: row.goodTime,
    goodPrice: row.goodPrice,
    oldGoodPrice: row.oldGoodPrice,
    firstPurchasePrice: row.firstPurchasePrice,
    firstCount: row.firstCount,
    activityId: row.activityId,
    activityPrice: row.activityPrice,
    activityEndsAt: row.activityEndsAt?.getTime() ?? null,
  }
}

function zoneStock(zoneId: number, name: string, stock: number): ZoneStock {
  const status = inventoryStatus(stock)
  return { zoneId, name, inventoryStatus: status, statusText: INVENTORY_STATUS_TEXT[status] }
}

/** The price used as a goods' daily rate when changing configuration: the monthly one when sold. */
export const REFERENCE_DAYS = 30

/** Catalogue reads and stock: goods, prices, zones and the per-zone inventory. */
export class GoodsService {
  constructor(private readonly ctx: ServiceContext) {}

  async getGoods(goodId: number, db: Db = this.ctx.db): Promise<GoodsRow | null> {
    const [row] = await db.select().from(goods).where(eq(goods.id, goodId))
    return row ?? null
  }

  /** The goods on sale, else 1022. */
  async requireGoods(goodId: number, db: Db = this.ctx.db): Promise<GoodsRow> {
    const row = await this.getGoods(goodId, db)
    if (!row || !row.onSale) throw new BizError(ResultCode.GOODS_NOT_EXIST)
    return row
  }

  async pricesOf(goodId: number, db: Db = this.ctx.db): Promise<PriceRow[]> {
    const rows = await db
      .select()
      .from(goodsPrices)
      .where(eq(goodsPrices.goodId, goodId))
      .orderBy(asc(goodsPrices.goodTime))
    return rows.map(toPriceRow)
  }

  /** The price row, which must belong to the goods (else 1016). */
  async requirePrice(priceId: number, goodId: number, db: Db = this.ctx.db): Promise<PriceRow> {
    const [row] = await db.select().from(goodsPrices).where(eq(goodsPrices.id, priceId))
    if (!row || row.goodId !== goodId) {
      throw new BizError(ResultCode.PRICE_INCONSISTENT, '所选时长不属于该商品')
    }
    return toPriceRow(row)
  }

  /** The goods' price for the given number of days, or null when it is not sold for that long. */
  async priceFor(goodId: number, goodTime: number, db: Db = this.ctx.db): Promise<PriceRow | null> {
    const [row] = await db
      .select()
      .from(goodsPrices)
      .where(and(eq(goodsPrices.goodId, goodId), eq(goodsPrices.goodTime, goodTime)))
    return row ? toPriceRow(row) : null
  }

  /** The price row whose daily rate stands for the goods (monthly, else the shortest duration). */
  async referencePrice(goodId: number, db: Db = this.ctx.db): Promise<PriceRow> {
    const prices = await this.pricesOf(goodId, db)
    const price = prices.find((p) => p.goodTime === REFERENCE_DAYS) ?? prices[0]
    if (!price) throw new BizError(ResultCode.GOODS_NOT_EXIST, '该配置暂未定价')
    return price
  }

  async getZone(zoneId: number, db: Db = this.ctx.db) {
    const [row] = await db.select().from(zones).where(eq(zones.id, zoneId))
    return row ?? null
  }

  /** Zones with their inventory status for one goods, or summed over every goods. */
  async listZones(goodId?: number, db: Db = this.ctx.db): Promise<ZoneStock[]> {
    const stock = goodId
      ? sql<number>`coalesce(max(${goodsInventory.stock}) filter (where ${goodsInventory.goodId} = ${goodId}), 0)`
      : sql<number>`coalesce(sum(${goodsInventory.stock}), 0)`
    const rows = await db
      .select({ zoneId: zones.id, name: zones.name, stock })
      .from(zones)
      .leftJoin(goodsInventory, eq(goodsInventory.zoneId, zones.id))
      .groupBy(zones.id)
      .orderBy(asc(zones.sort), asc(zones.id))
    return rows.map((row) => zoneStock(row.zoneId, row.name, Number(row.stock)))
  }

  /** Takes n units if that many are left (a conditional update, so concurrent buyers never oversell). */
  async reserveStock(tx: Db, goodId: number, zoneId: number, n: number): Promise<boolean> {
    if (n <= 0) return true
    const taken = await tx
      .update(goodsInventory)
      .set({ stock: sql`${goodsInventory.stock} - ${n}` })
      .where(
        and(
          eq(goodsInventory.goodId, goodId),
          eq(goodsInventory.zoneId, zoneId),
          gte(goodsInventory.stock, n),
        ),
      )
      .returning({ stock: goodsInventory.stock })
    return taken.length === 1
  }

  async returnStock(tx: Db, goodId: number, zoneId: number, n: number): Promise<void> {
    if (n <= 0) return
    await tx
      .insert(goodsInventory)
      .values({ goodId, zoneId, stock: n })
      .onConflictDoUpdate({
        target: [goodsInventory.goodId, goodsInventory.zoneId],
        set: { stock: sql`${goodsInventory.stock} + ${n}` },
      })
  }

  /** The first zone (in display order) with a unit of the goods left, reserving it; null when sold out. */
  async reserveAnyZone(tx: Db, goodId: number): Promise<number | null> {
    const candidates = await tx
      .select({ zoneId: goodsInventory.zoneId })
      .from(goodsInventory)
      .innerJoin(zones, eq(zones.id, goodsInventory.zoneId))
      .where(and(eq(goodsInventory.goodId, goodId), gte(goodsInventory.stock, 1)))
      .orderBy(asc(zones.sort), asc(zones.id))
    for (const { zoneId } of candidates) {
      if (await this.reserveStock(tx, goodId, zoneId, 1)) return zoneId
    }
    return null
  }

  async listLevels(query: GoodsListQuery): Promise<GoodsLevelGroup[]> {
    const levelRows = await this.ctx.db
      .select()
      .from(goodsLevels)
      .where(query.level ? eq(goodsLevels.level, query.level) : undefined)
      .orderBy(asc(goodsLevels.level))
    const goodsRows = await this.ctx.db
      .select()
      .from(goods)
      .where(
        and(
          eq(goods.onSale, true),
          query.level ? eq(goods.level, query.level) : undefined,
          query.androidVersion ? eq(goods.androidVersion, query.androidVersion) : undefined,
        ),
      )
      .orderBy(asc(goods.level), asc(goods.sort), asc(goods.id))
    const described = await this.describe(goodsRows)
    return levelRows.map((level) => ({
      level: level.level,
      name: level.name,
      themeColor: level.themeColor,
      description: level.description,
      goods: described.filter((g) => g.level === level.level),
    }))
  }

  async goodsDetail(goodId: number): Promise<Goods> {
    const [described] = await this.describe([await this.requireGoods(goodId)])
    return described
  }

  /** Goods rows with their prices and per-zone inventory status, in three queries for any number. */
  private async describe(rows: GoodsRow[]): Promise<Goods[]> {
    if (rows.length === 0) return []
    const ids = rows.map((row) => row.id)
    const now = this.ctx.clock.now().getTime()
    const priceRows = await this.ctx.db
      .select()
      .from(goodsPrices)
      .where(inArray(goodsPrices.goodId, ids))
      .orderBy(asc(goodsPrices.goodTime))
    const zoneRows = await this.ctx.db.select().from(zones).orderBy(asc(zones.sort), asc(zones.id))
    const stockRows = await this.ctx.db
      .select()
      .from(goodsInventory)
      .where(inArray(goodsInventory.goodId, ids))
    return rows.map((row) => {
      const level = levelInfo(row.level)
      const prices: GoodsPrice[] = priceRows
        .filter((p) => p.goodId === row.id)
        .map((p) => {
          const price = toPriceRow(p)
          return {
            ...price,
            durationLabel: durationLabel(price.goodTime),
            activityRunning: activityRunning(price, now),
          }
        })
      const zonesOfGoods = zoneRows.map((zone) => {
        const stock = stockRows.find((s) => s.goodId === row.id && s.zoneId === zone.id)
        return zoneStock(zone.id, zone.name, stock?.stock ?? 0)
      })
      return {
        goodId: row.id,
        level: row.level,
        levelName: level?.name ?? '',
        themeColor: level?.themeColor ?? '',
        name: row.name,
        configName: row.configName,
        androidVersion: row.androidVersion as AndroidVersion,
        androidVersionLabel: androidVersionLabel(row.androidVersion as AndroidVersion),
        imageType: row.imageType,
        imageTypeLabel: imageTypeLabel(row.imageType as ImageType),
        maxPerOrder: row.maxPerOrder,
        description: row.description,
        permissions: row.permissions as Goods['permissions'],
        videoDailyFee: row.videoDailyFee,
        prices,
        zones: zonesOfGoods,
      }
    })
  }
}
