/**
 * The operator console's API, under /vmcloud/admin/api (console/routes/*.ts). Every answer is the same
 * {code,msg,data,ts} envelope as the user API; refusals use `OperatorCode` (src/domain/result-codes.ts).
 * The session is the httpOnly cookie ADMIN_SESSION_COOKIE (Path=/vmcloud/admin, SameSite=Strict, Secure in
 * production); every POST/PUT/PATCH/DELETE but sign-in also needs header `x-csrf-token` equal to the
 * session's `csrfToken`. Which role may call which route: src/domain/console/operator-roles.ts.
 */
import { Type, type Static } from '@sinclair/typebox'
import {
  OPERATOR_NAME_MAX,
  OPERATOR_NAME_PATTERN,
  OPERATOR_PASSWORD_MAX,
  OPERATOR_PASSWORD_MIN,
  OPERATOR_ROLES,
} from '#domain/console/operator-roles'
import { Nullable, Paged } from '../../contract/common'

export const ADMIN_API_PREFIX = '/vmcloud/admin/api'
/** The cookie's path: the console's pages and its API, nothing of the user site. */
export const ADMIN_COOKIE_PATH = '/vmcloud/admin'
export const ADMIN_SESSION_COOKIE = 'vmcloud_admin_session'
export const CSRF_HEADER = 'x-csrf-token'

export const OperatorRoleSchema = Type.Union(OPERATOR_ROLES.map((role) => Type.Literal(role)))

/** A six-digit TOTP code. */
const Totp = Type.String({ pattern: '^[0-9]{6}$', minLength: 6, maxLength: 6 })
const NewPassword = Type.String({
  minLength: OPERATOR_PASSWORD_MIN,
  maxLength: OPERATOR_PASSWORD_MAX,
})

/** POST /session. The name is any text here, so a malformed name gets the same answer as a wrong one. */
export const SignInBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: OPERATOR_PASSWORD_MAX }),
  totp: Type.String({ minLength: 1, maxLength: 6 }),
})
export type SignInBody = Static<typeof SignInBody>

export const OperatorIdentity = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  role: OperatorRoleSchema,
})
export type OperatorIdentity = Static<typeof OperatorIdentity>

/** POST /session and GET /session: who is signed in, and the token unsafe calls send back. */
export const AdminSession = Type.Object({
  operator: OperatorIdentity,
  csrfToken: Type.String(),
})
export type AdminSession = Static<typeof AdminSession>

/** GET /operators: every operator account, oldest first. */
export const OperatorRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  role: OperatorRoleSchema,
  /** ms since epoch; null while the account is enabled. */
  disabledAt: Nullable(Type.Integer()),
  createdAt: Type.Integer(),
})
export type OperatorRow = Static<typeof OperatorRow>
export const OperatorList = Type.Array(OperatorRow)
export type OperatorList = Static<typeof OperatorList>

/** POST /operators (admin). The new operator changes the password after the first sign-in. */
export const CreateOperatorBody = Type.Object({
  name: Type.String({ pattern: OPERATOR_NAME_PATTERN, minLength: 1, maxLength: OPERATOR_NAME_MAX }),
  role: OperatorRoleSchema,
  password: NewPassword,
})
export type CreateOperatorBody = Static<typeof CreateOperatorBody>

/** The TOTP secret is answered this once and never again: show it (and its QR code) to the new operator. */
export const CreatedOperator = Type.Object({
  operator: OperatorRow,
  totpSecret: Type.String(),
  /** otpauth://totp/… for an authenticator app's QR code. */
  otpauthUrl: Type.String(),
})
export type CreatedOperator = Static<typeof CreatedOperator>

/** POST /operators/:id/disable and /enable (admin): the operator as it is now. */
export const OperatorIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) })
export type OperatorIdParams = Static<typeof OperatorIdParams>

/** POST /operators/me/password (any role). Ends the operator's other sessions. */
export const ChangeOperatorPasswordBody = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: OPERATOR_PASSWORD_MAX }),
  newPassword: NewPassword,
  totp: Totp,
})
export type ChangeOperatorPasswordBody = Static<typeof ChangeOperatorPasswordBody>

/**
 * What the audit log records. `cli` rows are admin:create's (no operator). Later console actions add
 * their names here.
 */
export const AUDIT_ACTIONS = [
  'session.signIn',
  'session.signOut',
  'operator.create',
  'operator.disable',
  'operator.enable',
  'operator.password',
  'user.freeze',
  'user.unfreeze',
  'company.verify',
  'company.reject',
  'catalogue.price',
  'catalogue.onSale',
  'catalogue.zoneOnSale',
  'catalogue.stock',
  'catalogue.mapping',
  'order.refund',
  'order.export',
  'device.retryProvision',
  'device.release',
  'device.reset',
  'job.retry',
  'coupon.templateCreate',
  'coupon.templateEdit',
  'coupon.issue',
  'message.send',
  'message.broadcast',
  'settings.common',
  'settings.activity',
  'settings.seckillItem',
  'app.add',
  'app.hide',
  'app.show',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** GET /audit (admin): newest first, filtered by any of operator, action, target. */
export const AuditQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  operatorId: Type.Optional(Type.Integer({ minimum: 1 })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  targetType: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
})
export type AuditQuery = Static<typeof AuditQuery>

export const AuditRow = Type.Object({
  id: Type.Integer(),
  /** ms since epoch */
  at: Type.Integer(),
  /** null for admin:create (actor 'cli'). */
  operatorId: Nullable(Type.Integer()),
  operatorName: Nullable(Type.String()),
  actor: Type.Union([Type.Literal('operator'), Type.Literal('cli')]),
  action: Type.String(),
  targetType: Type.String(),
  targetId: Nullable(Type.String()),
  /**
   * The target by what the console calls it, read in the same query: a user's nickname, an order's
   * number, a phone's, coupon template's, goods', zone's, operator's or activity's name, a price's goods
   * name. null when it has none (or no longer exists).
   */
  targetName: Nullable(Type.String()),
  /** A user target's number (null for other targets, or once the account is deleted). */
  targetMobile: Nullable(Type.String()),
  /** A price target's duration in days (goods_price), else null. */
  targetDays: Nullable(Type.Integer()),
  /**
   * Names of what before/after refer to by id, keyed `device:10` (releasedPhones), `goods:3`
   * (goodId), `zone:2` (zoneId).
   */
  refNames: Type.Record(Type.String(), Type.String()),
  /** The target before and after, as JSON; never a password hash or TOTP secret. */
  before: Type.Unknown(),
  after: Type.Unknown(),
  ip: Nullable(Type.String()),
})
export type AuditRow = Static<typeof AuditRow>
export const AuditPage = Paged(AuditRow)
export type AuditPage = Static<typeof AuditPage>
