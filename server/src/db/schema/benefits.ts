import { sql } from 'drizzle-orm'
import { check, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { at } from '../columns'

/**
 * The one-time new-user benefits a person has taken, keyed by who they are rather than by account, so
 * deleting the account and registering the same number (or WeChat) again does not bring them back.
 * `subject` is an HMAC-SHA256 (server-side pepper, BENEFIT_PEPPER) of a phone number, a WeChat openid
 * or a unionid, so the table alone names nobody; it holds no user id and account deletion never
 * touches it (services/accounts/benefits.ts).
 */
export const benefitClaims = pgTable(
  'benefit_claims',
  {
    subject: text('subject').notNull(),
    benefit: text('benefit').notNull(),
    claimedAt: at('claimed_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'benefit_claims_pkey', columns: [t.subject, t.benefit] }),
    check(
      'benefit_claims_benefit_check',
      sql`${t.benefit} in ('welcome', 'trial', 'firstPurchase', 'firstRecharge')`,
    ),
  ],
)
