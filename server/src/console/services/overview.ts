/**
 * The console's 概览: a handful of aggregate queries, each answered by the database (counts and sums grouped
 * there, never rows summed here). Reading only: no audit row.
 *
 * Business days are China Standard Time (UTC+8, as Asia/Shanghai keeps it all year), by the server's clock,
 * as the SMS quota counts them (startOfChinaDay). A day's figures are the orders whose paidAt falls in it.
 */
import { and, asc, count, eq, gte, inArray, lt, or, sql } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { PayMethod } from '#domain/order-status'
import type { AdminOverview, OverviewDay, OverviewStockRow } from '../contract/overview'
import { devices, goods, goodsInventory, jobs, orders, zones } from '../../db/schema'
import { chinaDateTime } from '../../domain/china-time'
import { startOfChinaDay } from '../../domain/sms-policy'
import { STUCK_AFTER_MS } from './devices'
import type { ServiceContext } from '../../services/context'

/** How many business days the daily figures cover, today included. */
export const OVERVIEW_DAYS = 30
/**
 * A goods × zone on sale with this many units or fewer left is low on stock (库存不足): about a day's
 * orders of one goods in one zone at today's volumes, so an operator adding stock that day keeps it on sale.
 */
export const LOW_STOCK_THRESHOLD = 10
const DAY_MS = 86_400_000
const WINDOW_24H_MS = DAY_MS

/** Money through a payment provider; beans and the account balance were paid for by a recharge order. */
const PROVIDER_PAY_METHODS = sql.raw([PayMethod.alipay, PayMethod.wechatPay].join(', '))

/** '2026-03-02': the China Standard Time date of the business day starting at `start`. */
const dayLabel = (start: number) => chinaDateTime(start).slice(0, 10)

export class AdminOverviewService {
  constructor(private readonly ctx: ServiceContext) {}

  async read(): Promise<AdminOverview> {
    const db = this.ctx.db
    const now = this.ctx.clock.now()
    const todayStart = startOfChinaDay(now).getTime()
    const first = new Date(todayStart - (OVERVIEW_DAYS - 1) * DAY_MS)
    const end = new Date(todayStart + DAY_MS)
    const since24h = new Date(now.getTime() - WINDOW_24H_MS)
    const stuckBefore = new Date(now.getTime() - STUCK_AFTER_MS)
    const failedOrStuck = or(
      eq(jobs.status, 'failed'),
      and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, stuckBefore)),
    )

    const [paidByDay, phoneCounts, [failedPhones24h], [jobCounts], stockRows] = await Promise.all([
      // the day's index in the window: whole days since `first`, which starts a China day
      db
        .select({
          day: sql<number>`floor(extract(epoch from (${orders.paidAt} - ${first.toISOString()}::timestamptz)) / 86400)::int`,
          paidOrders: sql<number>`count(*)::int`,
          revenue: sql<number>`coalesce(sum(${orders.amount}) filter (where ${orders.payMethod} in (${PROVIDER_PAY_METHODS})), 0)::float8`,
        })
        .from(orders)
        .where(and(gte(orders.paidAt, first), lt(orders.paidAt, end)))
        .groupBy(sql`1`),
      db
        .select({ status: devices.status, phones: count() })
        .from(devices)
        .where(
          inArray(devices.status, [
            DeviceStatus.running,
            DeviceStatus.rebooting,
            DeviceStatus.creating,
            DeviceStatus.failed,
          ]),
        )
        .groupBy(devices.status),
      db
        .select({ phones: count() })
        .from(devices)
        .where(and(eq(devices.status, DeviceStatus.failed), gte(devices.createdAt, since24h))),
      db
        .select({
          failedJobs: count(),
          failedJobs24h: sql<number>`(count(*) filter (where ${jobs.createdAt} >= ${since24h}))::int`,
        })
        .from(jobs)
        .where(failedOrStuck),
      db
        .select({
          goodId: goods.id,
          goodsName: goods.name,
          androidVersion: goods.androidVersion,
          level: goods.level,
          goodsOnSale: goods.onSale,
          zoneId: zones.id,
          zoneName: zones.name,
          zoneOnSale: zones.onSale,
          stock: sql<number>`coalesce(${goodsInventory.stock}, 0)::int`,
        })
        .from(goods)
        .crossJoin(zones)
        .leftJoin(
          goodsInventory,
          and(eq(goodsInventory.goodId, goods.id), eq(goodsInventory.zoneId, zones.id)),
        )
        .orderBy(asc(goods.level), asc(goods.sort), asc(goods.id), asc(zones.sort), asc(zones.id)),
    ])

    const byIndex = new Map(paidByDay.map((row) => [Number(row.day), row]))
    const days: OverviewDay[] = Array.from({ length: OVERVIEW_DAYS }, (_, index) => {
      const found = byIndex.get(index)
      return {
        day: dayLabel(first.getTime() + index * DAY_MS),
        paidOrders: Number(found?.paidOrders ?? 0),
        revenue: Number(found?.revenue ?? 0),
      }
    })
    const phonesIn = (...statuses: number[]) =>
      phoneCounts
        .filter((row) => statuses.includes(row.status))
        .reduce((sum, row) => sum + Number(row.phones), 0)

    return {
      asOf: now.getTime(),
      today: days[days.length - 1],
      days,
      phones: {
        running: phonesIn(DeviceStatus.running, DeviceStatus.rebooting),
        creating: phonesIn(DeviceStatus.creating),
      },
      provisioning: {
        failedPhones: phonesIn(DeviceStatus.failed),
        failedPhones24h: Number(failedPhones24h.phones),
        failedJobs: Number(jobCounts.failedJobs),
        failedJobs24h: Number(jobCounts.failedJobs24h),
      },
      lowStockThreshold: LOW_STOCK_THRESHOLD,
      stock: stockRows.map((row): OverviewStockRow => {
        const onSale = row.goodsOnSale && row.zoneOnSale
        const stock = Number(row.stock)
        return {
          goodId: row.goodId,
          goodsName: row.goodsName,
          androidVersion: row.androidVersion,
          level: row.level,
          zoneId: row.zoneId,
          zoneName: row.zoneName,
          stock,
          onSale,
          low: onSale && stock <= LOW_STOCK_THRESHOLD,
        }
      }),
    }
  }
}
