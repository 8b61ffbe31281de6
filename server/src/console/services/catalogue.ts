import { createHash } from 'node:crypto'
import { and, asc, eq, max, sql } from 'drizzle-orm'
import {
  checkRemoteId,
  validateFreeStock,
  validatePriceEdit,
  type PriceEdit,
} from '#domain/console/catalogue-edits'
import { OrderStatus } from '#domain/order-status'
import { OperatorCode } from '#domain/result-codes'
import type {
  AdminCatalogue,
  AdminPriceRow,
  AdminStockRow,
  MappingKind,
  OnSaleRow,
  PriceEditBody,
  SupplierMapping,
  SupplierMappingRow,
} from '../contract/catalogue'
import { ACEP } from '../../adapters/supplier/acep/catalogue'
import type { Db } from '../../db/client'
import {
  goods,
  goodsInventory,
  goodsLevels,
  goodsPrices,
  goodsStockSlots,
  operatorAudit,
  orders,
  supplierCatalogue,
  zones,
} from '../../db/schema'
import { stockSlotRows } from '../../db/seed/catalogue'
import { BizError } from '../../domain/biz-error'
import type { ServiceContext } from '../../services/context'
import type { Actor } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'
import type { ReferenceDataService } from '../../services/catalogue'

type PriceDbRow = typeof goodsPrices.$inferSelect

/**
 * A row's version for optimistic concurrency: a digest of what the console edits on it. Any change
 * to those columns (through the console or in SQL) gives another version; the same values give the same.
 */
const digest = (values: unknown) =>
  createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, 16)

const priceFields = (row: PriceDbRow): PriceEdit => ({
  goodPrice: row.goodPrice,
  oldGoodPrice: row.oldGoodPrice,
  firstPurchasePrice: row.firstPurchasePrice,
  firstCount: row.firstCount,
  activityPrice: row.activityPrice,
  activityEndsAt: row.activityEndsAt?.getTime() ?? null,
})

function priceRow(row: PriceDbRow): AdminPriceRow {
  const fields = priceFields(row)
  return {
    id: row.id,
    goodTime: row.goodTime,
    activityId: row.activityId,
    ...fields,
    version: digest(fields),
  }
}

const onSaleVersion = (row: { onSale: boolean }) => digest({ onSale: row.onSale })

/**
 * A goods × zone's stock changes with every order, so its version is not its count: it is the last
 * console edit of it (its audit row's id), and an operator is refused only when another operator set
 * the stock since they read it.
 */
const stockTarget = (goodId: number, zoneId: number) => `${goodId}:${zoneId}`
const stockVersion = (lastEditId: number | null | undefined) => `edit-${lastEditId ?? 0}`

const changed = () => new BizError(OperatorCode.CATALOGUE_CHANGED)
const notFound = () => new BizError(OperatorCode.CATALOGUE_NOT_FOUND)
const invalid = (why: string) => new BizError(OperatorCode.CATALOGUE_INVALID, why)

/**
 * 商品与价格: the catalogue as stored (not the user site's cached read), and the edits operators make
 * to it, each checked against the row's version and audited in its own transaction. After a price or
 * on-sale (goods or zone) edit commits, this instance reads the catalogue again at once (ReferenceDataService.refresh); every
 * other instance within REFERENCE_TTL_MS. Stock is never cached.
 */
