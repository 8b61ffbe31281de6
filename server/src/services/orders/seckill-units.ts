import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { seckillItems, seckillPurchases } from '../../db/schema'

/**
 * An unpaid seckill order closed (cancelled or timed out), in the closing transaction: its unit goes
 * back to the item and the buyer's slot is freed (the purchase row is deleted). No-op for other orders.
 */
export async function releaseSeckillUnit(tx: Db, orderId: number): Promise<void> {
  const [freed] = await tx
    .delete(seckillPurchases)
    .where(eq(seckillPurchases.orderId, orderId))
    .returning({ itemId: seckillPurchases.itemId })
  if (!freed) return
  await tx
    .update(seckillItems)
    .set({ sold: sql`${seckillItems.sold} - 1` })
    .where(eq(seckillItems.id, freed.itemId))
}

/** The seckill order was paid (in the payment's transaction): the unit is the buyer's for good. */
export async function markSeckillPaid(tx: Db, orderId: number): Promise<void> {
  await tx
    .update(seckillPurchases)
    .set({ status: 'paid' })
    .where(eq(seckillPurchases.orderId, orderId))
}
