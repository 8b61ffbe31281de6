import { and, asc, eq, gte, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import { goodsInventory, goodsStockSlots, STOCK_SLOTS, zones } from '../../db/schema'

/**
 * Taking and giving back stock, slot by slot: a goods × zone's units are spread over STOCK_SLOTS rows
 * (see schema-commerce.ts), goods_inventory being their sum. GoodsService hands its reserve and return
 * calls here; order-at-once.ts's one-statement order takes its units with stockSlot and inStockSlot.
 */

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

/**
 * Takes n units if the goods × zone has that many left, so concurrent buyers never oversell. First
 * from one slot holding n, picked at random (the row an order then holds until it commits); failing
 * that, with every slot locked in slot order, from as many slots as it takes.
 */
export async function reserveStock(
  tx: Db,
  goodId: number,
  zoneId: number,
  n: number,
): Promise<boolean> {
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
export async function returnStock(
  tx: Db,
  goodId: number,
  zoneId: number,
  n: number,
): Promise<void> {
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

/** The first zone on sale (in display order) with a unit of the goods left, reserving it; null when sold out. */
export async function reserveAnyZone(tx: Db, goodId: number): Promise<number | null> {
  const candidates = await tx
    .select({ zoneId: goodsInventory.zoneId })
    .from(goodsInventory)
    .innerJoin(zones, eq(zones.id, goodsInventory.zoneId))
    .where(
      and(eq(goodsInventory.goodId, goodId), gte(goodsInventory.stock, 1), eq(zones.onSale, true)),
    )
    .orderBy(asc(zones.sort), asc(zones.id))
  for (const { zoneId } of candidates) {
    if (await reserveStock(tx, goodId, zoneId, 1)) return zoneId
  }
  return null
}
