/**
 * The console's 优惠券 page (console/routes/coupons.ts, under ADMIN_API_PREFIX): templates with their
 * usage, creating and editing a template, and issuing one to numbers or to a segment. Money in fen.
 */
import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from '../../contract/common'

export const TemplateIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
})
export type TemplateIdParams = Static<typeof TemplateIdParams>

/** What an operator sets on a template; src/domain/coupon.ts templateProblem checks the rule fields. */
export const CouponTemplateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 40, pattern: '\\S' }),
  couponType: Type.Integer({ minimum: 1, maximum: 4 }),
  parValue: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
  conditionsUse: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000_000 }))),
  businessType: Type.Integer({ minimum: 1, maximum: 5 }),
  /** Comma list of CouponScope values. */
  scopeApplications: Type.String({ minLength: 1, maxLength: 32, pattern: '^[0-9,]+$' }),
  /** Comma list of ids, durations or a percentage, per the scope. */
  applicableObjects: Type.Optional(
    Nullable(Type.String({ maxLength: 2000, pattern: '^[0-9,]*$' })),
  ),
  /** Comma list of '1'..'4'; empty means effective everywhere. */
  effectiveScope: Type.Optional(Nullable(Type.String({ maxLength: 16, pattern: '^[0-9,]*$' }))),
  validDays: Type.Integer({ minimum: 1, maximum: 3650 }),
})
export type CouponTemplateBody = Static<typeof CouponTemplateBody>

export const CouponTemplateRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  couponType: Type.Integer(),
  parValue: Type.Integer(),
  conditionsUse: Nullable(Type.Integer()),
  businessType: Type.Integer(),
  scopeApplications: Type.String(),
  applicableObjects: Nullable(Type.String()),
  effectiveScope: Nullable(Type.String()),
  validDays: Type.Integer(),
  /** 'welcome': issued to every new account. */
  issueOn: Nullable(Type.String()),
  /** Coupons of this template: all issued, used, expired (or past their end), and still usable. */
  issued: Type.Integer(),
  used: Type.Integer(),
  expired: Type.Integer(),
  unused: Type.Integer(),
})
export type CouponTemplateRow = Static<typeof CouponTemplateRow>

export const CouponTemplateList = Type.Array(CouponTemplateRow)
export type CouponTemplateList = Static<typeof CouponTemplateList>

/** At most this many numbers in one issue request. */
export const MAX_ISSUE_NUMBERS = 5000

/**
 * POST /coupons/templates/:id/issue. `requestId`: made by the console when the dialog opens; sending it
 * again (a retry, a double click) gives nobody a second coupon. Either `numbers` or a segment with `days`.
 */
export const IssueCouponBody = Type.Object({
  requestId: Type.String({ pattern: '^[A-Za-z0-9-]{8,64}$' }),
  target: Type.Union([
    Type.Object({
      kind: Type.Literal('numbers'),
      numbers: Type.Array(Type.String({ maxLength: 32 }), {
        minItems: 1,
        maxItems: MAX_ISSUE_NUMBERS,
      }),
    }),
    Type.Object({
      /** newUsers: registered in the last `days` days; expiringPhones: a phone ending in the next `days`. */
      kind: Type.Union([Type.Literal('newUsers'), Type.Literal('expiringPhones')]),
      days: Type.Integer({ minimum: 1, maximum: 365 }),
    }),
  ]),
})
export type IssueCouponBody = Static<typeof IssueCouponBody>

export const IssueCouponResult = Type.Object({
  /** Users holding a coupon from this request (a retried request counts the ones given before too). */
  issued: Type.Integer(),
  /** Numbers given that belong to no account (only for a list of numbers). */
  unknownNumbers: Type.Array(Type.String()),
})
export type IssueCouponResult = Static<typeof IssueCouponResult>
