import { Type, type Static } from '@sinclair/typebox'
import { ZeroOne } from './common'

export const SmsTypeSchema = Type.String({
  description: 'login | changeOld | changeNew | deleteAccount | setPassword | transfer',
})

export const SendSmsCodeBody = Type.Object({
  mobilePhone: Type.Optional(Type.String({ maxLength: 20 })),
  type: SmsTypeSchema,
})
export type SendSmsCodeBody = Static<typeof SendSmsCodeBody>

export const SendSmsCodeResult = Type.Object({
  /** Seconds before another code may be requested for the same number and type. */
  resendAfter: Type.Integer(),
  expiresIn: Type.Integer({ description: 'seconds' }),
})
export type SendSmsCodeResult = Static<typeof SendSmsCodeResult>

export const SandboxLastSmsQuery = Type.Object({ mobilePhone: Type.String({ maxLength: 20 }) })
export const SandboxLastSms = Type.Object({
  mobilePhone: Type.String(),
  type: Type.String(),
  code: Type.String(),
  sentAt: Type.Integer(),
})
export type SandboxLastSms = Static<typeof SandboxLastSms>

/** Login context SPEC 3 sends with every login; all optional. */
export const LoginContext = {
  preGroup: Type.Optional(Type.String({ maxLength: 64 })),
  shareUser: Type.Optional(Type.Integer()),
  channelCode: Type.Optional(Type.String({ maxLength: 64 })),
  inviteCode: Type.Optional(Type.String({ maxLength: 32 })),
  deviceId: Type.Optional(Type.String({ maxLength: 128 })),
  brand: Type.Optional(Type.String({ maxLength: 64 })),
  deviceModel: Type.Optional(Type.String({ maxLength: 128 })),
  osName: Type.Optional(Type.String({ maxLength: 64 })),
  system: Type.Optional(Type.String({ maxLength: 64 })),
  osVersion: Type.Optional(Type.String({ maxLength: 64 })),
}

export const CodeLoginBody = Type.Object({
  mobilePhone: Type.String({ maxLength: 20 }),
  code: Type.String({ maxLength: 12 }),
  ...LoginContext,
})
export type CodeLoginBody = Static<typeof CodeLoginBody>

export const PasswordLoginBody = Type.Object({
  mobilePhone: Type.String({ maxLength: 20 }),
  password: Type.String({ maxLength: 64 }),
  ...LoginContext,
})
export type PasswordLoginBody = Static<typeof PasswordLoginBody>

export const LoginResult = Type.Object({
  token: Type.String(),
  userId: Type.Integer(),
  firstLogin: ZeroOne,
  showModifyPassword: ZeroOne,
})
export type LoginResult = Static<typeof LoginResult>

export const WxAppletsLoginBody = Type.Object({
  jsCode: Type.String({ minLength: 1, maxLength: 256 }),
})
export type WxAppletsLoginBody = Static<typeof WxAppletsLoginBody>

export const WxOfficialAccountLoginBody = Type.Object({
  jsCode: Type.String({ minLength: 1, maxLength: 256 }),
  loginType: Type.Optional(Type.Integer()),
})
export type WxOfficialAccountLoginBody = Static<typeof WxOfficialAccountLoginBody>

/**
 * bound: true → also the LoginResult fields. bound: false → a bindTicket: the only proof of this WeChat
 * login the bind call takes (single use, for bindTicketExpiresIn seconds, only by the bind of the same
 * kind of login). The openid is informational and proves nothing.
 */
export const WxLoginResult = Type.Object({
  openid: Type.String(),
  bound: Type.Boolean(),
  bindTicket: Type.Optional(Type.String()),
  bindTicketExpiresIn: Type.Optional(Type.Integer({ description: 'seconds' })),
  token: Type.Optional(Type.String()),
  userId: Type.Optional(Type.Integer()),
  firstLogin: Type.Optional(ZeroOne),
  showModifyPassword: Type.Optional(ZeroOne),
})
export type WxLoginResult = Static<typeof WxLoginResult>

/** Binds the WeChat identity of bindTicket to a number proven by an SMS code of type login. */
export const WxBindLoginBody = Type.Object({
  bindTicket: Type.String({ minLength: 1, maxLength: 128 }),
  mobilePhone: Type.String({ maxLength: 20 }),
  code: Type.String({ maxLength: 12 }),
  ...LoginContext,
})
export type WxBindLoginBody = Static<typeof WxBindLoginBody>
