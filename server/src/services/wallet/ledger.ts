import { and, eq, gte, sql } from 'drizzle-orm'
import { ResultCode, type ResultCodeValue } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { accountBalances, accountLedger, beanAccounts, beanLedger } from '../../db/schema'
import { BizError } from '../../domain/biz-error'

/**
 * A book: a balance table (integer fen or beans, CHECK balance >= 0) and its ledger table, whose `change`
 * column sums per user to the balance. Cloud beans and the company account are two books kept by the one
 * implementation below; their tables stay apart (same shape, no data to move).
 */
export interface Book {
  name: string
  balances: typeof beanAccounts | typeof accountBalances
  ledger: typeof beanLedger | typeof accountLedger
  /** The answer when a debit finds too little. */
  insufficient: ResultCodeValue
}

export const BEANS: Book = {
  name: 'bean',
  balances: beanAccounts,
  ledger: beanLedger,
  insufficient: ResultCode.CLOUD_BEANS_INSUFFICIENT,
}

export const COMPANY_ACCOUNT: Book = {
  name: 'account',
  balances: accountBalances,
  ledger: accountLedger,
  insufficient: ResultCode.INSUFFICIENT_ACCOUNT_BALANCE,
}

/** Why a balance changed, as its ledger row records it (`remark` only where the book has the column). */
export interface LedgerEntry {
  reason: string
  orderId?: number
  remark?: string
}

/** A zero, negative or fractional amount is a bug in the caller: refused before anything is written. */
function assertPositive(book: Book, amount: number) {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new RangeError(`${book.name} amount must be a positive integer, got ${amount}`)
}

// The two books' tables have the same columns; drizzle's builders want one table type, so they are
// addressed through the bean tables' type (the SQL is generated from the table object passed in).
const tables = (book: Book) => ({
  balances: book.balances as typeof beanAccounts,
  ledger: book.ledger as typeof beanLedger,
})

async function record(
  tx: Db,
  book: Book,
  userId: number,
  change: number,
  balanceAfter: number,
  entry: LedgerEntry,
  now: Date,
) {
  const { remark, ...rest } = entry
  await tx.insert(tables(book).ledger).values({
    userId,
    change,
    balanceAfter,
    reason: rest.reason,
    orderId: rest.orderId ?? null,
    ...(remark === undefined ? {} : { remark }),
    createdAt: now,
  })
}

/** Adds `amount` to the user's balance and writes its ledger row, in the caller's transaction. */
export async function credit(
  tx: Db,
  book: Book,
  userId: number,
  amount: number,
  entry: LedgerEntry,
  now: Date,
): Promise<number> {
  assertPositive(book, amount)
  const { balances } = tables(book)
  const [row] = await tx
    .insert(balances)
    .values({ userId, balance: amount, updatedAt: now })
    .onConflictDoUpdate({
      target: balances.userId,
      set: {
        balance: sql`${balances.balance} + ${amount}`,
        version: sql`${balances.version} + 1`,
        updatedAt: now,
      },
    })
    .returning({ balance: balances.balance })
  await record(tx, book, userId, amount, row.balance, entry, now)
  return row.balance
}

/**
 * Takes `amount` with a conditional update, so the balance never goes below zero however many debits
 * run at once; too little throws the book's `insufficient` code and changes nothing.
 */
export async function debit(
  tx: Db,
  book: Book,
  userId: number,
  amount: number,
  entry: LedgerEntry,
  now: Date,
): Promise<number> {
  assertPositive(book, amount)
  const { balances } = tables(book)
  const [row] = await tx
    .update(balances)
    .set({
      balance: sql`${balances.balance} - ${amount}`,
      version: sql`${balances.version} + 1`,
      updatedAt: now,
    })
    .where(and(eq(balances.userId, userId), gte(balances.balance, amount)))
    .returning({ balance: balances.balance })
  if (!row) throw new BizError(book.insufficient)
  await record(tx, book, userId, -amount, row.balance, entry, now)
  return row.balance
}

/** The user's balance in this book (0 before the first credit). */
export async function balanceOf(db: Db, book: Book, userId: number): Promise<number> {
  const { balances } = tables(book)
  const [row] = await db
    .select({ balance: balances.balance })
    .from(balances)
    .where(eq(balances.userId, userId))
  return row?.balance ?? 0
}
