import { sql } from 'drizzle-orm'
import { OrderStatus, PAY_WINDOW_MS } from '#domain/order-status'
import { checkExpectedAmount } from '#domain/pricing'
import { BizError } from '../../domain/biz-error'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import { goodsStockSlots, orders, users } from '../../db/schema'
import { isCheckViolation, isDeadlock, isUniqueViolation, type ServiceContext } from '../context'
import { firstOrderOf } from './buyer-standing'
import type { OrderDraft } from './order-draft'
import type { OrderPricing } from './order-pricing'
import { newOrderNo, orderDetail, type OrderRow } from './order-insert'
import type { OrderItem, OrderRequest } from './order-request'
import type { OrderWriter } from './order-writer'
import { inStockSlot, randomSlot, stockSlot } from '../catalogue/stock-slots'

/** What a new-phone order placed at once is made of (the transaction path writes the same columns). */
export interface NewPhonesOrder {
  orderNo: string
  userId: number
  businessType: number
  amount: number
  originalAmount: number
  quantity: number
  goodId: number
  priceId: number
  goodTime: number
  zoneId: number
  payDeadline: Date
  idempotencyKey: string
  detail: Record<string, unknown>
  createdAt: Date
  /** The buyer's standing the price was worked out for: placed only if it is still theirs. */
  firstOrder: boolean
}

const p = (name: string) => sql.placeholder(name)

/**
 * The stock taken and the order written by one autocommit statement, so the order's cost is one round
 * trip and one commit instead of a transaction of six statements holding the buyer's row.
 *
 * The buyer's row is held only while the statement runs, for the count of their unpaid units. What the
 * buyer's lock decides in the transaction path, PostgreSQL's unique indexes decide here: the same
 * idempotency key twice (orders_user_idempotency_key), two live first orders
 * (orders_live_first_order_key), a taken order number. Either the whole statement takes effect or none
 * of it does.
 */
function placeStatement(db: Db) {
  // Units from one stock slot, only if it holds enough and the buyer's standing is the one priced.
  const slot = stockSlot(db, p('goodId'), p('zoneId'), p('quantity'), p('startSlot'))
  // The buyer's row first, as the transaction path takes it: the order's trigger counts its units
  // there (users.unpaid_units), and rows taken in one order by both paths never deadlock.
  const buyer = db.$with('buyer', { id: users.id }).as(sql`
    select ${users.id} from ${users} where ${users.id} = ${p('userId')} for no key update`)
  const taken = db.$with('taken', { goodId: sql<number>`good_id` }).as(sql`
    update ${goodsStockSlots} set stock = stock - ${p('quantity')} from ${slot}, ${buyer}
    where ${inStockSlot(p('goodId'), p('zoneId'), p('quantity'))}
      and ${firstOrderOf(db, p('userId'))} = ${p('firstOrder')}
    returning good_id`)
  // INSERT … SELECT does not type its parameters from the columns as VALUES does, hence the casts.
  const placed = db.$with('placed', { id: orders.id }).as(sql`
    insert into ${orders} (order_no, user_id, business_type, kind, status, amount, original_amount,
      quantity, good_id, price_id, good_time, zone_id, reserved_good_id, reserved_zone_id,
      reserved_quantity, pay_deadline, idempotency_key, detail, created_at, first_order)
    select ${p('orderNo')}::text, ${p('userId')}::integer, ${p('businessType')}::smallint, 'new',
      ${sql.raw(String(OrderStatus.unpaid))}, ${p('amount')}::integer, ${p('originalAmount')}::integer, ${p('quantity')}::integer,
      ${p('goodId')}::integer, ${p('priceId')}::integer, ${p('goodTime')}::integer,
      ${p('zoneId')}::integer, ${p('goodId')}::integer, ${p('zoneId')}::integer,
      ${p('quantity')}::integer, ${p('payDeadline')}::timestamptz, ${p('idempotencyKey')}::text,
      ${p('detail')}::jsonb, ${p('createdAt')}::timestamptz, ${p('firstOrder')}::boolean
    from taken
    returning id`)
  return db.with(slot, buyer, taken, placed).select().from(placed)
}

/**
 * The order as the statement writes it. Only its id comes back from the database: every other column
 * is what was sent, or the column's default for a new order (a row of 29 columns read back, its dates
 * and JSON parsed again, was a sixth of the server's CPU for an order). server/test/services/order-at-once
 * compares it with the row read back.
 */
