/** Company account balance: integer fen, never negative, every change in its own ledger. */
import { sql } from 'drizzle-orm'
import { bigint, bigserial, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { orders } from './commerce'
import { users } from './users'
import { at } from '../columns'

export const accountBalances = pgTable(
  'account_balances',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balance: integer('balance').notNull().default(0),
    /** Raised by every change of the balance (services/wallet/ledger.ts): /user/flux's wallet version. */
    version: integer('version').notNull().default(1),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [check('account_balances_balance_check', sql`${t.balance} >= 0`)],
)

/** Every change of an account balance; the sum of `change` per user equals the balance. */
export const accountLedger = pgTable(
  'account_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    change: integer('change').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    /** recharge | order | refund */
    reason: text('reason').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id, {
      onDelete: 'set null',
    }),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('account_ledger_user_idx').on(t.userId, t.createdAt)],
)
