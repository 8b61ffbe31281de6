/**
 * The console's 优惠券 page: templates with their usage, creating and editing one (checked by the rules
 * the checkout applies, src/domain/coupon.ts), and issuing one to a list of numbers or to a segment.
 * Issuing is idempotent per (request, user): coupon_issues remembers the request, user_coupons'
 * (issue_id, user_id) key lets each user hold one coupon of it, and the audit row is written once, with
 * the row that marks the request finished.
 */
import { isDeepStrictEqual } from 'node:util'
import { and, asc, count, eq, gt, gte, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm'
import { templateProblem } from '#domain/coupon'
import { CouponStatus } from '#domain/enums'
import { DAY_MS } from '#domain/pricing'
import { OperatorCode } from '#domain/result-codes'
import type {
  CouponTemplateBody,
  CouponTemplateList,
  CouponTemplateRow,
  IssueCouponBody,
  IssueCouponResult,
} from '../contract/coupons'
import type { Db } from '../../db/client'
import { couponIssues, couponTemplates, devices, userCoupons, users } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import type { ServiceContext } from '../../services/context'
import type { Actor } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'

/** Users given coupons per transaction: a large segment is issued in steps, each committed on its own. */
export const ISSUE_BATCH = 500
const FULL_NUMBER = /^1\d{10}$/

type Template = typeof couponTemplates.$inferSelect
type Target = IssueCouponBody['target']

const notFound = () => new BizError(OperatorCode.COUPON_TEMPLATE_NOT_FOUND)

/** The body's fields as stored; empty lists stored as null. */
function templateValues(body: CouponTemplateBody) {
  const orNull = (value: string | null | undefined) => (value ? value : null)
  return {
    name: body.name.trim(),
    couponType: body.couponType,
    parValue: body.parValue,
    conditionsUse: body.conditionsUse ?? null,
    businessType: body.businessType,
    scopeApplications: body.scopeApplications,
    applicableObjects: orNull(body.applicableObjects),
    effectiveScope: orNull(body.effectiveScope),
    validDays: body.validDays,
  }
}

function checked(body: CouponTemplateBody) {
  const values = templateValues(body)
  const problem = templateProblem(values)
  if (problem) throw new BizError(OperatorCode.COUPON_TEMPLATE_INVALID, problem)
  return values
}

const ruleSnapshot = (template: Template) => {
  const { id: _id, rules: _rules, issueOn: _issueOn, ...fields } = template
  return fields
}

export class AdminCouponService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
  ) {}

  /** Every template, with the state of its coupons now (a usable coupon past its end counts as expired). */
  async templates(): Promise<CouponTemplateList> {
    const now = this.ctx.clock.now()
    const { db } = this.ctx
    const templates = await db.select().from(couponTemplates).orderBy(asc(couponTemplates.id))
    const usable = sql`${userCoupons.status} = ${CouponStatus.efficient}`
    const stats = await db
      .select({
        templateId: userCoupons.templateId,
        issued: count(),
        used: sql<number>`count(*) filter (where ${userCoupons.status} = ${CouponStatus.used})`,
        expired: sql<number>`count(*) filter (where ${userCoupons.status} = ${CouponStatus.expired} or (${usable} and ${userCoupons.validUntil} <= ${now}))`,
        unused: sql<number>`count(*) filter (where ${usable} and ${userCoupons.validUntil} > ${now})`,
      })
      .from(userCoupons)
      .groupBy(userCoupons.templateId)
    const byTemplate = new Map(stats.map((row) => [row.templateId, row]))
    return templates.map((template) => this.row(template, byTemplate.get(template.id)))
  }

  private row(
    template: Template,
    stats?: { issued: number; used: number; expired: number; unused: number },
  ): CouponTemplateRow {
    return {
      id: template.id,
      name: template.name,
      couponType: template.couponType,
      parValue: template.parValue,
      conditionsUse: template.conditionsUse,
      businessType: template.businessType,
      scopeApplications: template.scopeApplications,
      applicableObjects: template.applicableObjects,
      effectiveScope: template.effectiveScope,
      validDays: template.validDays,
      issueOn: template.issueOn,
      issued: Number(stats?.issued ?? 0),
      used: Number(stats?.used ?? 0),
      expired: Number(stats?.expired ?? 0),
      unused: Number(stats?.unused ?? 0),
    }
  }

  private async template(db: Db, id: number): Promise<Template> {
    const [template] = await db.select().from(couponTemplates).where(eq(couponTemplates.id, id))
    if (!template) throw notFound()
    return template
  }

  create(actor: Actor, body: CouponTemplateBody): Promise<CouponTemplateRow> {
    const values = checked(body)
    return this.ctx.db.transaction(async (tx) => {
      const [created] = await tx.insert(couponTemplates).values(values).returning()
      await this.audit.record(tx, {
        ...actor,
        action: 'coupon.templateCreate',
        targetType: 'couponTemplate',
        targetId: created.id,
        after: ruleSnapshot(created),
      })
      return this.row(created)
    })
  }

  /**
   * A changed template. Coupons already held read their template, so the change applies to them too; an
   * unpaid order keeps the discount it was priced with.
   */
  edit(actor: Actor, id: number, body: CouponTemplateBody): Promise<CouponTemplateRow> {
    const values = checked(body)
    return this.ctx.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(couponTemplates)
        .where(eq(couponTemplates.id, id))
        .for('update')
      if (!before) throw notFound()
      const [after] = await tx
        .update(couponTemplates)
        .set(values)
        .where(eq(couponTemplates.id, id))
        .returning()
      await this.audit.record(tx, {
        ...actor,
        action: 'coupon.templateEdit',
        targetType: 'couponTemplate',
        targetId: id,
        before: ruleSnapshot(before),
        after: ruleSnapshot(after),
      })
      return this.row(after)
    })
  }

  /**
   * Issues the template to the numbers' accounts (each once; unknown numbers reported back) or to a
   * segment, in batches of ISSUE_BATCH. The segment is read at the request's first time (coupon_issues
   * created_at), so a retry reads the same window.
   */
  async issue(actor: Actor, templateId: number, body: IssueCouponBody): Promise<IssueCouponResult> {
    const { db } = this.ctx
    const template = await this.template(db, templateId)
    const request = await this.request(actor, templateId, body)
    let unknownNumbers: string[] = []
    if (body.target.kind === 'numbers') {
      const numbers = [...new Set(body.target.numbers.map((number) => number.trim()))].filter(
        (number) => number !== '',
      )
      const known = new Map<string, number>()
      const valid = numbers.filter((number) => FULL_NUMBER.test(number))
      for (let i = 0; i < valid.length; i += ISSUE_BATCH) {
        const found = await db
          .select({ id: users.id, mobile: users.mobilePhone })
          .from(users)
          .where(inArray(users.mobilePhone, valid.slice(i, i + ISSUE_BATCH)))
        for (const user of found) known.set(user.mobile!, user.id)
      }
      unknownNumbers = numbers.filter((number) => !known.has(number))
      const ids = [...known.values()]
      for (let i = 0; i < ids.length; i += ISSUE_BATCH) {
        await this.give(template, request.id, ids.slice(i, i + ISSUE_BATCH))
      }
    } else {
      let after = 0
      for (;;) {
        const ids = await this.segment(body.target, request.createdAt, after)
        if (ids.length === 0) break
        await this.give(template, request.id, ids)
        after = ids[ids.length - 1]
      }
    }
    return { issued: await this.finish(actor, request.id, templateId, body.target), unknownNumbers }
  }

  /** The request's row: made now, or found (the same template and target) when it is sent again. */
  private async request(actor: Actor, templateId: number, body: IssueCouponBody) {
    const { db } = this.ctx
    await db
      .insert(couponIssues)
      .values({
        id: body.requestId,
        templateId,
        target: body.target,
        operatorId: actor.operatorId,
        createdAt: this.ctx.clock.now(),
      })
      .onConflictDoNothing()
    const [request] = await db
      .select()
      .from(couponIssues)
      .where(eq(couponIssues.id, body.requestId))
    // jsonb keeps its own key order: compare the values, not their text
    if (request.templateId !== templateId || !isDeepStrictEqual(request.target, body.target)) {
      throw new BizError(OperatorCode.COUPON_ISSUE_CONFLICT)
    }
    return request
  }

  /** The next users of a segment after user id `after`, by id (a keyset walk over users' primary key). */
  private async segment(target: Exclude<Target, { kind: 'numbers' }>, at: Date, after: number) {
    const window = target.days * DAY_MS
    const live = and(gt(users.id, after), isNotNull(users.mobilePhone))
    const where =
      target.kind === 'newUsers'
        ? and(live, gte(users.createdAt, new Date(at.getTime() - window)), lte(users.createdAt, at))
        : and(
            live,
            sql`exists (select 1 from ${devices} where ${devices.userId} = ${users.id} and ${isNull(devices.releasedAt)} and ${devices.expireAt} > ${at} and ${devices.expireAt} <= ${new Date(at.getTime() + window)})`,
          )
    const rows = await this.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(where)
      .orderBy(asc(users.id))
      .limit(ISSUE_BATCH)
    return rows.map((row) => row.id)
  }

  /** One batch, committed on its own; a user already holding this request's coupon is skipped. */
  private async give(template: Template, issueId: string, userIds: number[]) {
    const now = this.ctx.clock.now()
    await this.ctx.db
      .insert(userCoupons)
      .values(
        userIds.map((userId) => ({
          userId,
          templateId: template.id,
          validFrom: now,
          validUntil: new Date(now.getTime() + template.validDays * DAY_MS),
          issuedAt: now,
          issueId,
        })),
      )
      .onConflictDoNothing({ target: [userCoupons.issueId, userCoupons.userId] })
  }

  /**
   * How many hold this request's coupon; the first to finish the request (of a retry racing the first
   * try) marks it finished and writes the audit row, in one transaction.
   */
  private finish(actor: Actor, issueId: string, templateId: number, target: Target) {
    return this.ctx.db.transaction(async (tx) => {
      const [{ issued }] = await tx
        .select({ issued: count() })
        .from(userCoupons)
        .where(eq(userCoupons.issueId, issueId))
      const finished = await tx
        .update(couponIssues)
        .set({ issued, finishedAt: this.ctx.clock.now() })
        .where(and(eq(couponIssues.id, issueId), isNull(couponIssues.finishedAt)))
        .returning({ id: couponIssues.id })
      if (finished.length > 0) {
        const shown =
          target.kind === 'numbers' ? { kind: 'numbers', count: target.numbers.length } : target
        await this.audit.record(tx, {
          ...actor,
          action: 'coupon.issue',
          targetType: 'couponTemplate',
          targetId: templateId,
          after: { requestId: issueId, target: shown, issued },
        })
      }
      return issued
    })
  }
}
