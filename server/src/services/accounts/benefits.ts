/**
 * One-time new-user benefits, once per person rather than per account (docs/decisions.md "New-user
 * benefits"). A person is known by their phone number and their WeChat identity (openid, unionid);
 * benefit_claims keeps, for each of those keys, the benefits taken under it. Deleting an account frees
 * the number and the WeChat binding but never this record, so a new account registered with either is
 * not a new user again.
 *
 * - welcome: the 新人券 set, issued at registration unless a key of the new account took it before.
 * - trial: the free trial phone, claimed under every key of the account in the claim's transaction (two
 *   live accounts sharing a WeChat unionid meet on its row, and one of them is refused).
 * - firstPurchase: the first-purchase price is used up while the account has a live (unpaid, paid or
 *   completed) new-phone order, exactly as buyer-standing's firstOrderOf decides within one account:
 *   a cancelled or timed-out first order gives it back. An account taking it on is marked
 *   (users.first_purchase_used) from the record, so the order statements read a column of the row they
 *   lock instead of another table.
 * - firstRecharge: a paid bean recharge (buyer-standing's isFirstRecharge), carried the same way
 *   (users.first_recharge_used).
 *
 * What an account took is written under its keys when it lets one go (deletion, a number change) and
 * when it gains one (binding a WeChat), from the account's own state (remember), so accounts made before
 * this record existed are covered too.
 *
 * The keys are HMAC-SHA256 under a server-side pepper (BENEFIT_PEPPER): an 11-digit number hashed
 * plainly is found again by trying every number, so without the pepper the table alone names nobody.
 * Changing the pepper forgets every record.
 */
import { createHmac } from 'node:crypto'
import { eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { benefitClaims, trialClaims, users } from '../../db/schema'
import { firstOrderOf, isFirstRecharge } from '../orders/buyer-standing'

export const BENEFITS = ['welcome', 'trial', 'firstPurchase', 'firstRecharge'] as const
export type Benefit = (typeof BENEFITS)[number]

/** Who a person is, as far as benefits go: the account's number and WeChat identity. */
export interface Identity {
  mobilePhone: string | null
  openId: string | null
  unionId: string | null
}

/** The identity of an account as it is now. */
export async function identityOf(db: Db, userId: number): Promise<Identity> {
  const [row] = await db
    .select({ mobilePhone: users.mobilePhone, openId: users.openId, unionId: users.unionId })
    .from(users)
    .where(eq(users.id, userId))
  return row ?? { mobilePhone: null, openId: null, unionId: null }
}

export class PersonBenefitService {
  constructor(private readonly pepper: string) {}

  /** The record's keys for an identity: one per number, openid and unionid it has. */
  subjects(identity: Identity): string[] {
    const names = [
      identity.mobilePhone && `mobile:${identity.mobilePhone.trim()}`,
      identity.openId && `openid:${identity.openId}`,
      identity.unionId && `unionid:${identity.unionId}`,
    ].filter((name): name is string => Boolean(name))
    return names.map((name) => createHmac('sha256', this.pepper).update(name).digest('hex'))
  }

  /** The benefits taken under any key of the identity. */
  async taken(db: Db, identity: Identity): Promise<Set<Benefit>> {
    const subjects = this.subjects(identity)
    if (subjects.length === 0) return new Set()
    const rows = await db
      .selectDistinct({ benefit: benefitClaims.benefit })
      .from(benefitClaims)
      .where(inArray(benefitClaims.subject, subjects))
    return new Set(rows.map((row) => row.benefit as Benefit))
  }

  /** Writes the benefits as taken under every key of the identity (those already there stay). */
  async record(tx: Db, identity: Identity, benefits: Iterable<Benefit>, now: Date) {
    const subjects = this.subjects(identity)
    const rows = [...benefits].flatMap((benefit) =>
      subjects.map((subject) => ({ subject, benefit, claimedAt: now })),
    )
    if (rows.length > 0) await tx.insert(benefitClaims).values(rows).onConflictDoNothing()
  }

  /**
   * Claims a benefit under every key of the identity, in the claim's transaction: a unique violation
   * when one of them has it, also when another transaction claimed it and committed meanwhile (its row
   * is waited for). The caller has checked `taken` first, so that is the race.
   */
  async claim(tx: Db, identity: Identity, benefit: Benefit, now: Date) {
    const subjects = this.subjects(identity)
    if (subjects.length === 0) return
    await tx
      .insert(benefitClaims)
      .values(subjects.map((subject) => ({ subject, benefit, claimedAt: now })))
  }

  /** What the account itself has taken (see the module comment for each benefit's rule). */
  async takenByAccount(tx: Db, userId: number): Promise<Benefit[]> {
    const [row] = await tx
      .select({
        trial: sql<boolean>`exists (${tx
          .select({ userId: trialClaims.userId })
          .from(trialClaims)
          .where(eq(trialClaims.userId, userId))})`,
        firstOrder: firstOrderOf(tx, sql`${userId}`),
      })
      .from(users)
      .where(eq(users.id, userId))
    if (!row) return []
    const taken: Benefit[] = ['welcome']
    if (row.trial) taken.push('trial')
    if (!row.firstOrder) taken.push('firstPurchase')
    if (!(await isFirstRecharge(tx, userId))) taken.push('firstRecharge')
    return taken
  }

  /**
   * The account is, or was until now, known by this identity: what it took is written under the
   * identity's keys, and what was taken under them before counts as taken by the account. For deletion
   * and a number change (the identity being let go), and binding a WeChat (the one gained).
   */
  async remember(tx: Db, userId: number, identity: Identity, now: Date) {
    await this.record(tx, identity, await this.takenByAccount(tx, userId), now)
    const before = await this.taken(tx, identity)
    await this.carry(tx, userId, before)
  }

  /** Marks the account with the benefits its person took on an earlier account. */
  async carry(tx: Db, userId: number, taken: Set<Benefit>) {
    const marks = {
      ...(taken.has('firstPurchase') && { firstPurchaseUsed: true }),
      ...(taken.has('firstRecharge') && { firstRechargeUsed: true }),
    }
    if (Object.keys(marks).length > 0) await tx.update(users).set(marks).where(eq(users.id, userId))
  }
}
