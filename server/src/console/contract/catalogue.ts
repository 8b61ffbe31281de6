/**
 * The console's 商品与价格 API (console/routes/catalogue.ts): the catalogue as operators edit it.
 * Money is integer fen. Every edit carries the `version` the operator read; a row changed since is
 * refused with 4030 (OperatorCode.CATALOGUE_CHANGED) and nothing is written.
 */
import { Type, type Static } from '@sinclair/typebox'
import { MAX_FREE_STOCK, MAX_PRICE_FEN } from '#domain/console/catalogue-edits'
import { Nullable } from '../../contract/common'

/** A row's version as read: opaque to the console, sent back with an edit. */
const Version = Type.String({ minLength: 1, maxLength: 64 })
const Fen = Type.Integer({ minimum: 1, maximum: MAX_PRICE_FEN })
const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 })

export const AdminPriceRow = Type.Object({
  id: Type.Integer(),
  /** Days. */
  goodTime: Type.Integer(),
  goodPrice: Type.Integer(),
  oldGoodPrice: Nullable(Type.Integer()),
  firstPurchasePrice: Nullable(Type.Integer()),
  firstCount: Type.Integer(),
  /** null: the row has no activity, so no activity price. */
  activityId: Nullable(Type.Integer()),
  activityPrice: Nullable(Type.Integer()),
  /** ms since epoch */
  activityEndsAt: Nullable(Type.Integer()),
  version: Version,
})
export type AdminPriceRow = Static<typeof AdminPriceRow>

export const AdminStockRow = Type.Object({
  zoneId: Type.Integer(),
  /** Units for sale now. */
  free: Type.Integer(),
  /** Units held by unpaid orders: back to `free` if they are cancelled or time out. */
  held: Type.Integer(),
  version: Version,
})
export type AdminStockRow = Static<typeof AdminStockRow>

export const AdminGoodsRow = Type.Object({
  id: Type.Integer(),
  level: Type.Integer(),
  name: Type.String(),
  configName: Type.String(),
  androidVersion: Type.String(),
  maxPerOrder: Type.Integer(),
  onSale: Type.Boolean(),
  version: Version,
  /** Shortest duration first. */
  prices: Type.Array(AdminPriceRow),
  /** One per zone, in the zones' order. */
  stock: Type.Array(AdminStockRow),
})
export type AdminGoodsRow = Static<typeof AdminGoodsRow>

export const AdminZoneRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** Off: no new phone is offered there (orders, flash sales, trials, moves); phones there stay. */
  onSale: Type.Boolean(),
  version: Version,
})
export type AdminZoneRow = Static<typeof AdminZoneRow>

/** GET /catalogue (every role). */
export const AdminCatalogue = Type.Object({
  levels: Type.Array(
    Type.Object({ level: Type.Integer(), name: Type.String(), themeColor: Type.String() }),
  ),
  zones: Type.Array(AdminZoneRow),
  /** In the user site's order: level, sort, id. */
  goods: Type.Array(AdminGoodsRow),
})
export type AdminCatalogue = Static<typeof AdminCatalogue>

export const PriceIdParams = Type.Object({ id: Id })
export type PriceIdParams = Static<typeof PriceIdParams>

/** POST /catalogue/prices/:id (editCatalogue): the row's prices as they should be. */
export const PriceEditBody = Type.Object({
  version: Version,
  goodPrice: Fen,
  oldGoodPrice: Nullable(Fen),
  firstPurchasePrice: Nullable(Fen),
  firstCount: Type.Integer({ minimum: 0, maximum: 10_000 }),
  activityPrice: Nullable(Fen),
  activityEndsAt: Nullable(Type.Integer({ minimum: 1, maximum: 253_402_300_799_999 })),
})
export type PriceEditBody = Static<typeof PriceEditBody>

export const GoodsIdParams = Type.Object({ id: Id })
export type GoodsIdParams = Static<typeof GoodsIdParams>

/**
 * POST /catalogue/goods/:id/on-sale and /catalogue/zones/:id/on-sale (editCatalogue). A goods off sale is
 * neither listed nor sold; a zone off sale is offered for no new phone.
 */
export const OnSaleBody = Type.Object({ version: Version, onSale: Type.Boolean() })
export type OnSaleBody = Static<typeof OnSaleBody>

export const ZoneIdParams = Type.Object({ id: Id })
export type ZoneIdParams = Static<typeof ZoneIdParams>

/** The answer to an on-sale switch of a goods or a zone. */
export const OnSaleRow = Type.Object({
  id: Type.Integer(),
  onSale: Type.Boolean(),
  version: Version,
})
export type OnSaleRow = Static<typeof OnSaleRow>

export const StockParams = Type.Object({ goodId: Id, zoneId: Id })
export type StockParams = Static<typeof StockParams>

/**
 * POST /catalogue/stock/:goodId/:zoneId (editCatalogue): the units for sale from now on. Units held by
 * unpaid orders are not part of it: they stay with their orders and come back on top if released.
 */
export const StockEditBody = Type.Object({
  version: Version,
  free: Type.Integer({ minimum: 0, maximum: MAX_FREE_STOCK }),
})
export type StockEditBody = Static<typeof StockEditBody>

/** What a supplier id maps: our goods (→ an ACEP configuration code) or zone (→ a data-centre id). */
export const MappingKind = Type.Union([Type.Literal('goods'), Type.Literal('zone')])
export type MappingKind = Static<typeof MappingKind>

/** One goods or zone and its supplier id. */
export const SupplierMappingRow = Type.Object({
  kind: MappingKind,
  /** The goods' or zone's id. */
  id: Type.Integer(),
  name: Type.String(),
  /** A goods' system (the catalogue's androidVersion); null for a zone. */
  androidVersion: Nullable(Type.String()),
  /** A goods on sale, a zone open. */
  onSale: Type.Boolean(),
  /** The supplier's id; null: none yet. */
  remoteId: Nullable(Type.String()),
  /**
   * The start-up check asks for it (a goods on sale, every zone): with that supplier running, it cannot
   * be cleared, and a goods without it cannot go on sale.
   */
  required: Type.Boolean(),
})
export type SupplierMappingRow = Static<typeof SupplierMappingRow>

/**
 * GET /catalogue/supplier-mapping (every role): the running supplier's name and the catalogue mapping
 * of `supplier` ('acep', the one real supplier): every goods (the user site's order) and every zone.
 */
export const SupplierMapping = Type.Object({
  /** The supplier adapter this server runs ('sandbox' or 'acep'). */
  runningSupplier: Type.String(),
  /** Whose ids these are. */
  supplier: Type.String(),
  /** The running supplier is `supplier`: its refusals (4058, 4059) apply. */
  enforced: Type.Boolean(),
  goods: Type.Array(SupplierMappingRow),
  zones: Type.Array(SupplierMappingRow),
})
export type SupplierMapping = Static<typeof SupplierMapping>

export const SupplierMappingParams = Type.Object({ kind: MappingKind, id: Id })
export type SupplierMappingParams = Static<typeof SupplierMappingParams>

/**
 * POST /catalogue/supplier-mapping/:kind/:id (editCatalogue): the supplier id from now on, or null to
 * clear it. Checked by #domain/console/catalogue-edits checkRemoteId (trimmed, 1–64 of A–Z a–z 0–9 . _ : -);
 * the schema only bounds the text so a long one is refused before it is read.
 */
export const SupplierMappingBody = Type.Object({
  remoteId: Nullable(Type.String({ maxLength: 256 })),
})
export type SupplierMappingBody = Static<typeof SupplierMappingBody>
