import { asc } from 'drizzle-orm'
import type { PriceRow } from '#domain/pricing'
import type { Db } from '../../db/client'
import { deviceStatuses, goods, goodsLevels, goodsPrices, zones } from '../../db/schema'
import type { ServiceContext } from '../context'

export type GoodsRow = typeof goods.$inferSelect

export function toPriceRow(row: typeof goodsPrices.$inferSelect): PriceRow {
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

/**
 * How long reference data read from the database is reused. Nothing in the user API writes these
 * tables: the seed and the console's 商品与价格 do (admin-catalogue.ts rereads at once on its own
 * instance), so this bounds how soon an edit shows on every other instance in the goods list, in the
 * names lists give and in the prices orders charge (the same read, so an order charges what the list
 * showed). Stock, devices and grants are never part of it.
 */
export const REFERENCE_TTL_MS = 30_000

/** The catalogue and the names the lists show: goods levels, goods, prices, zones, device statuses. */
export interface Reference {
  levels: (typeof goodsLevels.$inferSelect)[]
  /** Every goods row, on sale or not (phones keep the goods they were bought as). */
  goods: Map<number, GoodsRow>
  /** Goods on sale, in display order (level, sort, id). */
  goodsOnSale: GoodsRow[]
  /** By goods, shortest duration first. */
  prices: Map<number, PriceRow[]>
  priceById: Map<number, PriceRow>
  /** In display order, on sale or not (phones keep the zone they are in). */
  zones: (typeof zones.$inferSelect)[]
  /** Zones on sale, in display order: where new phones are offered. */
  zonesOnSale: (typeof zones.$inferSelect)[]
  zoneNames: Map<number, string>
  statusNames: Map<number, string>
}

/** One read of the reference tables, shared by whoever asks within REFERENCE_TTL_MS. */
export class ReferenceDataService {
  private cached: { readAt: number; value: Promise<Reference>; settled: boolean } | null = null

  constructor(private readonly ctx: ServiceContext) {}

  /**
   * `db`: the transaction the caller is in, if any. A transaction never waits for a read still under
   * way on another connection (with every pooled connection held by transactions waiting for it, or
   * PGlite's one connection held by this one, that read could never run): it reads through its own.
   */
  get(db: Db): Promise<Reference> {
    const now = this.ctx.clock.now().getTime()
    const cached = this.cached
    const fresh = cached && now >= cached.readAt && now - cached.readAt < REFERENCE_TTL_MS
    if (fresh && (cached.settled || db === this.ctx.db)) return cached.value
    return this.refresh(db)
  }

  /** Reads the tables again now (a row newer than the last read was asked for). */
  refresh(db: Db): Promise<Reference> {
    const value = this.read(db)
    const entry = { readAt: this.ctx.clock.now().getTime(), value, settled: false }
    this.cached = entry
    value.then(
      () => {
        entry.settled = true
      },
      // a failed read is not kept: the next request tries again
      () => {
        if (this.cached === entry) this.cached = null
      },
    )
    return value
  }

  private async read(db: Db): Promise<Reference> {
    const levels = await db.select().from(goodsLevels).orderBy(asc(goodsLevels.level))
    const goodsRows = await db
      .select()
      .from(goods)
      .orderBy(asc(goods.level), asc(goods.sort), asc(goods.id))
    const priceRows = await db.select().from(goodsPrices).orderBy(asc(goodsPrices.goodTime))
    const prices = new Map<number, PriceRow[]>()
    const priceById = new Map<number, PriceRow>()
    for (const row of priceRows) {
      const price = toPriceRow(row)
      priceById.set(price.priceId, price)
      const ofGoods = prices.get(row.goodId)
      if (ofGoods) ofGoods.push(price)
      else prices.set(row.goodId, [price])
    }
    const zoneRows = await db.select().from(zones).orderBy(asc(zones.sort), asc(zones.id))
    const statuses = await db.select().from(deviceStatuses)
    return {
      levels,
      goods: new Map(goodsRows.map((row) => [row.id, row])),
      goodsOnSale: goodsRows.filter((row) => row.onSale),
      prices,
      priceById,
      zones: zoneRows,
      zonesOnSale: zoneRows.filter((zone) => zone.onSale),
      zoneNames: new Map(zoneRows.map((zone) => [zone.id, zone.name])),
      statusNames: new Map(statuses.map((status) => [status.status, status.name])),
    }
  }
}
