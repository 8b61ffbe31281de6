import { and, eq, inArray, sql } from 'drizzle-orm'
import { OrderStatus } from '#domain/order-status'
import { OperatorCode, ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { intArray } from '../../db/id-arrays'
import { devices, orders, type OrderKind } from '../../db/schema'
import { BizError } from '../../domain/biz-error'

/**
 * Orders priced against a phone's plan as it is when they are made (its goods, expiry, video edition,
 * zone): a renewal, an up/downgrade, the video edition. A phone has at most one of them open, and one
 * is delivered only onto the plan it was priced against (devices.plan_version, raised by a trigger).
 */
export const PLAN_ORDER_KINDS: readonly OrderKind[] = ['renew', 'upgrade', 'video']

export const isPlanOrderKind = (kind: OrderKind) => PLAN_ORDER_KINDS.includes(kind)

/** What an order keeps to check its phones' plans at delivery: deviceId → plan version. */
export type PlanVersions = Record<string, number>

export const PLAN_CHANGED_REFUND =
  '云手机在付款前已发生变更（续费、变更配置、更换地区或转移），本订单未执行'

/** An unpaid plan order of a phone, or one paid and waiting for delivery. */
export interface OpenPlanOrder {
  orderNo: string
  paid: boolean
}

/** The open plan orders of any of these phones: deviceId → the order. */
export async function openPlanOrders(
  db: Db,
  deviceIds: number[],
): Promise<Map<number, OpenPlanOrder>> {
  const open = new Map<number, OpenPlanOrder>()
  if (deviceIds.length === 0) return open
  const rows = await db
    .select({ orderNo: orders.orderNo, deviceIds: orders.deviceIds, status: orders.status })
    .from(orders)
    .where(
      and(
        inArray(orders.status, [OrderStatus.unpaid, OrderStatus.paid]),
        inArray(orders.kind, [...PLAN_ORDER_KINDS]),
        sql`exists (select 1 from jsonb_array_elements_text(${orders.deviceIds}) as d(id)
          where d.id::integer = any(${intArray(deviceIds)}))`,
      ),
    )
  const asked = new Set(deviceIds)
  for (const row of rows) {
    const order = { orderNo: row.orderNo, paid: row.status === OrderStatus.paid }
    for (const id of row.deviceIds) if (asked.has(id)) open.set(id, order)
  }
  return open
}

/** The refusal naming the open order, as its owner (who pays or cancels it) or an operator reads it. */
export const planOrderOpenRefusal = (
  { orderNo, paid }: OpenPlanOrder,
  reader: 'owner' | 'operator' = 'owner',
) =>
  paid
    ? `该云手机的订单（${orderNo}）已支付，正在生效，请稍后再试`
    : reader === 'owner'
      ? `该云手机有待支付的订单（${orderNo}），请先完成支付或取消该订单`
      : `该云手机有待支付的订单（${orderNo}），请待用户支付或取消该订单后再操作`

/**
 * Refuses any change to these phones' plan or time while one of them has a plan order not yet
 * delivered: delivered later, it would apply a price worked out for a plan that no longer exists, and
 * be refunded whole, every phone of it. The owner hears 1080; an operator (release, reset on the
 * console) 4060. The phones are locked by the caller, as order creation locks them.
 */
export async function refuseWhilePlanOrderOpen(
  db: Db,
  deviceIds: number[],
  reader: 'owner' | 'operator' = 'owner',
): Promise<void> {
  const [order] = (await openPlanOrders(db, deviceIds)).values()
  if (!order) return
  const code = reader === 'owner' ? ResultCode.SHOW_ERROR_TIPS : OperatorCode.DEVICE_PLAN_ORDER_OPEN
  throw new BizError(code, planOrderOpenRefusal(order, reader))
}

/**
 * Locks the phones (of `ownerId`, when given) for the caller's transaction, in id order so two
 * transactions never wait on each other's, and answers their plan versions.
 */
export async function lockPlans(
  tx: Db,
  deviceIds: number[],
  ownerId?: number,
): Promise<PlanVersions> {
  const ids = [...new Set(deviceIds)].sort((a, b) => a - b)
  if (ids.length === 0) return {}
  const rows = await tx
    .select({ id: devices.id, planVersion: devices.planVersion })
    .from(devices)
    .where(
      and(
        sql`${devices.id} = any(${intArray(ids)})`,
        ownerId === undefined ? undefined : eq(devices.userId, ownerId),
      ),
    )
    .orderBy(devices.id)
    .for('update')
  return Object.fromEntries(rows.map((row) => [String(row.id), row.planVersion]))
}

export const PLAN_MOVED_REFUSAL = '云手机已发生变更（续费、变更配置、更换地区或转移），请重新下单'

/** An order made for plans its caller read earlier: refused when one of them has moved on since. */
export function refuseIfPlansMoved(seen: PlanVersions, now: PlanVersions): void {
  for (const [deviceId, version] of Object.entries(seen)) {
    if (now[deviceId] !== version)
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, PLAN_MOVED_REFUSAL)
  }
}

/** Delivery of a plan order: its phones (locked) must still be on the plans it was priced against. */
export async function requirePlansUnchanged(tx: Db, expected: PlanVersions): Promise<void> {
  const now = await lockPlans(tx, Object.keys(expected).map(Number))
  for (const [deviceId, version] of Object.entries(expected)) {
    if (now[deviceId] !== version)
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, PLAN_CHANGED_REFUND)
  }
}