function writtenOrder(id: number, order: NewPhonesOrder): OrderRow {
  return {
    id,
    orderNo: order.orderNo,
    userId: order.userId,
    buyerId: null,
    businessType: order.businessType,
    kind: 'new',
    status: OrderStatus.unpaid,
    amount: order.amount,
    originalAmount: order.originalAmount,
    quantity: order.quantity,
    goodId: order.goodId,
    priceId: order.priceId,
    goodTime: order.goodTime,
    zoneId: order.zoneId,
    reservedGoodId: order.goodId,
    reservedZoneId: order.zoneId,
    reservedQuantity: order.quantity,
    deviceIds: [],
    payMethod: null,
    payDeadline: order.payDeadline,
    idempotencyKey: order.idempotencyKey,
    linkToken: null,
    remark: null,
    detail: order.detail,
    createdAt: order.createdAt,
    paidAt: null,
    completedAt: null,
    closedAt: null,
    firstOrder: order.firstOrder,
  }
}

/**
 * Places the order, or answers null having changed nothing: no one stock slot holds the units (the
 * transaction path can take them from several), the buyer's standing is not the one priced, a unique
 * index refused it, the buyer's unpaid units would pass their cap, or PostgreSQL broke a deadlock with
 * a transaction of the buyer's by ending this statement. The caller then takes the transaction path,
 * which tells those cases apart (1017, 1023, 1014, the order the key already made, another order number).
 */
export async function placeNewPhonesAtOnce(
  db: Db,
  order: NewPhonesOrder,
): Promise<OrderRow | null> {
  try {
    const [row] = await preparedOn(db, 'order_place_at_once', placeStatement).execute({
      ...order,
      detail: JSON.stringify(order.detail),
      startSlot: randomSlot(),
    })
    return row ? writtenOrder(row.id, order) : null
  } catch (error) {
    if (
      isUniqueViolation(error) ||
      isDeadlock(error) ||
      isCheckViolation(error, 'users_unpaid_units_cap')
    ) {
      return null
    }
    throw error
  }
}

/**
 * For transactions that lock the buyer's row and then write an order under an idempotency key. The
 * lock is FOR NO KEY UPDATE, so an order placed at once (whose foreign key takes KEY SHARE on the same
 * row) never waits for it; such an order may then commit between the transaction's reads and its
 * insert, which the unique index on the key or on live first orders refuses, or, waiting on each
 * other's rows, the two may deadlock. Run again, the transaction sees that order (the replay, or a
 * buyer no longer on a first order).
 */
export async function againIfRacedByPlacedOrder<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const raced = isUniqueViolation(error, [
      'orders_user_idempotency_key',
      'orders_live_first_order_key',
    ])
    if (!raced && !isDeadlock(error)) throw error
    return run()
  }
}

/**
 * Most orders are new phones without a coupon: they are tried as one statement, priced for the
 * standing whose amount the buyer was shown (an established buyer's first). When that does not place
 * the order, or the order is of another kind, the next writer (the transaction) decides, and answers as
 * it always has.
 */
export class OrderAtOnceWriter implements OrderWriter {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly pricing: OrderPricing,
    private readonly otherwise: OrderWriter,
  ) {}

  async write(request: OrderRequest): Promise<OrderRow> {
    const { item } = request
    const placed =
      request.atOnce && item.kind === 'new' && !item.bigUser
        ? await this.placeNewPhones(request, item)
        : null
    return placed ?? this.otherwise.write(request)
  }

  private async placeNewPhones(
    request: OrderRequest,
    item: Extract<OrderItem, { kind: 'new' }>,
  ): Promise<OrderRow | null> {
    const { ctx } = this
    const userId = request.userId
    for (const firstOrder of [false, true]) {
      let draft: OrderDraft
      try {
        draft = await this.pricing.forBuyer(userId, firstOrder).newPhones(ctx.db, userId, item)
      } catch (error) {
        if (error instanceof BizError) return null
        throw error
      }
      if (draft.amount === 0 || !checkExpectedAmount(request.expectedAmount, draft.amount)) continue
      const now = ctx.clock.now()
      const placed = await placeNewPhonesAtOnce(ctx.db, {
        orderNo: newOrderNo(now),
        userId,
        businessType: draft.businessType,
        amount: draft.amount,
        originalAmount: draft.originalAmount,
        quantity: draft.quantity,
        goodId: item.goodId,
        priceId: item.priceId,
        goodTime: draft.goodTime!,
        zoneId: item.zoneId,
        payDeadline: new Date(now.getTime() + PAY_WINDOW_MS),
        idempotencyKey: request.idempotencyKey,
        detail: orderDetail(draft),
        createdAt: now,
        firstOrder,
      })
      if (placed) return placed
    }
    return null
  }
}
