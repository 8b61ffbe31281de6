/**
 * The console's 用户 pages (console/routes/users.ts, under ADMIN_API_PREFIX): search users, one
 * user's profile, freeze and unfreeze, decide a company-buyer request. Times are ms since epoch; money is
 * integer fen. Numbers are shown in full: looking a user up by number is the operator's job.
 */
import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Paged } from '../../contract/common'

/** Company verification (users.companyStatus): 0 none, 1 requested, 2 verified, 3 rejected. */
export const CompanyStatusSchema = Type.Integer({ minimum: 0, maximum: 3 })

/**
 * GET /users. `q`: a number (full or its last digits), a user id, or part of a company name; empty lists
 * the newest users. `companyStatus` 1 lists the requests waiting for a decision.
 */
export const UserSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 64 })),
  companyStatus: Type.Optional(CompanyStatusSchema),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
})
export type UserSearchQuery = Static<typeof UserSearchQuery>

export const AdminUserRow = Type.Object({
  id: Type.Integer(),
  /** null once the account is deleted. */
  mobile: Nullable(Type.String()),
  name: Type.String(),
  /** 1 personal, 2 company buyer. */
  userType: Type.Integer(),
  companyName: Nullable(Type.String()),
  companyStatus: CompanyStatusSchema,
  frozen: Type.Boolean(),
  createdAt: Type.Integer(),
  lastLoginAt: Nullable(Type.Integer()),
  deletedAt: Nullable(Type.Integer()),
})
export type AdminUserRow = Static<typeof AdminUserRow>
export const AdminUserPage = Paged(AdminUserRow)
export type AdminUserPage = Static<typeof AdminUserPage>

export const AdminUserIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
})
export type AdminUserIdParams = Static<typeof AdminUserIdParams>

/** A short recent list and how many there are in all. */
const Recent = <T extends Parameters<typeof Type.Array>[0]>(record: T) =>
  Type.Object({ total: Type.Integer(), records: Type.Array(record) })

export const AdminUserPhone = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** DeviceStatus (src/domain/device-lifecycle.ts). */
  status: Type.Integer(),
  level: Type.Integer(),
  zoneId: Type.Integer(),
  expireAt: Type.Integer(),
  failReason: Nullable(Type.String()),
  createdAt: Type.Integer(),
})

export const AdminUserOrder = Type.Object({
  id: Type.Integer(),
  orderNo: Type.String(),
  kind: Type.String(),
  /** OrderStatus (src/domain/order-states.ts). */
  status: Type.Integer(),
  amount: Type.Integer(),
  quantity: Type.Integer(),
  createdAt: Type.Integer(),
  paidAt: Nullable(Type.Integer()),
})

export const AdminLedgerEntry = Type.Object({
  id: Type.Integer(),
  change: Type.Integer(),
  balanceAfter: Type.Integer(),
  reason: Type.String(),
  orderId: Nullable(Type.Integer()),
  /** That order's number (CP…), read with the entry. */
  orderNo: Nullable(Type.String()),
  createdAt: Type.Integer(),
})

export const AdminUserCoupon = Type.Object({
  id: Type.Integer(),
  templateName: Type.String(),
  /** CouponStatus (src/domain/enums.ts). */
  status: Type.Integer(),
  validUntil: Type.Integer(),
  issuedAt: Type.Integer(),
  usedAt: Nullable(Type.Integer()),
  discount: Nullable(Type.Integer()),
})

export const AdminUserGrant = Type.Object({
  id: Type.Integer(),
  /** given: this user authorised someone; received: someone authorised this user. */
  direction: Type.Union([Type.Literal('given'), Type.Literal('received')]),
  deviceId: Type.Integer(),
  ownerId: Type.Integer(),
  granteeId: Type.Integer(),
  /** The other user's number and nickname (null once gone). */
  otherMobile: Nullable(Type.String()),
  otherName: Nullable(Type.String()),
  /** 1 view, 2 control. */
  permission: Type.Integer(),
  expiresAt: Type.Integer(),
  revokedAt: Nullable(Type.Integer()),
  createdAt: Type.Integer(),
})

export const AdminUserTransfer = Type.Object({
  id: Type.Integer(),
  direction: Type.Union([Type.Literal('out'), Type.Literal('in')]),
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  fromUserId: Type.Integer(),
  toUserId: Type.Integer(),
  /** The other user's number and nickname (null once gone). */
  otherMobile: Nullable(Type.String()),
  otherName: Nullable(Type.String()),
  createdAt: Type.Integer(),
})

/** GET /users/:id: the profile and a recent list of each thing that hangs off the user. */
export const AdminUserDetail = Type.Object({
  user: Type.Composite([
    AdminUserRow,
    Type.Object({
      companyAddress: Nullable(Type.String()),
      /** Real-name check (users.checkStatus, SPEC). */
      checkStatus: Type.Integer(),
      beanBalance: Type.Integer(),
      accountBalance: Type.Integer(),
    }),
  ]),
  phones: Recent(AdminUserPhone),
  orders: Recent(AdminUserOrder),
  beanLedger: Recent(AdminLedgerEntry),
  accountLedger: Recent(AdminLedgerEntry),
  coupons: Recent(AdminUserCoupon),
  grants: Recent(AdminUserGrant),
  transfers: Recent(AdminUserTransfer),
})
export type AdminUserDetail = Static<typeof AdminUserDetail>

/** POST /users/:id/freeze and /unfreeze: why, for the audit log. */
export const UserActionReasonBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
})
export type UserActionReasonBody = Static<typeof UserActionReasonBody>

/** POST /users/:id/company/verify and /reject: the reason is optional (the user gets a fixed message). */
export const CompanyDecisionBody = Type.Object({
  reason: Type.Optional(Type.String({ maxLength: 200 })),
})
export type CompanyDecisionBody = Static<typeof CompanyDecisionBody>