export class AdminCatalogueService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
    private readonly reference: ReferenceDataService,
  ) {}

  async read(): Promise<AdminCatalogue> {
    const db = this.ctx.db
    const [levels, zoneRows, goodsRows, priceRows, free, held, edits] = await Promise.all([
      db.select().from(goodsLevels).orderBy(asc(goodsLevels.level)),
      db.select().from(zones).orderBy(asc(zones.sort), asc(zones.id)),
      db.select().from(goods).orderBy(asc(goods.level), asc(goods.sort), asc(goods.id)),
      db.select().from(goodsPrices).orderBy(asc(goodsPrices.goodTime)),
      db.select().from(goodsInventory),
      db
        .select({
          goodId: orders.reservedGoodId,
          zoneId: orders.reservedZoneId,
          held: sql<number>`sum(${orders.reservedQuantity})::int`,
        })
        .from(orders)
        .where(eq(orders.status, OrderStatus.unpaid))
        .groupBy(orders.reservedGoodId, orders.reservedZoneId),
      db
        .select({ targetId: operatorAudit.targetId, lastId: max(operatorAudit.id) })
        .from(operatorAudit)
        .where(eq(operatorAudit.action, 'catalogue.stock'))
        .groupBy(operatorAudit.targetId),
    ])
    const key = (goodId: number | null, zoneId: number | null) => `${goodId}:${zoneId}`
    const freeOf = new Map(free.map((row) => [key(row.goodId, row.zoneId), row.stock]))
    const heldOf = new Map(held.map((row) => [key(row.goodId, row.zoneId), row.held]))
    const editOf = new Map(edits.map((row) => [row.targetId, row.lastId]))
    return {
      levels: levels.map(({ level, name, themeColor }) => ({ level, name, themeColor })),
      zones: zoneRows.map(({ id, name, onSale }) => ({
        id,
        name,
        onSale,
        version: onSaleVersion({ onSale }),
      })),
      goods: goodsRows.map((row) => ({
        id: row.id,
        level: row.level,
        name: row.name,
        configName: row.configName,
        androidVersion: row.androidVersion,
        maxPerOrder: row.maxPerOrder,
        onSale: row.onSale,
        version: onSaleVersion(row),
        prices: priceRows.filter((price) => price.goodId === row.id).map(priceRow),
        stock: zoneRows.map((zone): AdminStockRow => ({
          zoneId: zone.id,
          free: freeOf.get(key(row.id, zone.id)) ?? 0,
          held: heldOf.get(key(row.id, zone.id)) ?? 0,
          version: stockVersion(editOf.get(stockTarget(row.id, zone.id))),
        })),
      })),
    }
  }

  /** One price row (a goods × duration) set as a whole; the checkout's rules (catalogue-edits.ts). */
  async editPrice(actor: Actor, priceId: number, edit: PriceEditBody): Promise<AdminPriceRow> {
    const updated = await this.ctx.db.transaction(async (tx) => {
      const [found] = await tx
        .select({ price: goodsPrices, maxPerOrder: goods.maxPerOrder })
        .from(goodsPrices)
        .innerJoin(goods, eq(goods.id, goodsPrices.goodId))
        .where(eq(goodsPrices.id, priceId))
        .for('update', { of: goodsPrices })
      if (!found) throw notFound()
      const before = priceRow(found.price)
      if (before.version !== edit.version) throw changed()
      const fields: PriceEdit = {
        goodPrice: edit.goodPrice,
        oldGoodPrice: edit.oldGoodPrice,
        firstPurchasePrice: edit.firstPurchasePrice,
        firstCount: edit.firstCount,
        activityPrice: edit.activityPrice,
        activityEndsAt: edit.activityEndsAt,
      }
      const why = validatePriceEdit(fields, {
        activityId: found.price.activityId,
        maxPerOrder: found.maxPerOrder,
      })
      if (why) throw invalid(why)
      const [row] = await tx
        .update(goodsPrices)
        .set({
          ...fields,
          activityEndsAt: fields.activityEndsAt === null ? null : new Date(fields.activityEndsAt),
        })
        .where(eq(goodsPrices.id, priceId))
        .returning()
      const after = priceRow(row)
      await this.audit.record(tx, {
        ...actor,
        action: 'catalogue.price',
        targetType: 'goods_price',
        targetId: priceId,
        before: { goodId: found.price.goodId, ...before },
        after: { goodId: found.price.goodId, ...after },
      })
      return after
    })
    await this.catalogueChanged()
    return updated
  }

  /** A goods on sale or off: off, the user site neither lists nor sells it (phones bought keep it). */
  async setOnSale(
    actor: Actor,
    goodId: number,
    input: { version: string; onSale: boolean },
  ): Promise<OnSaleRow> {
    const updated = await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx.select().from(goods).where(eq(goods.id, goodId)).for('update')
      if (!row) throw notFound()
      if (onSaleVersion(row) !== input.version) throw changed()
      // ACEP could not provision it, and the start-up check would refuse the next start
      if (input.onSale && this.mappingEnforced() && !(await this.remoteIdOf(tx, 'goods', goodId))) {
        throw new BizError(OperatorCode.MAPPING_MISSING)
      }
      await tx.update(goods).set({ onSale: input.onSale }).where(eq(goods.id, goodId))
      const after = { id: goodId, onSale: input.onSale, version: onSaleVersion(input) }
      await this.audit.record(tx, {
        ...actor,
        action: 'catalogue.onSale',
        targetType: 'goods',
        targetId: goodId,
        before: { name: row.name, configName: row.configName, onSale: row.onSale },
        after: { name: row.name, configName: row.configName, onSale: input.onSale },
      })
      return after
    })
    await this.catalogueChanged()
    return updated
  }

  /**
   * A zone on sale or off: off, no new phone is offered there (the goods pages leave it out; orders,
   * flash sales, trials, activation codes and moves refuse or skip it); phones there keep running.
   */
  async setZoneOnSale(
    actor: Actor,
    zoneId: number,
    input: { version: string; onSale: boolean },
  ): Promise<OnSaleRow> {
    const updated = await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx.select().from(zones).where(eq(zones.id, zoneId)).for('update')
      if (!row) throw notFound()
      if (onSaleVersion(row) !== input.version) throw changed()
      await tx.update(zones).set({ onSale: input.onSale }).where(eq(zones.id, zoneId))
      await this.audit.record(tx, {
        ...actor,
        action: 'catalogue.zoneOnSale',
        targetType: 'zone',
        targetId: zoneId,
        before: { name: row.name, onSale: row.onSale },
        after: { name: row.name, onSale: input.onSale },
      })
      return { id: zoneId, onSale: input.onSale, version: onSaleVersion(input) }
    })
    await this.catalogueChanged()
    return updated
  }

  /**
   * Sets the units for sale of a goods in a zone. Only the free units are set: units an unpaid order
   * holds left the slots when it was made, stay with it, and return on top of `free` if it is cancelled
   * or times out, so an edit never takes back stock an order holds. Every slot is locked (in slot
   * order, as reserveStock's fallback locks them) so no order takes a unit between the read and the write.
   */
  async setStock(
    actor: Actor,
    goodId: number,
    zoneId: number,
    input: { version: string; free: number },
  ): Promise<AdminStockRow> {
    const why = validateFreeStock(input.free)
    if (why) throw invalid(why)
    return this.ctx.db.transaction(async (tx) => {
      const [goodsRow] = await tx.select({ id: goods.id }).from(goods).where(eq(goods.id, goodId))
      const [zoneRow] = await tx.select({ id: zones.id }).from(zones).where(eq(zones.id, zoneId))
      if (!goodsRow || !zoneRow) throw notFound()
      const slotRows = stockSlotRows(goodId, zoneId, input.free)
      // a goods × zone never stocked has no slot rows yet: make them (empty) so there is a row to lock
      await tx
        .insert(goodsStockSlots)
        .values(slotRows.map((row) => ({ ...row, stock: 0 })))
        .onConflictDoNothing()
      const locked = await tx
        .select({ stock: goodsStockSlots.stock })
        .from(goodsStockSlots)
        .where(and(eq(goodsStockSlots.goodId, goodId), eq(goodsStockSlots.zoneId, zoneId)))
        .orderBy(asc(goodsStockSlots.slot))
        .for('update')
      const target = stockTarget(goodId, zoneId)
      const [last] = await tx
        .select({ lastId: max(operatorAudit.id) })
        .from(operatorAudit)
        .where(and(eq(operatorAudit.action, 'catalogue.stock'), eq(operatorAudit.targetId, target)))
      if (stockVersion(last?.lastId) !== input.version) throw changed()
      const before = locked.reduce((sum, row) => sum + row.stock, 0)
      await tx
        .insert(goodsStockSlots)
        .values(slotRows)
        .onConflictDoUpdate({
          target: [goodsStockSlots.goodId, goodsStockSlots.zoneId, goodsStockSlots.slot],
          set: { stock: sql`excluded.stock` },
        })
      const held = await this.heldBy(tx, goodId, zoneId)
      await this.audit.record(tx, {
        ...actor,
        action: 'catalogue.stock',
        targetType: 'goods_stock',
        targetId: target,
        before: { goodId, zoneId, free: before, held },
        after: { goodId, zoneId, free: input.free, held },
      })
      const [edit] = await tx
        .select({ lastId: max(operatorAudit.id) })
        .from(operatorAudit)
        .where(and(eq(operatorAudit.action, 'catalogue.stock'), eq(operatorAudit.targetId, target)))
      return { zoneId, free: input.free, held, version: stockVersion(edit?.lastId) }
    })
  }

  /**
   * 供应商映射: every goods and zone with its ACEP id (supplier_catalogue, supplier 'acep'), and the
   * running supplier's name: with ACEP running, what the start-up check asks for is marked required.
   */
  async readMapping(): Promise<SupplierMapping> {
    const db = this.ctx.db
    const [goodsRows, zoneRows, mapped] = await Promise.all([
      db.select().from(goods).orderBy(asc(goods.level), asc(goods.sort), asc(goods.id)),
      db.select().from(zones).orderBy(asc(zones.sort), asc(zones.id)),
      db
        .select({
          kind: supplierCatalogue.kind,
          localId: supplierCatalogue.localId,
          remoteId: supplierCatalogue.remoteId,
        })
        .from(supplierCatalogue)
        .where(eq(supplierCatalogue.supplier, ACEP)),
    ])
    const remote = new Map(mapped.map((row) => [`${row.kind}:${row.localId}`, row.remoteId]))
    return {
      runningSupplier: this.ctx.supplier.name,
      supplier: ACEP,
      enforced: this.mappingEnforced(),
      goods: goodsRows.map((row) => ({
        kind: 'goods',
        id: row.id,
        name: row.name,
        androidVersion: row.androidVersion,
        onSale: row.onSale,
        remoteId: remote.get(`goods:${row.id}`) ?? null,
        required: row.onSale,
      })),
      zones: zoneRows.map((row) => ({
        kind: 'zone',
        id: row.id,
        name: row.name,
        androidVersion: null,
        onSale: row.onSale,
        remoteId: remote.get(`zone:${row.id}`) ?? null,
        required: true,
      })),
    }
  }

  /**
   * Sets (or, with null, clears) the ACEP id of a goods or zone: checked by checkRemoteId, written in
   * one upsert (two operators racing leave one row, the later one's), audited with before and after.
   * The goods or zone row is locked first, so a goods going on sale (setOnSale locks it too) and its
   * mapping being cleared never both pass. With ACEP running, a goods on sale or a zone keeps its id (4058).
   */
  async setMapping(
    actor: Actor,
    kind: MappingKind,
    localId: number,
    raw: string | null,
  ): Promise<SupplierMappingRow> {
    let remoteId: string | null = null
    if (raw !== null) {
      const checked = checkRemoteId(raw)
      if ('why' in checked) throw invalid(checked.why)
      remoteId = checked.remoteId
    }
    return this.ctx.db.transaction(async (tx) => {
      const table = kind === 'goods' ? goods : zones
      const [row] = await tx.select().from(table).where(eq(table.id, localId)).for('update')
      if (!row) throw notFound()
      const androidVersion = 'androidVersion' in row ? row.androidVersion : null
      const required = kind === 'zone' || row.onSale
      const before = await this.remoteIdOf(tx, kind, localId)
      const where = and(
        eq(supplierCatalogue.supplier, ACEP),
        eq(supplierCatalogue.kind, kind),
        eq(supplierCatalogue.localId, localId),
      )
      if (remoteId === null) {
        if (required && this.mappingEnforced()) throw new BizError(OperatorCode.MAPPING_IN_USE)
        await tx.delete(supplierCatalogue).where(where)
      } else {
        await tx
          .insert(supplierCatalogue)
          .values({ supplier: ACEP, kind, localId, remoteId, updatedAt: this.ctx.clock.now() })
          .onConflictDoUpdate({
            target: [supplierCatalogue.supplier, supplierCatalogue.kind, supplierCatalogue.localId],
            set: { remoteId: sql`excluded.remote_id`, updatedAt: sql`excluded.updated_at` },
          })
      }
      const described = { supplier: ACEP, kind, localId, name: row.name }
      await this.audit.record(tx, {
        ...actor,
        action: 'catalogue.mapping',
        targetType: 'supplier_catalogue',
        targetId: `${ACEP}:${kind}:${localId}`,
        before: { ...described, remoteId: before },
        after: { ...described, remoteId },
      })
      return {
        kind,
        id: localId,
        name: row.name,
        androidVersion,
        onSale: row.onSale,
        remoteId,
        required,
      }
    })
  }

  /** The running supplier is ACEP: its mapping must cover what the start-up check asks for. */
  private mappingEnforced(): boolean {
    return this.ctx.supplier.name === ACEP
  }

  /** ACEP's id of a goods or zone, or null. */
  private async remoteIdOf(tx: Db, kind: MappingKind, localId: number): Promise<string | null> {
    const [row] = await tx
      .select({ remoteId: supplierCatalogue.remoteId })
      .from(supplierCatalogue)
      .where(
        and(
          eq(supplierCatalogue.supplier, ACEP),
          eq(supplierCatalogue.kind, kind),
          eq(supplierCatalogue.localId, localId),
        ),
      )
    return row?.remoteId ?? null
  }

  /** Units unpaid orders hold of a goods in a zone. */
  private async heldBy(tx: Db, goodId: number, zoneId: number): Promise<number> {
    const [row] = await tx
      .select({ held: sql<number>`coalesce(sum(${orders.reservedQuantity}), 0)::int` })
      .from(orders)
      .where(
        and(
          eq(orders.status, OrderStatus.unpaid),
          eq(orders.reservedGoodId, goodId),
          eq(orders.reservedZoneId, zoneId),
        ),
      )
    return row.held
  }

  /** This instance's catalogue read now; other instances' within REFERENCE_TTL_MS. */
  private async catalogueChanged() {
    await this.reference.refresh(this.ctx.db)
  }
}
