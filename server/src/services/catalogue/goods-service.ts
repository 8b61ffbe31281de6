import type { PriceRow } from '#domain/pricing'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { BizError } from '../../domain/biz-error'
import type { GoodsRow, ReferenceDataService } from './reference-data'
import * as stockSlots from './stock-slots'

export type { GoodsRow }

/** The price used as a goods' daily rate when changing configuration: the monthly one when sold. */
export const REFERENCE_DAYS = 30

/**
 * Goods, prices and zones as orders read them, and the stock they take and give back (kept slot by
 * slot in stock-slots.ts). The public goods pages read the catalogue through goods-list.ts.
 */
export class GoodsService {
  constructor(private readonly reference: ReferenceDataService) {}

  /**
   * The catalogue (goods, prices, zones) comes from ReferenceDataService, the same read the goods list shows,
   * so an order is priced from what the buyer was shown and an operator's edit reaches both within
   * REFERENCE_TTL_MS. Stock is never cached. Inside a transaction pass it as `db`: a read of the
   * reference tables then goes through it (PGlite has one connection, which the transaction holds).
   */
  async getGoods(goodId: number, db: Db): Promise<GoodsRow | null> {
    return (await this.reference.get(db)).goods.get(goodId) ?? null
  }

  /** The goods on sale, else 1022. */
  async requireGoods(goodId: number, db: Db): Promise<GoodsRow> {
    const row = await this.getGoods(goodId, db)
    if (!row || !row.onSale) throw new BizError(ResultCode.GOODS_NOT_EXIST)
    return row
  }

  /** The goods' prices, shortest duration first. */
  async pricesOf(goodId: number, db: Db): Promise<PriceRow[]> {
    return (await this.reference.get(db)).prices.get(goodId) ?? []
  }

  async priceById(priceId: number, db: Db): Promise<PriceRow | null> {
    return (await this.reference.get(db)).priceById.get(priceId) ?? null
  }

  /** The price row, which must belong to the goods (else 1016). */
  async requirePrice(priceId: number, goodId: number, db: Db): Promise<PriceRow> {
    const row = await this.priceById(priceId, db)
    if (!row || row.goodId !== goodId) {
      throw new BizError(ResultCode.PRICE_INCONSISTENT, '所选时长不属于该商品')
    }
    return row
  }

  /** The goods' price for the given number of days, or null when it is not sold for that long. */
  async priceFor(goodId: number, goodTime: number, db: Db): Promise<PriceRow | null> {
    return (await this.pricesOf(goodId, db)).find((price) => price.goodTime === goodTime) ?? null
  }

  /** The price row whose daily rate stands for the goods (monthly, else the shortest duration). */
  async referencePrice(goodId: number, db: Db): Promise<PriceRow> {
    const prices = await this.pricesOf(goodId, db)
    const price = prices.find((p) => p.goodTime === REFERENCE_DAYS) ?? prices[0]
    if (!price) throw new BizError(ResultCode.GOODS_NOT_EXIST, '该配置暂未定价')
    return price
  }

  async getZone(zoneId: number, db: Db) {
    return (await this.reference.get(db)).zones.find((zone) => zone.id === zoneId) ?? null
  }

  /** A zone new phones may be placed in (on sale), else null: orders, flash sales, moves. */
  async getZoneOnSale(zoneId: number, db: Db) {
    return (await this.reference.get(db)).zonesOnSale.find((zone) => zone.id === zoneId) ?? null
  }

  /** Takes n units of the goods × zone if it has that many left (stock-slots.ts). */
  reserveStock(tx: Db, goodId: number, zoneId: number, n: number): Promise<boolean> {
    return stockSlots.reserveStock(tx, goodId, zoneId, n)
  }

  /** Puts n units of the goods × zone back (stock-slots.ts). */
  returnStock(tx: Db, goodId: number, zoneId: number, n: number): Promise<void> {
    return stockSlots.returnStock(tx, goodId, zoneId, n)
  }

  /** The first zone (in display order) with a unit of the goods left, reserving it; null when sold out. */
  reserveAnyZone(tx: Db, goodId: number): Promise<number | null> {
    return stockSlots.reserveAnyZone(tx, goodId)
  }
}
