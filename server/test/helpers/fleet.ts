import assert from 'node:assert/strict'
import { eq, inArray } from 'drizzle-orm'
import { devices, goodsInventory, sandboxInstances } from '../../src/db/schema'
import type { TestApp } from './test-app'

/** Seeded goods: 旗舰版 (all permissions) and 畅享版 (no changeConfig/video); zones 1–4. */
export const FLAGSHIP_GOOD = 301
export const ENJOY_GOOD = 101
export const DAY_MS = 86_400_000
/** The sandbox supplier's default delay in tests. */
export const SUPPLIER_DELAY_MS = 3000

/** Phones bought for `userId` the way a paid order makes them (status creating, jobs enqueued). */
export async function givePhones(
  t: TestApp,
  userId: number,
  quantity: number,
  options: { goodId?: number; zoneId?: number; days?: number } = {},
): Promise<number[]> {
  return t.database.db.transaction((tx) =>
    t.app.services.lifecycle.createDevicesForOrder(tx, {
      userId,
      orderId: 0,
      goodId: options.goodId ?? FLAGSHIP_GOOD,
      zoneId: options.zoneId ?? 1,
      quantity,
      days: options.days ?? 30,
    }),
  )
}

/** Runs due jobs, lets the sandbox finish its work, and runs them again. */
export async function settle(t: TestApp, ms = SUPPLIER_DELAY_MS) {
  await t.app.jobs.runDue(10_000)
  t.clock.advance(ms)
  await t.app.jobs.runDue(10_000)
}

/** Phones bought and provisioned: running. */
export async function runningPhones(
  t: TestApp,
  userId: number,
  quantity: number,
  options: { goodId?: number; zoneId?: number; days?: number } = {},
) {
  const ids = await givePhones(t, userId, quantity, options)
  await settle(t)
  const rows = await deviceRows(t, ids)
  assert.ok(
    rows.every((row) => row.status === 1),
    'every phone is running after provisioning',
  )
  return ids
}

export async function deviceRows(t: TestApp, ids: number[]) {
  return t.database.db.select().from(devices).where(inArray(devices.id, ids)).orderBy(devices.id)
}

export async function deviceRow(t: TestApp, id: number) {
  const [row] = await deviceRows(t, [id])
  return row
}

export async function instanceRow(t: TestApp, instanceId: string) {
  const [row] = await t.database.db
    .select()
    .from(sandboxInstances)
    .where(eq(sandboxInstances.id, instanceId))
  return row
}

export async function stockOf(t: TestApp, goodId: number, zoneId: number) {
  const rows = await t.database.db
    .select()
    .from(goodsInventory)
    .where(eq(goodsInventory.goodId, goodId))
  return rows.find((row) => row.zoneId === zoneId)?.stock ?? 0
}
