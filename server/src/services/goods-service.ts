import { and, asc, eq, gte, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import {
  INVENTORY_STATUS_TEXT,
  androidVersionLabel,
  imageTypeLabel,
  inventoryStatus,
  levelInfo,
  durationLabel,
  type AndroidVersion,
} from '#domain/catalogue'
import type { ImageType } from '#domain/enums'
import { activityRunning, type PriceRow } from '#domain/pricing'
import { ResultCode } from '#domain/result-codes'
import type {
  Goods,
  GoodsLevelGroup,
  GoodsListQuery,
  GoodsPrice,
  ZoneStock,
} from '../contract/catalog'
import type { Db } from '../db/client'
import { preparedOn } from '../db/prepared'
import { goodsInventory, goodsStockSlots, STOCK_SLOTS, zones } from '../db/schema'
import { BizError } from '../domain/biz-error'
import type { ServiceContext } from './context'
import { FreshRead } from './fresh-read'
import type { GoodsRow, Reference, ReferenceData } from './reference-data'

export type { GoodsRow }

/** Where stockSlot starts looking: a slot drawn at random, so concurrent buyers spread over the slots. */
export const randomSlot = () => Math.floor(Math.random() * STOCK_SLOTS)

/**
 * The stock slot an update of goods_stock_slots takes n units of the goods × zone from, as a CTE to
 * join (`from stock_slot where slot = picked_slot`): the first slot from `start` on that holds n, else
 * the first before it. Picked once for the statement in a CTE: as a condition on the updated row, the
 * pick is made again when PostgreSQL rechecks a row a concurrent order has just updated, and may then
 * land on another slot and miss the row (a random pick there missed 3–21% of orders under load).
 */
export function stockSlot(
  db: Db,
  goodId: SQLWrapper,
  zoneId: SQLWrapper,
  n: SQLWrapper,
  start: SQLWrapper,
) {
  const holdingN = (from: SQL) => sql`select s.slot from ${goodsStockSlots} s
    where s.good_id = ${goodId} and s.zone_id = ${zoneId} and ${from} and s.stock >= ${n}
    order by s.slot limit 1`
  return db.$with('stock_slot', { pickedSlot: sql<number>`picked_slot` }).as(sql`
    select coalesce((${holdingN(sql`s.slot >= ${start}`)}), (${holdingN(sql`true`)})) as picked_slot`)
}

/** Where an update takes n units from the slot stockSlot picked (still holding n once locked). */
export function inStockSlot(goodId: SQLWrapper, zoneId: SQLWrapper, n: SQLWrapper): SQL {
  return sql`${goodsStockSlots.goodId} = ${goodId} and ${goodsStockSlots.zoneId} = ${zoneId}
    and ${goodsStockSlots.slot} = picked_slot and ${goodsStockSlots.stock} >= ${n}`
}

function zoneStock(zoneId: number, name: string, stock: number): ZoneStock {
  const status = inventoryStatus(stock)
  return { zoneId, name, inventoryStatus: status, statusText: INVENTORY_STATUS_TEXT[status] }
}

/** The price used as a goods' daily rate when changing configuration: the monthly one when sold. */
export const REFERENCE_DAYS = 30

/** Catalogue reads and stock: goods, prices, zones and the per-zone inventory. */
export class GoodsService {
  /**
   * The stock of every goods × zone, summed from its slots (1,280 rows for the seeded catalogue): read
   * for each goods list, shared by the lists asked for together (never older than any of them).
   */
  private readonly stock
  /** Serialised goods lists made from each reference read, by filter, stock statuses and activities. */
  private readonly lists = new WeakMap<Reference, Map<string, Buffer>>()

  constructor(
    private readonly ctx: ServiceContext,
    private readonly reference: ReferenceData,
  ) {
    const stockStatement = ctx.db
      .select({
        goodId: goodsInventory.goodId,
        zoneId: goodsInventory.zoneId,
        stock: goodsInventory.stock,
      })
      .from(goodsInventory)
      .prepare('goods_stock')
    this.stock = new FreshRead(() => stockStatement.execute())
  }

  /**
   * The catalogue (goods, prices, zones) comes from ReferenceData, the same read the goods list shows,
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

  /** Zones with their inventory status for one goods, or summed over every goods. */
  async listZones(goodId?: number): Promise<ZoneStock[]> {
    const stock = goodId
      ? sql<number>`coalesce(max(${goodsInventory.stock}) filter (where ${goodsInventory.goodId} = ${goodId}), 0)`
      : sql<number>`coalesce(sum(${goodsInventory.stock}), 0)`
    const rows = await this.ctx.db
      .select({ zoneId: zones.id, name: zones.name, stock })
      .from(zones)
      .leftJoin(goodsInventory, eq(goodsInventory.zoneId, zones.id))
      .groupBy(zones.id)
      .orderBy(asc(zones.sort), asc(zones.id))
    return rows.map((row) => zoneStock(row.zoneId, row.name, Number(row.stock)))
  }

  /**
   * Takes n units if the goods × zone has that many left, so concurrent buyers never oversell. First
   * from one slot holding n, picked at random (the row an order then holds until it commits); failing
   * that, with every slot locked in slot order, from as many slots as it takes.
   */
  async reserveStock(tx: Db, goodId: number, zoneId: number, n: number): Promise<boolean> {
    if (n <= 0) return true
    const fromOneSlot = await preparedOn(tx, 'reserve_stock', (db) => {
      const [goodIdP, zoneIdP, nP, startP] = ['goodId', 'zoneId', 'n', 'start'].map((name) =>
        sql.placeholder(name),
      )
      const slot = stockSlot(db, goodIdP, zoneIdP, nP, startP)
      return db
        .with(slot)
        .update(goodsStockSlots)
        .set({ stock: sql`${goodsStockSlots.stock} - ${nP}` })
        .from(slot)
        .where(inStockSlot(goodIdP, zoneIdP, nP))
        .returning({ stock: goodsStockSlots.stock })
    }).execute({ goodId, zoneId, n, start: randomSlot() })
    if (fromOneSlot.length === 1) return true
    const slots = await tx
      .select({ slot: goodsStockSlots.slot, stock: goodsStockSlots.stock })
      .from(goodsStockSlots)
      .where(and(eq(goodsStockSlots.goodId, goodId), eq(goodsStockSlots.zoneId, zoneId)))
      .orderBy(asc(goodsStockSlots.slot))
      .for('update')
    if (slots.reduce((sum, { stock }) => sum + stock, 0) < n) return false
    let left = n
    for (const { slot, stock } of slots) {
      const take = Math.min(stock, left)
      if (take === 0) continue
      await tx
        .update(goodsStockSlots)
        .set({ stock: sql`${goodsStockSlots.stock} - ${take}` })
        .where(
          and(
            eq(goodsStockSlots.goodId, goodId),
            eq(goodsStockSlots.zoneId, zoneId),
            eq(goodsStockSlots.slot, slot),
          ),
        )
      left -= take
    }
    return true
  }

  /** Puts n units back into a slot picked at random, so returns keep the slots about even. */
  async returnStock(tx: Db, goodId: number, zoneId: number, n: number): Promise<void> {
    if (n <= 0) return
    const slot = randomSlot()
    await tx
      .insert(goodsStockSlots)
      .values({ goodId, zoneId, slot, stock: n })
      .onConflictDoUpdate({
        target: [goodsStockSlots.goodId, goodsStockSlots.zoneId, goodsStockSlots.slot],
        set: { stock: sql`${goodsStockSlots.stock} + ${n}` },
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

  /**
   * The goods list: the catalogue from memory (see REFERENCE_TTL_MS), the stock read live in one query,
   * so the stock status shown is never older than the request.
   */
  async listLevels(query: GoodsListQuery): Promise<GoodsLevelGroup[]> {
    const { catalogue, stockIn, now } = await this.listInputs()
    return describeLevels(catalogue, query, stockIn, now)
  }

  /**
   * The goods list as JSON (UTF-8), as listLevels would give it. The list shows stock only as a status
   * and prices' activities only as running or not, so the same few lists recur: each is built and
   * serialised once per reference read, keyed by those states.
   */
  async listLevelsJson(query: GoodsListQuery): Promise<Buffer> {
    const { catalogue, stockIn, now } = await this.listInputs()
    let key = `${query.level ?? ''}${query.androidVersion ?? ''}:`
    for (const row of catalogue.goodsOnSale) {
      for (const zone of catalogue.zones) key += inventoryStatus(stockIn(row.id, zone.id))
      for (const price of catalogue.prices.get(row.id) ?? []) key += +activityRunning(price, now)
    }
    let lists = this.lists.get(catalogue)
    if (!lists) this.lists.set(catalogue, (lists = new Map()))
    let json = lists.get(key)
    if (!json) {
      json = Buffer.from(JSON.stringify(describeLevels(catalogue, query, stockIn, now)))
      if (lists.size >= LISTS_KEPT) lists.clear()
      lists.set(key, json)
    }
    return json
  }

  private async listInputs() {
    const [catalogue, stock] = await Promise.all([
      this.reference.get(this.ctx.db),
      this.stock.get(),
    ])
    const stockOf = new Map<number, Map<number, number>>()
    for (const row of stock) {
      let ofGoods = stockOf.get(row.goodId)
      if (!ofGoods) stockOf.set(row.goodId, (ofGoods = new Map()))
      ofGoods.set(row.zoneId, row.stock)
    }
    const stockIn = (goodId: number, zoneId: number) => stockOf.get(goodId)?.get(zoneId) ?? 0
    return { catalogue, stockIn, now: this.ctx.clock.now().getTime() }
  }

  async goodsDetail(goodId: number): Promise<Goods> {
    const row = await this.requireGoods(goodId, this.ctx.db)
    const prices = await this.pricesOf(goodId, this.ctx.db)
    const zoneRows = (await this.reference.get(this.ctx.db)).zones
    const stock = await this.ctx.db
      .select()
      .from(goodsInventory)
      .where(eq(goodsInventory.goodId, goodId))
    const stockOf = new Map(stock.map((s) => [s.zoneId, s.stock]))
    return describeGoods(
      row,
      prices,
      zoneRows,
      (zoneId) => stockOf.get(zoneId) ?? 0,
      this.ctx.clock.now().getTime(),
    )
  }
}

/** Serialised goods lists kept per reference read (a few filters × the stock states seen). */
const LISTS_KEPT = 64

function describeLevels(
  catalogue: Reference,
  query: GoodsListQuery,
  stockIn: (goodId: number, zoneId: number) => number,
  now: number,
): GoodsLevelGroup[] {
  return catalogue.levels
    .filter((level) => !query.level || level.level === query.level)
    .map((level) => ({
      level: level.level,
      name: level.name,
      themeColor: level.themeColor,
      description: level.description,
      goods: catalogue.goodsOnSale
        .filter(
          (row) =>
            row.level === level.level &&
            (!query.androidVersion || row.androidVersion === query.androidVersion),
        )
        .map((row) =>
          describeGoods(
            row,
            catalogue.prices.get(row.id) ?? [],
            catalogue.zones,
            (zoneId) => stockIn(row.id, zoneId),
            now,
          ),
        ),
    }))
}

/** Field by field: `{ ...price, more }` is a slow path in V8, and the goods list makes 120 of these. */
function goodsPrice(price: PriceRow, now: number): GoodsPrice {
  return {
    priceId: price.priceId,
    goodId: price.goodId,
    goodTime: price.goodTime,
    durationLabel: durationLabel(price.goodTime),
    goodPrice: price.goodPrice,
    oldGoodPrice: price.oldGoodPrice,
    firstPurchasePrice: price.firstPurchasePrice,
    firstCount: price.firstCount,
    activityId: price.activityId,
    activityPrice: price.activityPrice,
    activityEndsAt: price.activityEndsAt,
    activityRunning: activityRunning(price, now),
  }
}

/** A goods row with its prices (activity state as of `now`) and each zone's stock status. */
function describeGoods(
  row: GoodsRow,
  prices: PriceRow[],
  zoneRows: { id: number; name: string }[],
  stockIn: (zoneId: number) => number,
  now: number,
): Goods {
  const level = levelInfo(row.level)
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
    prices: prices.map((price) => goodsPrice(price, now)),
    zones: zoneRows.map((zone) => zoneStock(zone.id, zone.name, stockIn(zone.id))),
  }
}
