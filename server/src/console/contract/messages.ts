/**
 * The console's 消息 page (console/routes/messages.ts, under ADMIN_API_PREFIX): send a message to one
 * user or to every user, and list what operators sent. Times are ms since epoch.
 */
import { Type, type Static } from '@sinclair/typebox'
import { MESSAGE_CONTENT_MAX, MESSAGE_TITLE_MAX } from '#domain/console/operator-messages'
import { Nullable, Paged } from '../../contract/common'

/**
 * Title and body within the message center's limits; no control characters (NUL among them: the
 * database's text refuses it, no screen shows the others), and not blank. The body may have line breaks.
 */
export const SendMessageBody = Type.Object(
  {
    /** The one user (broadcast false): a full 11-digit number or a user id. Ignored by a broadcast. */
    user: Type.Optional(Type.String({ pattern: '^\\s*\\d{1,11}\\s*$', maxLength: 16 })),
    broadcast: Type.Boolean(),
    title: Type.String({
      minLength: 1,
      maxLength: MESSAGE_TITLE_MAX,
      pattern: '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$',
    }),
    content: Type.String({
      minLength: 1,
      maxLength: MESSAGE_CONTENT_MAX,
      pattern:
        '^[^\\u0000-\\u0008\\u000b-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u0008\\u000b-\\u001f\\u007f]*$',
    }),
  },
  { additionalProperties: false },
)
export type SendMessageBody = Static<typeof SendMessageBody>

export const OperatorMessageRow = Type.Object({
  id: Type.Integer(),
  operatorId: Type.Integer(),
  operatorName: Type.String(),
  /** The one user it went to; null: a broadcast. */
  userId: Nullable(Type.Integer()),
  mobile: Nullable(Type.String()),
  /** That user's nickname (null for a broadcast). */
  userName: Nullable(Type.String()),
  title: Type.String(),
  content: Type.String(),
  /** Message rows written so far (a broadcast's grow while the delivery job runs). */
  recipients: Type.Integer(),
  /** How many of them the users have read. */
  read: Type.Integer(),
  createdAt: Type.Integer(),
  /** When every recipient had it; null while a broadcast is being delivered. */
  deliveredAt: Nullable(Type.Integer()),
})
export type OperatorMessageRow = Static<typeof OperatorMessageRow>

export const OperatorMessagePage = Paged(OperatorMessageRow)
export type OperatorMessagePage = Static<typeof OperatorMessagePage>

export const OperatorMessageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
})
export type OperatorMessageQuery = Static<typeof OperatorMessageQuery>
