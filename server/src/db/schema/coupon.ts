/** Coupon templates and the coupons users hold (docs/coupons.md). */
import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { orders } from './commerce'
import { users } from './users'
import { at } from '../columns'

/** What a coupon is: the fields src/domain/coupon.ts checks, plus its name and validity in days. */
export const couponTemplates = pgTable(
  'coupon_templates',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** CouponType 1–5 */
    couponType: smallint('coupon_type').notNull(),
    /** Fen, or tenths for a discount coupon (85 = 8.5折). */
    parValue: integer('par_value').notNull(),
    /** Threshold in fen (full-reduction coupons). */
    conditionsUse: integer('conditions_use'),
    businessType: smallint('business_type').notNull(),
    /** Comma list of CouponScope values. */
    scopeApplications: text('scope_applications').notNull(),
    applicableObjects: text('applicable_objects'),
    rules: jsonb('rules').$type<{ type: number; objectData: string }[]>(),
    effectiveScope: text('effective_scope'),
    validDays: integer('valid_days').notNull(),
    /** 'welcome': issued to every new account. */
    issueOn: text('issue_on'),
  },
  (t) => [
    check('coupon_templates_type_check', sql`${t.couponType} between 1 and 5`),
    check('coupon_templates_par_value_check', sql`${t.parValue} >= 0`),
    check('coupon_templates_valid_days_check', sql`${t.validDays} > 0`),
  ],
)

/** A user's coupon: 1 usable, 2 used, 3 expired, 4 invalid; locked to one unpaid order at most. */
export const userCoupons = pgTable(
  'user_coupons',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => couponTemplates.id),
    status: smallint('status').notNull().default(1),
    validFrom: at('valid_from').notNull(),
    validUntil: at('valid_until').notNull(),
    lockedOrderId: bigint('locked_order_id', { mode: 'number' }).references(() => orders.id, {
      onDelete: 'set null',
    }),
    /** The order that used it and the fen it took off. */
    usedOrderId: bigint('used_order_id', { mode: 'number' }).references(() => orders.id, {
      onDelete: 'set null',
    }),
    discount: integer('discount'),
    issuedAt: at('issued_at').notNull(),
    usedAt: at('used_at'),
    /** The console issue request (coupon_issues) that gave it; one coupon per request and user. */
    issueId: text('issue_id'),
  },
  (t) => [
    index('user_coupons_user_idx').on(t.userId, t.status, t.validUntil),
    uniqueIndex('user_coupons_issue_user_key').on(t.issueId, t.userId),
    index('user_coupons_locked_idx').on(t.lockedOrderId),
    // The expiry job: usable coupons past their end, without reading the used and expired ones.
    index('user_coupons_expiry_idx').on(t.status, t.validUntil),
    // The console's statistics per template, read from the index alone (admin-coupons.ts).
    index('user_coupons_template_idx').on(t.templateId, t.status, t.validUntil),
    check('user_coupons_status_check', sql`${t.status} between 1 and 4`),
  ],
)

/**
 * A console issue request, keyed by the id the console sent: a retried request (or one resumed after the
 * process died) finds its row and gives nobody a second coupon; finishedAt is set, with the audit row,
 * once every batch is in.
 */
export const couponIssues = pgTable('coupon_issues', {
  id: text('id').primaryKey(),
  templateId: integer('template_id')
    .notNull()
    .references(() => couponTemplates.id),
  /** What was asked, as the audit row shows it: numbers or a segment with its N. */
  target: jsonb('target').notNull(),
  operatorId: integer('operator_id'),
  issued: integer('issued'),
  createdAt: at('created_at').notNull(),
  finishedAt: at('finished_at'),
})
