import { asc, eq, sql } from 'drizzle-orm'
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
import type {
  Goods,
  GoodsLevelGroup,
  GoodsListQuery,
  GoodsPrice,
  ZoneStock,
} from '../../contract/goods'
import { goodsInventory, zones } from '../../db/schema'
import type { ServiceContext } from '../context'
import { FreshRead } from './fresh-read'
import type { GoodsService } from './goods-service'
import type { GoodsRow, Reference, ReferenceDataService } from './reference-data'

/** Serialised goods lists kept per reference read (a few filters × the stock states seen). */
const LISTS_KEPT = 64

/** The catalogue as the public goods pages show it: the goods list, one goods, the zones. */
export class GoodsListService {
  /**
   * The stock of every goods × zone, summed from its slots (1,280 rows for the seeded catalogue): read
   * for each goods list, shared by the lists asked for together (never older than any of them).
   */
  private readonly stock
  /** Serialised goods lists made from each reference read, by filter, stock statuses and activities. */
  private readonly lists = new WeakMap<Reference, Map<string, Buffer>>()

  constructor(
    private readonly ctx: ServiceContext,
    private readonly reference: ReferenceDataService,
    private readonly goods: GoodsService,
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

  /** Zones with their inventory status for one goods, or summed over every goods. */
  async listZones(goodId?: number): Promise<ZoneStock[]> {
    const stock = goodId
      ? sql<number>`coalesce(max(${goodsInventory.stock}) filter (where ${goodsInventory.goodId} = ${goodId}), 0)`
      : sql<number>`coalesce(sum(${goodsInventory.stock}), 0)`
    const rows = await this.ctx.db
      .select({ zoneId: zones.id, name: zones.name, stock })
      .from(zones)
      .leftJoin(goodsInventory, eq(goodsInventory.zoneId, zones.id))
      .where(eq(zones.onSale, true))
      .groupBy(zones.id)
      .orderBy(asc(zones.sort), asc(zones.id))
    return rows.map((row) => zoneStock(row.zoneId, row.name, Number(row.stock)))
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
      for (const zone of catalogue.zonesOnSale) key += inventoryStatus(stockIn(row.id, zone.id))
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
    const row = await this.goods.requireGoods(goodId, this.ctx.db)
    const prices = await this.goods.pricesOf(goodId, this.ctx.db)
    const zoneRows = (await this.reference.get(this.ctx.db)).zonesOnSale
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

function zoneStock(zoneId: number, name: string, stock: number): ZoneStock {
  const status = inventoryStatus(stock)
  return { zoneId, name, inventoryStatus: status, statusText: INVENTORY_STATUS_TEXT[status] }
}

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
            catalogue.zonesOnSale,
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
