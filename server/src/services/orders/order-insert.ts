/** An order row inserted under a fresh order number (the transaction path and the one-statement path share it). */
import { randomInt } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { PgInsertValue } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import { orders } from '../../db/schema'
import type { OrderDraft } from './order-draft'

export type OrderRow = typeof orders.$inferSelect

const pad2 = (n: number) => String(n).padStart(2, '0')

/**
 * 'CP' + UTC yyyymmddHHMMss + 8 random digits: sortable, unguessable enough, shown to users. With 6,
 * ~1,800 orders in one second drew a taken number for 0.1% of them (each then placed by the slower
 * transaction path); with 8, for 0.002%.
 */
export function newOrderNo(now: Date): string {
  const d = now
  const stamp = `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}${pad2(d.getUTCSeconds())}`
  return `CP${stamp}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`
}

/** A taken order number is drawn again this many times at most. */
const ORDER_NO_DRAWS = 5

/** A short number for each shape of order insert (statement names are at most 63 bytes). */
const insertShapes = new Map<string, number>()
function insertShapeIndex(shape: string): number {
  let index = insertShapes.get(shape)
  if (index === undefined) {
    index = insertShapes.size
    insertShapes.set(shape, index)
  }
  return index
}

/**
 * Inserts an order under a fresh order number. Numbers are unguessable but not unique by construction
 * (8 random digits a second): at a few hundred orders a second two meet now and then, so a taken number
 * is drawn again instead of failing the order.
 */
export async function insertOrder(
  tx: Db,
  values: Omit<typeof orders.$inferInsert, 'orderNo'>,
  now: Date,
  draw: (now: Date) => string = newOrderNo,
): Promise<OrderRow> {
  // One statement per shape: the columns given, and which of them are null (a placeholder would pass
  // null through the column's encoder, and a column not given takes its default).
  const given = Object.entries(values).filter(([, value]) => value !== undefined)
  const shape = given.map(([key, value]) => (value === null ? `${key}:null` : key)).join(',')
  const insert = preparedOn(tx, `insert_order_${insertShapeIndex(shape)}`, (db) =>
    db
      .insert(orders)
      .values({
        ...Object.fromEntries(
          given.map(([key, value]) => [key, value === null ? null : sql.placeholder(key)]),
        ),
        orderNo: sql.placeholder('orderNo'),
      } as PgInsertValue<typeof orders>)
      .onConflictDoNothing({ target: orders.orderNo })
      .returning(),
  )
  for (let attempt = 0; attempt < ORDER_NO_DRAWS; attempt++) {
    const [order] = await insert.execute({ ...values, orderNo: draw(now) })
    if (order) return order
  }
  throw new Error(`no free order number in ${ORDER_NO_DRAWS} draws`)
}

/** What an order keeps of its draft: the lines shown, and what fulfilment applies. */
export const orderDetail = (draft: OrderDraft) => ({
  lines: draft.lines,
  renewals: draft.renewals,
  upgrade: draft.upgrade,
})
