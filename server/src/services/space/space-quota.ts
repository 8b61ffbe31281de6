import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { SpaceGrant } from '../../contract/space'
import type { Db } from '../../db/client'
import { spaceGrants, spaceTasks } from '../../db/schema'
import type { OrderRow } from '../orders/order-insert'
import type { SpaceOrderDetail } from './space-packages'

/** How much cloud space a user has (the free quota and bought grants) and how much their backups use. */

/** Every user's free cloud space. */
export const BASE_QUOTA_BYTES = 2 * 1024 ** 3
const DAY_MS = 86_400_000

/**
 * Fulfilment of a paid space order, in its transaction: one grant of the package's space, for its days
 * from now. The order id is unique in space_grants, so a second run grants nothing more.
 */
export async function grantSpace(tx: Db, now: Date, order: OrderRow) {
  const { space } = order.detail as unknown as SpaceOrderDetail
  await tx
    .insert(spaceGrants)
    .values({
      userId: order.buyerId ?? order.userId,
      bytes: space.bytes,
      packageId: space.packageId,
      orderId: order.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + space.days * DAY_MS),
    })
    .onConflictDoNothing({ target: spaceGrants.orderId })
}

/** A backup that counts against the quota: finished and not deleted. */
export const isStoredBackup = and(
  eq(spaceTasks.kind, 'backup'),
  eq(spaceTasks.status, 'done'),
  isNull(spaceTasks.deletedAt),
)

/** Unexpired bought space, soonest to expire first. */
export async function activeGrants(db: Db, userId: number, now: Date): Promise<SpaceGrant[]> {
  const rows = await db
    .select()
    .from(spaceGrants)
    .where(and(eq(spaceGrants.userId, userId), gt(spaceGrants.expiresAt, now)))
    .orderBy(asc(spaceGrants.expiresAt), asc(spaceGrants.id))
  return rows.map((row) => ({
    id: row.id,
    bytes: row.bytes,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  }))
}

/** The free 2 GB plus these grants. */
export const quotaOf = (grants: SpaceGrant[]) =>
  grants.reduce((sum, grant) => sum + grant.bytes, BASE_QUOTA_BYTES)

/** The bytes of the user's stored backups. */
export async function usedBytes(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${spaceTasks.sizeBytes}), 0)` })
    .from(spaceTasks)
    .where(and(eq(spaceTasks.userId, userId), isStoredBackup))
  return Number(row.used)
}

/** Quota left: the free quota and unexpired grants, less the stored backups (negative when over). */
export async function freeBytes(db: Db, userId: number, now: Date): Promise<number> {
  return quotaOf(await activeGrants(db, userId, now)) - (await usedBytes(db, userId))
}
