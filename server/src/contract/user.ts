import { Type, type Static } from '@sinclair/typebox'
import { Nullable, ZeroOne } from './common'

export const WorkType = Type.Object({ industryId: Type.Integer(), worktypeId: Type.Integer() })
export type WorkType = Static<typeof WorkType>

export const CompanyInfo = Type.Object({
  companyName: Type.String(),
  address: Type.String(),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
})
export type CompanyInfo = Static<typeof CompanyInfo>

export const UserInfo = Type.Object({
  userId: Type.Integer(),
  /** Full number: only ever sent to its owner; the client masks it for display. */
  mobilePhone: Type.String(),
  name: Type.String(),
  avatar: Type.String(),
  userType: Type.Union([Type.Literal(1), Type.Literal(2)]),
  /** Company verification: 0 none, 1 under review, 2 verified (userType 2), 3 rejected. */
  companyStatus: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
  outerUserCheckStatus: ZeroOne,
  realName: Type.String(),
  idCardMasked: Type.String(),
  hasPassword: Type.Boolean(),
  inviteCode: Type.String(),
  openActivityBall: ZeroOne,
  company: Nullable(CompanyInfo),
  workTypes: Type.Array(WorkType),
  createdAt: Type.Integer(),
})
export type UserInfo = Static<typeof UserInfo>

export const UpdateUserInfoBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 100 })),
  avatar: Type.Optional(Type.String({ maxLength: 200 })),
  openActivityBall: Type.Optional(ZeroOne),
})
export type UpdateUserInfoBody = Static<typeof UpdateUserInfoBody>

export const RealNameAuthBody = Type.Object({
  realName: Type.String({ maxLength: 40 }),
  idCard: Type.String({ maxLength: 18 }),
})
export type RealNameAuthBody = Static<typeof RealNameAuthBody>

export const RealNameAuthResult = Type.Object({
  realName: Type.String(),
  idCardMasked: Type.String(),
  outerUserCheckStatus: ZeroOne,
})
export type RealNameAuthResult = Static<typeof RealNameAuthResult>

export const UpdateCompanyInfoBody = Type.Object({
  companyName: Type.String({ minLength: 1, maxLength: 100 }),
  address: Type.String({ minLength: 1, maxLength: 200 }),
  latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  workTypes: Type.Array(WorkType, { maxItems: 20 }),
})
export type UpdateCompanyInfoBody = Static<typeof UpdateCompanyInfoBody>

export const UpdatePasswordBody = Type.Object({
  oldPassword: Type.String({ maxLength: 64 }),
  newPassword: Type.String({ maxLength: 64 }),
})
export type UpdatePasswordBody = Static<typeof UpdatePasswordBody>

export const FirstPasswordBody = Type.Object({ newPassword: Type.String({ maxLength: 64 }) })
export type FirstPasswordBody = Static<typeof FirstPasswordBody>

export const SmsCodeBody = Type.Object({ code: Type.String({ maxLength: 12 }) })
export type SmsCodeBody = Static<typeof SmsCodeBody>

export const MobileTicket = Type.Object({ ticket: Type.String(), expiresIn: Type.Integer() })
export type MobileTicket = Static<typeof MobileTicket>

export const ChangeBindingMobileBody = Type.Object({
  ticket: Type.String({ maxLength: 128 }),
  mobilePhone: Type.String({ maxLength: 20 }),
  code: Type.String({ maxLength: 12 }),
})
export type ChangeBindingMobileBody = Static<typeof ChangeBindingMobileBody>

export const UploadResult = Type.Object({ path: Type.String() })
export type UploadResult = Static<typeof UploadResult>
