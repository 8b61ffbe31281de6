import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery } from './common'
import { PayScene } from './payment'

export const CommonConfig = Type.Object({
  renewalReminderMsg: Type.String(),
  customerServicePhone: Type.String(),
  customerServiceHours: Type.String(),
  appVersion: Type.String(),
  /**
   * The scenes in which WeChat Pay's provider needs the payer's openid: only there does the client
   * get a WeChat code before createPayment (in WeChat's browser by leaving for its authorisation page).
   * Real WeChat Pay: miniProgram and wechatBrowser (JSAPI); the sandbox: none.
   */
  wechatPayCodeScenes: Type.Array(PayScene),
})
export type CommonConfig = Static<typeof CommonConfig>

export const DictQuery = Type.Object({
  dictType: Type.Union([Type.Literal('industry'), Type.Literal('worktype')]),
})
export type DictQuery = Static<typeof DictQuery>

export const DictEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  value: Type.String(),
  parentId: Nullable(Type.Integer()),
})
export type DictEntry = Static<typeof DictEntry>

export const DeviceStatusEntry = Type.Object({
  status: Type.Integer(),
  name: Type.String(),
  color: Type.String(),
})
export type DeviceStatusEntry = Static<typeof DeviceStatusEntry>

export const SaveUsageLogBody = Type.Object({
  logId: Type.String({ minLength: 1, maxLength: 64 }),
  client: Type.Union([Type.Literal('applet'), Type.Literal('h5')]),
  version: Type.Integer({ minimum: 0, maximum: 1000 }),
  terminalType: Type.String({ maxLength: 32 }),
  accessingPages: Type.String({ maxLength: 2000 }),
  exitMark: Type.Union([Type.Literal(0), Type.Literal(1)]),
})
export type SaveUsageLogBody = Static<typeof SaveUsageLogBody>

export const CustomerServiceInfo = Type.Object({
  url: Nullable(Type.String()),
  phone: Type.String(),
  hours: Type.String(),
})
export type CustomerServiceInfo = Static<typeof CustomerServiceInfo>

export const FeedbackBody = Type.Object({
  content: Type.String({ minLength: 5, maxLength: 500 }),
  contact: Type.Optional(Type.String({ maxLength: 64 })),
})
export type FeedbackBody = Static<typeof FeedbackBody>

export const FeedbackTicket = Type.Object({
  id: Type.Integer(),
  content: Type.String(),
  contact: Nullable(Type.String()),
  /** 0 submitted, 1 replied, 2 closed */
  status: Type.Integer(),
  reply: Nullable(Type.String()),
  createdAt: Type.Integer(),
})
export type FeedbackTicket = Static<typeof FeedbackTicket>

export const FeedbackListQuery = PageQuery

export const Health = Type.Object({ db: Type.Literal('ok') })
export type Health = Static<typeof Health>
