/**
 * The console's 概览 (console/routes/overview.ts, under ADMIN_API_PREFIX): the day's orders and money,
 * the last 30 days by day, the fleet, provisioning failures and stock per goods × zone. Days are China
 * Standard Time business days (UTC+8, Asia/Shanghai: midnight to midnight), by the server's clock; money is
 * in 分; times are ms since epoch.
 */
import { Type, type Static } from '@sinclair/typebox'

/** One business day's paid orders. */
export const OverviewDay = Type.Object({
  /** '2026-03-02', the day in China Standard Time. */
  day: Type.String(),
  /** Orders paid that day (paidAt in the day), whatever paid them and whatever became of them since. */
  paidOrders: Type.Integer(),
  /**
   * 分 received through a payment provider (Alipay, WeChat Pay) for the orders paid that day, before
   * refunds. Orders paid with beans or the account balance count in `paidOrders` but not here: their
   * money came in (and counted) with the bean or balance recharge order that bought them.
   */
  revenue: Type.Integer(),
})
export type OverviewDay = Static<typeof OverviewDay>

/** A goods in a zone: units still for sale (goods_inventory), and whether that is running low. */
export const OverviewStockRow = Type.Object({
  goodId: Type.Integer(),
  goodsName: Type.String(),
  /** 'B' or 'H' (src/domain/catalogue.ts androidVersionLabel): goods of one name differ by it. */
  androidVersion: Type.String(),
  level: Type.Integer(),
  zoneId: Type.Integer(),
  zoneName: Type.String(),
  stock: Type.Integer(),
  /** Both the goods and the zone are on sale (what is off sale never warns). */
  onSale: Type.Boolean(),
  /** On sale with `stock` at or below `lowStockThreshold`. */
  low: Type.Boolean(),
})
export type OverviewStockRow = Static<typeof OverviewStockRow>

/** GET /overview (every role). */
export const AdminOverview = Type.Object({
  /** The server's time the figures were read at. */
  asOf: Type.Integer(),
  /** Today so far (the last of `days`). */
  today: OverviewDay,
  /** The last 30 business days, oldest first, today last; a day without paid orders is there with 0s. */
  days: Type.Array(OverviewDay),
  phones: Type.Object({
    /** Live phones: 运行中 and 重启中. */
    running: Type.Integer(),
    /** Phones being created (创建中). */
    creating: Type.Integer(),
  }),
  provisioning: Type.Object({
    /** Phones in 创建失败 now (the 云手机 page, status 创建失败). */
    failedPhones: Type.Integer(),
    /** Of the phones created in the last 24 h, those in 创建失败. */
    failedPhones24h: Type.Integer(),
    /** Jobs failed (attempts used up) or stuck (lease long run out) now: the 任务 page's list. */
    failedJobs: Type.Integer(),
    /** Of the jobs created in the last 24 h, those failed or stuck. */
    failedJobs24h: Type.Integer(),
  }),
  /** At or below this many units, a goods × zone on sale is low on stock. */
  lowStockThreshold: Type.Integer(),
  /** Every goods × zone (one never stocked has 0), in the catalogue's order of goods, then zones. */
  stock: Type.Array(OverviewStockRow),
})
export type AdminOverview = Static<typeof AdminOverview>
