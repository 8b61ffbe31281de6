import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm'
import { durationLabel } from '#domain/catalogue'
import {
  OrderStatus,
  orderStatusLabels,
  type OrderStatus as OrderStatusValue,
} from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import type { RenewalLine } from '../../contract/goods'
import type { OrderInfo, OrderListQuery } from '../../contract/order'
import type { Db } from '../../db/client'
import { intArray } from '../../db/id-arrays'
import { activationCodes, devices, jobs, orders } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { normalisePage, toPaged } from '../../domain/paging'
import type { ServiceContext } from '../context'
import { SYNC_JOB } from '../devices/device-lifecycle'
import type { GoodsService } from '../catalogue/goods-service'
import type { OrderRow } from './order-insert'
import type { OrderDraft } from './order-draft'

export const ORDER_NOT_FOUND = '订单不存在'
export const payLinkPath = (token: string) => `/pages/pay/pay?link=${token}`

export const orderNotFound = () => new BizError(ResultCode.SHOW_ERROR_TIPS, ORDER_NOT_FOUND)
const ms = (date: Date | null) => date?.getTime() ?? null
/** The renewal lines an order's info carries at most (OrderInfo.renewals). */
export const ORDER_INFO_RENEWALS = 100

/** Reading orders as their buyer or payer sees them: order routes, OrderService and payments hold one. */
export class OrderReads {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly goods: GoodsService,
  ) {}

  /** The order if the caller created it or paid it, else 订单不存在 (never someone else's). */
  async ownOrder(userId: number, orderNo: string, db: Db): Promise<OrderRow> {
    const [row] = await db
      .select()
      .from(orders)
      .where(
        and(eq(orders.orderNo, orderNo), or(eq(orders.userId, userId), eq(orders.buyerId, userId))),
      )
    if (!row) throw orderNotFound()
    return row
  }

  async byLink(link: string, db: Db): Promise<OrderRow> {
    const [row] = await db.select().from(orders).where(eq(orders.linkToken, link))
    if (!row) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '支付链接无效或已失效')
    return row
  }

  async getOrderInfo(userId: number, query: { orderNo?: string; link?: string }) {
    if (query.link)
      return this.info(await this.byLink(query.link, this.ctx.db), userId, this.ctx.db)
    if (!query.orderNo) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '缺少参数 orderNo')
    return this.info(await this.ownOrder(userId, query.orderNo, this.ctx.db), userId, this.ctx.db)
  }

  async list(userId: number, query: OrderListQuery) {
    const { page, rows, offset } = normalisePage(query)
    const where = and(
      or(eq(orders.userId, userId), eq(orders.buyerId, userId)),
      query.status === undefined ? undefined : eq(orders.status, query.status),
    )
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(orders).where(where)
    const found = await this.ctx.db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(rows)
      .offset(offset)
    const records = await Promise.all(found.map((row) => this.info(row, userId, this.ctx.db)))
    return toPaged(records, page, rows, total)
  }

  async info(row: OrderRow, viewerId: number, db: Db): Promise<OrderInfo> {
    const good = row.goodId ? await this.goods.getGoods(row.goodId, db) : null
    const zone = row.zoneId ? await this.goods.getZone(row.zoneId, db) : null
    const codes =
      row.kind === 'activationCode' && row.status === OrderStatus.completed
        ? await db
            .select({ code: activationCodes.code })
            .from(activationCodes)
            .where(eq(activationCodes.orderId, row.id))
            .orderBy(asc(activationCodes.id))
        : []
    const detail = row.detail as Pick<OrderDraft, 'lines' | 'renewals'>
    return {
      orderNo: row.orderNo,
      kind: row.kind,
      businessType: row.businessType,
      status: row.status,
      statusText: orderStatusLabels[row.status as OrderStatusValue],
      amount: row.amount,
      originalAmount: row.originalAmount,
      quantity: row.quantity,
      goodId: row.goodId,
      goodsName: good?.name ?? null,
      priceId: row.priceId,
      goodTime: row.goodTime,
      durationLabel: row.goodTime ? durationLabel(row.goodTime) : null,
      zoneId: row.zoneId,
      zoneName: zone?.name ?? null,
      deviceIds: row.deviceIds,
      codes: codes.map((c) => c.code),
      payMethod: row.payMethod,
      payDeadline: row.payDeadline.getTime(),
      createdAt: row.createdAt.getTime(),
      paidAt: ms(row.paidAt),
      completedAt: ms(row.completedAt),
      payLink: row.linkToken ? payLinkPath(row.linkToken) : null,
      remark: row.remark,
      lines: detail.lines ?? [],
      // A studio's renewal has up to 10,000 lines: the first ones show, quantity says how many in all.
      renewals: await this.renewalLines(row, viewerId, detail.renewals ?? [], db),
      isOwner: row.userId === viewerId,
      ...(row.kind === 'renew' ? await this.renewProgress(row, db) : {}),
    }
  }

  /**
   * How far a paid renewal is: nothing done before delivery; after it, every phone whose sync job
   * (enqueued with the order's id, jobs_order_idx, migration 0034) is no longer waiting to run.
   */
  private async renewProgress(row: OrderRow, db: Db): Promise<Pick<OrderInfo, 'progress'>> {
    const total = row.quantity
    if (row.status === OrderStatus.paid) return { progress: { done: 0, total } }
    if (row.status !== OrderStatus.completed) return {}
    const [waiting] = await db
      .select({ count: sql<number>`count(*)::integer` })
      .from(jobs)
      .where(
        and(
          sql`(${jobs.payload}->>'orderId') = ${String(row.id)}`,
          eq(jobs.kind, SYNC_JOB),
          inArray(jobs.status, ['pending', 'running']),
        ),
      )
    return { progress: { done: Math.max(0, total - Number(waiting?.count ?? 0)), total } }
  }

  /**
   * The renewal's first lines as OrderInfo shows them, each with its phone's name for the order's owner:
   * one read of those phones, still theirs (a link holder who pays sees none: names are the owner's).
   */
  private async renewalLines(
    row: OrderRow,
    viewerId: number,
    renewals: RenewalLine[],
    db: Db,
  ): Promise<OrderInfo['renewals']> {
    const shown = renewals.slice(0, ORDER_INFO_RENEWALS)
    const names =
      row.userId === viewerId && shown.length > 0
        ? await db
            .select({ id: devices.id, name: devices.name })
            .from(devices)
            .where(
              and(
                eq(devices.userId, row.userId),
                sql`${devices.id} = any(${intArray(shown.map((line) => line.deviceId))})`,
              ),
            )
        : []
    const nameOf = new Map(names.map((phone) => [phone.id, phone.name]))
    return shown.map(({ deviceId, newExpireAt, amount, extraMs }) => ({
      deviceId,
      newExpireAt,
      amount,
      extraMs,
      deviceName: nameOf.get(deviceId) ?? null,
    }))
  }

  /** The order, locked for the caller's transaction. */
  async lock(tx: Db, orderId: number): Promise<OrderRow | null> {
    const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
    return row ?? null
  }
}
