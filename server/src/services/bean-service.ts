import { and, eq, gte, sql } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../db/client'
import { beanAccounts, beanLedger } from '../db/schema'
import { BizError } from '../domain/biz-error'
import type { ServiceContext } from './context'

export type BeanReason = 'order' | 'recharge' | 'refund' | 'grant' | 'timeToMonth'

/** Why a balance changed, as the ledger row records it. */
export interface BeanEntry {
  reason: BeanReason
  orderId?: number
  remark?: string
}

function assertPositive(amount: number) {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new RangeError(`bean amount must be positive, got ${amount}`)
}

/**
 * Cloud beans (1 bean = 1 fen when paying). Every balance change writes its ledger row in the caller's
 * transaction, so the ledger always sums to the balance; a debit is a conditional update and can never
 * take the balance below zero, however many run at once.
 */
export class BeanService {
  constructor(private readonly ctx: ServiceContext) {}

  async balance(userId: number, db: Db = this.ctx.db): Promise<number> {
    const [row] = await db
      .select({ balance: beanAccounts.balance })
      .from(beanAccounts)
      .where(eq(beanAccounts.userId, userId))
    return row?.balance ?? 0
  }

  async credit(tx: Db, userId: number, amount: number, entry: BeanEntry): Promise<number> {
    assertPositive(amount)
    const now = this.ctx.clock.now()
    const [row] = await tx
      .insert(beanAccounts)
      .values({ userId, balance: amount, updatedAt: now })
      .onConflictDoUpdate({
        target: beanAccounts.userId,
        set: { balance: sql`${beanAccounts.balance} + ${amount}`, updatedAt: now },
      })
      .returning({ balance: beanAccounts.balance })
    await this.record(tx, userId, amount, row.balance, entry)
    return row.balance
  }

  /** Takes `amount` beans or throws 1015 without changing anything. */
  async debit(tx: Db, userId: number, amount: number, entry: BeanEntry): Promise<number> {
    assertPositive(amount)
    const [row] = await tx
      .update(beanAccounts)
      .set({
        balance: sql`${beanAccounts.balance} - ${amount}`,
        updatedAt: this.ctx.clock.now(),
      })
      .where(and(eq(beanAccounts.userId, userId), gte(beanAccounts.balance, amount)))
      .returning({ balance: beanAccounts.balance })
    if (!row) throw new BizError(ResultCode.CLOUD_BEANS_INSUFFICIENT)
    await this.record(tx, userId, -amount, row.balance, entry)
    return row.balance
  }

  private async record(
    tx: Db,
    userId: number,
    change: number,
    balanceAfter: number,
    entry: BeanEntry,
  ) {
    await tx.insert(beanLedger).values({
      userId,
      change,
      balanceAfter,
      reason: entry.reason,
      orderId: entry.orderId ?? null,
      remark: entry.remark ?? '',
      createdAt: this.ctx.clock.now(),
    })
  }
}
