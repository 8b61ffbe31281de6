import { Type, type Static } from '@sinclair/typebox'

export const MessageType = Type.Integer({ minimum: 1, maximum: 5 })

export const Message = Type.Object({
  id: Type.Integer(),
  type: MessageType,
  title: Type.String(),
  content: Type.String(),
  read: Type.Boolean(),
  createdAt: Type.Integer(),
})
export type Message = Static<typeof Message>

export const MessageListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  type: Type.Optional(MessageType),
})
export type MessageListQuery = Static<typeof MessageListQuery>

export const UnreadCount = Type.Object({
  unreadCount: Type.Integer(),
  longAll: Type.Integer(),
  longNotice: Type.Integer(),
  longRenewal: Type.Integer(),
  longTransfer: Type.Integer(),
  longCreate: Type.Integer(),
  longSystem: Type.Integer(),
  longApply: Type.Integer(),
  longAuthentication: Type.Integer(),
  longExamine: Type.Integer(),
  longSettlement: Type.Integer(),
  longSigncontract: Type.Integer(),
})
export type UnreadCount = Static<typeof UnreadCount>

export const ReadMessagesBody = Type.Object({
  ids: Type.Optional(Type.Array(Type.Integer(), { maxItems: 200 })),
  type: Type.Optional(MessageType),
  all: Type.Optional(Type.Boolean()),
})
export type ReadMessagesBody = Static<typeof ReadMessagesBody>

export const ReadMessagesResult = Type.Object({ updated: Type.Integer() })
export type ReadMessagesResult = Static<typeof ReadMessagesResult>

export const MessageSettings = Type.Object({
  notice: Type.Boolean(),
  renewal: Type.Boolean(),
  transfer: Type.Boolean(),
  create: Type.Boolean(),
  /** Always true: system messages cannot be turned off. */
  system: Type.Boolean(),
})
export type MessageSettings = Static<typeof MessageSettings>

export const UpdateMessageSettingsBody = Type.Partial(MessageSettings)
export type UpdateMessageSettingsBody = Static<typeof UpdateMessageSettingsBody>
