import { sql } from 'drizzle-orm'
import type { Db } from '../client'
import { couponTemplates } from '../schema'

/**
 * Coupon templates with stable ids. The 新人券 set (issueOn 'welcome') goes to every new account;
 * handing coupons out otherwise (campaigns) is an operator's job outside this app: insert user_coupons
 * rows for a template (docs/coupons.md).
 */
export const COUPON_TEMPLATES: (typeof couponTemplates.$inferInsert)[] = [
  {
    id: 1,
    name: '新人无门槛券',
    couponType: 2,
    parValue: 500,
    conditionsUse: null,
    businessType: 1,
    scopeApplications: '1',
    validDays: 30,
    issueOn: 'welcome',
  },
  {
    id: 2,
    name: '新人满减券',
    couponType: 1,
    parValue: 1000,
    conditionsUse: 5000,
    businessType: 1,
    scopeApplications: '1',
    validDays: 30,
    issueOn: 'welcome',
  },
  {
    id: 3,
    name: '旗舰版新人折扣券',
    couponType: 3,
    parValue: 85,
    conditionsUse: null,
    businessType: 1,
    scopeApplications: '3',
    applicableObjects: '3',
    validDays: 15,
    issueOn: 'welcome',
  },
  {
    id: 4,
    name: '升级满减券',
    couponType: 1,
    parValue: 300,
    conditionsUse: 1000,
    businessType: 2,
    scopeApplications: '1',
    validDays: 30,
    issueOn: null,
  },
  {
    // 首充券: bean recharges only (business type 3), the buyer's first recharge (docs/coupons.md).
    id: 5,
    name: '首充立减3元',
    couponType: 4,
    parValue: 300,
    conditionsUse: 3000,
    businessType: 3,
    scopeApplications: '1',
    validDays: 30,
    issueOn: 'welcome',
  },
  {
    // Cloud-space orders (business type 4); handed out by campaigns, not to every new account.
    id: 6,
    name: '云空间满减券',
    couponType: 1,
    parValue: 500,
    conditionsUse: 2990,
    businessType: 4,
    scopeApplications: '1',
    validDays: 30,
    issueOn: null,
  },
]

export async function seedCoupons(db: Db): Promise<void> {
  await db.insert(couponTemplates).values(COUPON_TEMPLATES).onConflictDoNothing()
  await db.execute(
    sql`select setval(pg_get_serial_sequence('coupon_templates', 'id'), (select max(id) from coupon_templates))`,
  )
}
