/**
 * What the server knows of a buyer before pricing or placing an order: whether their next new-phone
 * order is a first order and their next bean recharge a first recharge (one-time benefits,
 * services/accounts/benefits.ts), what a company buyer may order at once, and the cap on unpaid stock.
 */
import { and, eq, inArray, max, sql, type SQLWrapper } from 'drizzle-orm'
import { BusinessType } from '#domain/enums'
import { OrderStatus } from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import { LIVE_ORDER_STATUSES, orders, users } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { isCheckViolation } from '../context'

/** A company buyer may order this many phones at once whatever the goods' retail limit. */
export const BIG_USER_MAX_PER_ORDER = 500
export const COMPANY_USER_TYPE = 2

/** Company users (userType 2) may order up to BIG_USER_MAX_PER_ORDER phones through a link order. */
export async function isCompany(db: Db, userId: number | null): Promise<boolean> {
  if (userId == null) return false
  const [user] = await db
    .select({ userType: users.userType })
    .from(users)
    .where(eq(users.id, userId))
  return user?.userType === COMPANY_USER_TYPE
}

/**
 * Stock units one user's unpaid orders may hold at once: a personal buyer one retail order's most, a
 * verified company two big-user orders. Kept by a trigger and a check on users (migration 0016), which
 * writes these numbers; server/test/services/plan-orders.test.ts orders one unit past each.
 */
export const UNPAID_UNITS_CAP = { personal: 50, company: 1000 } as const
export const UNPAID_UNITS_REFUSAL =
  '您未支付的订单占用的云机数量已达上限，请先支付或取消未支付的订单'

/** The buyer's cap in SQL, as the check users_unpaid_units_cap writes it (migration 0016). */
const capOf = (userType: SQLWrapper) =>
  sql`case when ${userType} = ${sql.raw(String(COMPANY_USER_TYPE))} then ${sql.raw(
    String(UNPAID_UNITS_CAP.company),
  )} else ${sql.raw(String(UNPAID_UNITS_CAP.personal))} end`

/**
 * Refuses at once (1014 UNPAID_UNITS_REFUSAL) an order of `units` new phones that would take the buyer
 * past their cap, from one read of the buyer's row by its key, before any pricing, lock or write: a
 * capped buyer's refusal costs less than a placed order (it cost several, both order paths trying and
 * failing on the check; docs/performance.md). The order a key already made is answered again as ever,
 * and an order larger than any buyer's allowance is left to the quantity rules, which name the limit.
 * The check on users stays the authority (unpaidUnitsCapped): this read may be a moment old.
 */
export async function refuseOverUnpaidCap(
  db: Db,
  userId: number,
  units: number,
  idempotencyKey: string,
): Promise<void> {
  const unitsAsked = sql`${sql.placeholder('units')}::integer`
  const [buyer] = await preparedOn(db, 'order_over_unpaid_cap', (db) =>
    db
      .select({
        // the key's order is looked for only then (a case expression evaluates the branch it takes)
        refused: sql<boolean>`case when ${users.unpaidUnits} + ${unitsAsked} > ${capOf(users.userType)}
          and ${unitsAsked} <= ${capOf(users.userType)} then not exists (${db
            .select({ id: orders.id })
            .from(orders)
            .where(
              and(
                eq(orders.userId, sql.placeholder('userId')),
                eq(orders.idempotencyKey, sql.placeholder('key')),
              ),
            )}) else false end`,
      })
      .from(users)
      .where(eq(users.id, sql.placeholder('userId'))),
  ).execute({ userId, units, key: idempotencyKey })
  if (buyer?.refused) throw new BizError(ResultCode.GOODS_QUANTITY_OVER_LIMIT, UNPAID_UNITS_REFUSAL)
}

/** Runs writes, answering 1014 with `refusal` when they would take the buyer past UNPAID_UNITS_CAP. */
export async function unpaidUnitsCapped<T>(refusal: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (isCheckViolation(error, 'users_unpaid_units_cap')) {
      throw new BizError(ResultCode.GOODS_QUANTITY_OVER_LIMIT, refusal)
    }
    throw error
  }
}

/**
 * When the user's newest new-phone order that is open, paid or done was placed (null with none: their
 * next is a first order). Read from orders_live_new_idx, whose predicate the condition repeats
 * (LIVE_ORDER_STATUSES are literals: as parameters, PostgreSQL could not match it to the index in a
 * cached plan). Two shapes of this question made PostgreSQL's cached plans costly:
 * - a plain `exists`: once one buyer held most orders, the cached plan expected the first row read to
 *   be the asker's and read all 25,000 for a buyer with none (2.7 ms a check);
 * - the newest row, `order by created_at desc limit 1`: drizzle sends the 1 as a parameter, and a
 *   cached plan, not knowing it, costed the lookup as reading a tenth of the buyer's orders, so
 *   PostgreSQL planned the order statement afresh for every order (as much of the database's CPU as
 *   running it).
 * `max` is planned as that same backward index lookup with a limit of 1 that the plan knows.
 */
export function newestLiveNewOrderOf(db: Db, userId: SQLWrapper) {
  return db
    .select({ createdAt: max(orders.createdAt) })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        sql`${orders.kind} = 'new' and ${orders.status} in (${LIVE_ORDER_STATUSES})`,
      ),
    )
}

/**
 * True when the user's next new-phone order is a first order (priced at the first-purchase price): they
 * have no live new-phone order, and the person behind the account did not use the price on an earlier
 * account (users.first_purchase_used, services/accounts/benefits.ts). So cancelling or letting the first order
 * time out makes the price available again; deleting the account and registering again does not. The
 * flag is read from the user's row by its key, which the order statements lock or read anyway.
 */
export const firstOrderOf = (db: Db, userId: SQLWrapper) =>
  sql<boolean>`((${newestLiveNewOrderOf(db, userId)}) is null and not coalesce((${db
    .select({ used: users.firstPurchaseUsed })
    .from(users)
    .where(eq(users.id, userId))}), false))`

/**
 * Whether the user's next bean recharge is a first recharge (what a 首充券 needs): no paid recharge of
 * theirs, and the person behind the account did not recharge on an earlier one (services/accounts/benefits.ts).
 */
export async function isFirstRecharge(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({
      usedBefore: users.firstRechargeUsed,
      paid: sql<boolean>`exists (${db
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.userId, userId),
            eq(orders.businessType, BusinessType.cloudBeans),
            inArray(orders.status, [OrderStatus.paid, OrderStatus.completed, OrderStatus.refunded]),
          ),
        )})`,
    })
    .from(users)
    .where(eq(users.id, userId))
  return !!row && !row.usedBefore && !row.paid
}
