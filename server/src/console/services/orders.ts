/**
 * The console's 订单与支付 pages: search, one order with its phones, payment attempts and refunds, the
 * finance refund, and the CSV export. The refund and the export each write their audit row; the refund's
 * in its own transaction, with the order row locked, so two operators refunding at once make one refund.
 */
import { and, asc, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import {
  orderKindLabels,
  orderStatusLabels,
  OrderStatus,
  payMethodLabels,
  type OrderKind,
  type PayMethod,
} from '#domain/order-status'
import { OperatorCode, operatorMessages, type OperatorCodeValue } from '#domain/result-codes'
import {
  ORDER_COUNT_CAP,
  type AdminOrderDetail,
  type AdminOrderPage,
  type AdminOrderRow,
  type OrderFilter,
  type OrderSearchQuery,
} from '../contract/orders'
import type { Db } from '../../db/client'
import { alias } from 'drizzle-orm/pg-core'
import { devices, goods, orders, payments, refunds, users } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { normalisePage, toPaged } from '../../domain/paging'
import type { BeanService } from '../../services/wallet'
import type { ServiceContext } from '../../services/context'
import type { GoodsService } from '../../services/catalogue'
import type { MessageService } from '../../services/engagement'
import type { Actor } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'
import type { OrderRow } from '../../services/orders'
import { refundPaidOrder } from '../../services/orders'

const FULL_NUMBER = /^1\d{10}$/
const MAX_INT = 2_147_483_647

/**
 * What `q` looks for, each by an index: a full number → that user's orders (users_mobile_phone_key, then
 * orders_user_idx); an order number (orders_order_no_key); digits → an order id (orders_pkey) or a user
 * id (orders_user_idx). Anything else matches no order.
 */
export function orderSearchFilter(q: string): SQL | undefined {
  const text = q.trim()
  if (text === '') return undefined
  if (FULL_NUMBER.test(text)) {
    return inArray(
      orders.userId,
      sql`(select ${users.id} from ${users} where ${users.mobilePhone} = ${text})`,
    )
  }
  if (/^\d{1,15}$/.test(text)) {
    const n = Number(text)
    return n <= MAX_INT ? or(eq(orders.id, n), eq(orders.userId, n)) : eq(orders.id, n)
  }
  return eq(orders.orderNo, text.toUpperCase())
}

/** Every filter of GET /orders and /orders.csv as one SQL condition. */
export function orderFilter(filter: OrderFilter): SQL | undefined {
  const parts = [
    orderSearchFilter(filter.q ?? ''),
    filter.status === undefined ? undefined : eq(orders.status, filter.status),
    filter.payMethod === undefined ? undefined : eq(orders.payMethod, filter.payMethod),
    filter.kind === undefined ? undefined : eq(orders.kind, filter.kind),
    filter.from === undefined ? undefined : gte(orders.createdAt, new Date(filter.from)),
    filter.to === undefined ? undefined : lt(orders.createdAt, new Date(filter.to)),
  ].filter((part): part is SQL => part !== undefined)
  return parts.length ? and(...parts) : undefined
}

const ms = (date: Date | null) => date?.getTime() ?? null

const orderColumns = { order: orders, userMobile: users.mobilePhone, userName: users.name }

type OrderWithUser = { order: OrderRow; userMobile: string | null; userName: string | null }

/** The payer of a link order, beside the order's user in one query. */
const buyers = alias(users, 'buyers')

function adminOrderRow({ order, userMobile, userName }: OrderWithUser) {
  return {
    id: order.id,
    orderNo: order.orderNo,
    userId: order.userId,
    userMobile,
    userName,
    buyerId: order.buyerId,
    kind: order.kind,
    status: order.status,
    payMethod: order.payMethod,
    amount: order.amount,
    originalAmount: order.originalAmount,
    quantity: order.quantity,
    createdAt: order.createdAt.getTime(),
    paidAt: ms(order.paidAt),
    closedAt: ms(order.closedAt),
  } satisfies AdminOrderRow
}

/** What an order's refund stands on: the order, its phones, whether a plan order paid on them since. */
interface RefundFacts {
  order: Pick<OrderRow, 'status' | 'kind' | 'userId' | 'buyerId'>
  phones: { userId: number; status: number }[]
  /** A renewal, up/downgrade or video order on one of its phones was paid after it. */
  laterPlanOrderPaid: boolean
  /** One of its refunds through a provider is still requested. */
  refundOpen: boolean
}

/**
 * The refund rule (docs/decisions.md): a refund is the whole order's money, and only when what the order
 * delivered can be taken back in full. A paid order not yet delivered: always (nothing to take back). A
 * delivered new-phone order: its phones are released, so only while every one is still the payer's, not
 * expired, released or renewed/changed by a later order. Any other delivered order is refused: renewal
 * time, a changed configuration, activation codes, recharged beans or balance and space can be used the
 * moment they arrive, so there is no taking them back. null: may be refunded.
 */
export function refundRefusal(facts: RefundFacts): OperatorCodeValue | null {
  const { order } = facts
  switch (order.status) {
    case OrderStatus.unpaid:
    case OrderStatus.cancelled:
    case OrderStatus.timedOut:
      return OperatorCode.ORDER_NOT_PAID
    case OrderStatus.refunded:
      return facts.refundOpen ? OperatorCode.ORDER_REFUNDING : OperatorCode.ORDER_ALREADY_REFUNDED
    case OrderStatus.paid:
      return null
  }
  if (order.kind !== 'new') return OperatorCode.ORDER_NOT_REFUNDABLE
  const owner = order.buyerId ?? order.userId
  const kept = facts.phones.every(
    (phone) =>
      phone.userId === owner &&
      phone.status !== DeviceStatus.released &&
      phone.status !== DeviceStatus.expired,
  )
  return kept && !facts.laterPlanOrderPaid ? null : OperatorCode.ORDER_PHONES_CHANGED
}

/** CSV cells: quoted when needed; a cell a spreadsheet would read as a formula gets a leading '. */
export function csvCell(value: string | number | null): string {
  if (value === null) return ''
  let text = String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const yuan = (fen: number) => (fen / 100).toFixed(2)
/** Beijing time, as the operators read it: 2026-11-27 14:03:05. */
const beijing = (date: Date | null) =>
  date ? new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ') : ''

export const ORDER_CSV_HEADER = [
  '订单ID',
  '订单号',
  '用户ID',
  '用户手机号',
  '类型',
  '状态',
  '支付方式',
  '金额(元)',
  '原价(元)',
  '数量',
  '创建时间(北京)',
  '支付时间(北京)',
  '关闭时间(北京)',
]
/** Rows read per query while exporting: the export never holds more than this many. */
export const CSV_BATCH = 500

function csvLine(row: OrderWithUser): string {
  const { order } = row
  return (
    [
      order.id,
      order.orderNo,
      order.userId,
      row.userMobile,
      orderKindLabels[order.kind as OrderKind] ?? order.kind,
      orderStatusLabels[order.status as OrderStatus] ?? order.status,
      order.payMethod === null ? '' : (payMethodLabels[order.payMethod as PayMethod] ?? ''),
      yuan(order.amount),
      yuan(order.originalAmount),
      order.quantity,
      beijing(order.createdAt),
      beijing(order.paidAt),
      beijing(order.closedAt),
    ]
      .map(csvCell)
      .join(',') + '\r\n'
  )
}

export class AdminOrderService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
    private readonly goods: GoodsService,
    private readonly beans: BeanService,
    private readonly messages: MessageService,
  ) {}

  /**
   * Newest first (orders_created_idx: created_at, id). The total counts at most ORDER_COUNT_CAP + 1
   * matching orders, so a page costs the same with 5,000 orders or 5,000,000.
   */
  async search(query: OrderSearchQuery): Promise<AdminOrderPage> {
    const { page, rows, offset } = normalisePage({ page: query.page, rows: query.rows ?? 20 })
    const where = orderFilter(query)
    const db = this.ctx.db
    const [found, [{ total }]] = await Promise.all([
      db
        .select(orderColumns)
        .from(orders)
        .leftJoin(users, eq(users.id, orders.userId))
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(rows)
        .offset(offset),
      db.select({ total: count() }).from(
        db
          .select({ id: orders.id })
          .from(orders)
          .where(where)
          .limit(ORDER_COUNT_CAP + 1)
          .as('matching'),
      ),
    ])
    const capped = total > ORDER_COUNT_CAP
    return {
      ...toPaged(found.map(adminOrderRow), page, rows, capped ? ORDER_COUNT_CAP : Number(total)),
      capped,
    }
  }

  async detail(orderId: number): Promise<AdminOrderDetail> {
    const db = this.ctx.db
    const [row] = await db
      .select({
        ...orderColumns,
        goodsName: goods.name,
        buyerMobile: buyers.mobilePhone,
        buyerName: buyers.name,
      })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(buyers, eq(buyers.id, orders.buyerId))
      .leftJoin(goods, eq(goods.id, orders.goodId))
      .where(eq(orders.id, orderId))
    if (!row) throw new BizError(OperatorCode.ORDER_NOT_FOUND)
    const { order } = row
    const [owned, paymentRows, refundRows, laterPlanOrderPaid] = await Promise.all([
      this.phonesWithOwners(db, order),
      db
        .select({ payment: payments, payerMobile: users.mobilePhone, payerName: users.name })
        .from(payments)
        .leftJoin(users, eq(users.id, payments.payerId))
        .where(eq(payments.orderId, orderId))
        .orderBy(asc(payments.id)),
      db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.id)),
      this.laterPlanOrderPaid(db, order),
    ])
    const phones = owned.map(({ device }) => device)
    const refusal = refundRefusal({
      order,
      phones,
      laterPlanOrderPaid,
      refundOpen: refundRows.some((refund) => refund.status === 'requested'),
    })
    return {
      order: {
        ...adminOrderRow(row),
        goodId: order.goodId,
        goodsName: row.goodsName,
        zoneId: order.zoneId,
        buyerMobile: row.buyerMobile,
        buyerName: row.buyerName,
        goodTime: order.goodTime,
        remark: order.remark,
        completedAt: ms(order.completedAt),
        refundReason: (order.detail as { refundReason?: string }).refundReason ?? null,
      },
      phones: owned.map(({ device: phone, userMobile, userName }) => ({
        id: phone.id,
        name: phone.name,
        userId: phone.userId,
        userMobile,
        userName,
        status: phone.status,
        expireAt: phone.expireAt.getTime(),
      })),
      payments: paymentRows.map(({ payment, payerMobile, payerName }) => ({
        id: payment.id,
        tradeNo: payment.tradeNo,
        provider: payment.provider,
        payMethod: payment.payMethod,
        payerId: payment.payerId,
        payerMobile,
        payerName,
        amount: payment.amount,
        status: payment.status,
        createdAt: payment.createdAt.getTime(),
        settledAt: ms(payment.settledAt),
      })),
      refunds: refundRows.map((refund) => ({
        id: refund.id,
        refundNo: refund.refundNo,
        paymentId: refund.paymentId,
        provider: refund.provider,
        amount: refund.amount,
        reason: refund.reason,
        status: refund.status,
        attempts: refund.attempts,
        lastError: refund.lastError,
        createdAt: refund.createdAt.getTime(),
        sentAt: ms(refund.sentAt),
        settledAt: ms(refund.settledAt),
      })),
      refundRefusal: refusal === null ? null : operatorMessages[refusal],
    }
  }

  /**
   * A finance operator's refund of a whole order (refundRefusal decides whether): the phones a new-phone
   * order made are released and their stock returned, the money goes back the way it came
   * (refundPaidOrder), the order ends 已退款, and the audit row records before, after and the reason.
   * The order row is locked first, so a second refund at the same time finds it refunded (4043/4042).
   */
  refund(actor: Actor, orderId: number, reason: string): Promise<AdminOrderDetail> {
    const why = reason.trim()
    return this.ctx.db
      .transaction(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
        if (!order) throw new BizError(OperatorCode.ORDER_NOT_FOUND)
        const phones = await this.phonesOf(tx, order, true)
        const openRefunds = await tx
          .select({ id: refunds.id })
          .from(refunds)
          .where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'requested')))
        const refusal = refundRefusal({
          order,
          phones,
          laterPlanOrderPaid: await this.laterPlanOrderPaid(tx, order),
          refundOpen: openRefunds.length > 0,
        })
        if (refusal !== null) throw new BizError(refusal)
        const now = this.ctx.clock.now()
        const released: number[] = []
        for (const phone of phones) {
          await tx
            .update(devices)
            .set({ status: DeviceStatus.released, releasedAt: now, busyOp: null })
            .where(eq(devices.id, phone.id))
          // the expire job's releaseInstances releases the supplier instance of a released phone
          await this.goods.returnStock(tx, phone.goodId, phone.zoneId, 1)
          released.push(phone.id)
        }
        if (order.status === OrderStatus.paid && order.reservedGoodId && order.reservedZoneId) {
          // Not delivered yet: what markPaid took over from the reservation goes back.
          const units = order.kind === 'new' ? order.quantity : 1
          await this.goods.returnStock(tx, order.reservedGoodId, order.reservedZoneId, units)
        }
        const phonesText = released.length ? `，${released.length}台云手机已释放` : ''
        await refundPaidOrder(
          tx,
          { now, beans: this.beans, messages: this.messages },
          order,
          why,
          `订单 ${order.orderNo} 已为您原路退款（${why}）${phonesText}。`,
        )
        await this.audit.record(tx, {
          ...actor,
          action: 'order.refund',
          targetType: 'order',
          targetId: orderId,
          before: { status: order.status, amount: order.amount, payMethod: order.payMethod },
          after: { status: OrderStatus.refunded, reason: why, releasedPhones: released },
        })
      })
      .then(() => this.detail(orderId))
  }

  /**
   * The export: audited first (who asked for which filter), then the rows, newest first, read
   * CSV_BATCH at a time by keyset (created_at, id), so memory stays flat however many orders match.
   * Starts with a UTF-8 BOM so Excel reads the Chinese.
   */
  async exportCsv(actor: Actor, filter: OrderFilter): Promise<AsyncIterable<string>> {
    await this.ctx.db.transaction((tx) =>
      this.audit.record(tx, {
        ...actor,
        action: 'order.export',
        targetType: 'order',
        targetId: null,
        after: { filter },
      }),
    )
    const db = this.ctx.db
    const where = orderFilter(filter)
    async function* lines() {
      yield '\uFEFF' + ORDER_CSV_HEADER.map(csvCell).join(',') + '\r\n'
      let after: { createdAt: Date; id: number } | null = null
      for (;;) {
        const keyset: SQL | undefined = after
          ? sql`(${orders.createdAt}, ${orders.id}) < (${after.createdAt}, ${after.id})`
          : undefined
        const batch: OrderWithUser[] = await db
          .select(orderColumns)
          .from(orders)
          .leftJoin(users, eq(users.id, orders.userId))
          .where(and(where, keyset))
          .orderBy(desc(orders.createdAt), desc(orders.id))
          .limit(CSV_BATCH)
        if (batch.length === 0) return
        yield batch.map(csvLine).join('')
        const last = batch[batch.length - 1].order
        after = { createdAt: last.createdAt, id: last.id }
        if (batch.length < CSV_BATCH) return
      }
    }
    return lines()
  }

  /** The phones a new-phone order made (orders.device_ids), locked when refunding. */
  private async phonesOf(db: Db, order: OrderRow, lock = false) {
    if (order.kind !== 'new' || order.deviceIds.length === 0) return []
    const query = db.select().from(devices).where(inArray(devices.id, order.deviceIds))
    return lock ? query.orderBy(asc(devices.id)).for('update') : query
  }

  /** The phones a new-phone order made, with their owners' number and nickname (one join). */
  private async phonesWithOwners(db: Db, order: OrderRow) {
    if (order.kind !== 'new' || order.deviceIds.length === 0) return []
    return db
      .select({ device: devices, userMobile: users.mobilePhone, userName: users.name })
      .from(devices)
      .leftJoin(users, eq(users.id, devices.userId))
      .where(inArray(devices.id, order.deviceIds))
      .orderBy(asc(devices.id))
  }

  /** A renewal, up/downgrade or video order on one of a new-phone order's phones, paid since. */
  private async laterPlanOrderPaid(db: Db, order: OrderRow): Promise<boolean> {
    if (order.kind !== 'new' || order.deviceIds.length === 0) return false
    const owner = order.buyerId ?? order.userId
    const ids = sql.raw(order.deviceIds.map((id) => String(Math.trunc(id))).join(','))
    const [found] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.userId, owner),
          inArray(orders.kind, ['renew', 'upgrade', 'video']),
          inArray(orders.status, [OrderStatus.paid, OrderStatus.completed]),
          sql`exists (select 1 from jsonb_array_elements_text(${orders.deviceIds}) as d(id) where d.id::int in (${ids}))`,
        ),
      )
      .limit(1)
    return found !== undefined
  }
}
