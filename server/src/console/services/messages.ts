/**
 * The console's 消息 page: a message to one user, or a broadcast to every user registered when it was
 * sent. A message to one user is its row in `messages`, written with the audit row in one transaction.
 * A broadcast writes its operator_messages row, its audit row and its delivery job in one transaction;
 * the job (console/jobs/deliver-operator-message.ts) then writes the users' rows DELIVERY_BATCH at a time, each
 * batch with its cursor in its own short transaction, so 100,000 users are never one transaction holding
 * locks, and a process dying halfway resumes from the cursor. The unique (operator message, user) key
 * makes a batch written twice harmless. The users read it as any other message: their list, the unread
 * badge and the read marks are the message center's own.
 */
import { and, count, desc, eq, gt, isNotNull, isNull, lte, max, sql } from 'drizzle-orm'
import { OperatorCode } from '#domain/result-codes'
import type {
  OperatorMessagePage,
  OperatorMessageQuery,
  OperatorMessageRow,
  SendMessageBody,
} from '../contract/messages'
import type { Db } from '../../db/client'
import { messages, operatorMessages, operators, users } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { normalisePage, toPaged } from '../../domain/paging'
import { enqueueJob } from '../../job-queue'
import type { ServiceContext } from '../../services/context'
import { MessageKind } from '../../services/engagement'
import type { Actor } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'

export const DELIVER_OPERATOR_MESSAGE_JOB = 'deliver-operator-message'
/** Users given their row per transaction. */
export const DELIVERY_BATCH = 1000
const FULL_NUMBER = /^1\d{10}$/
const MAX_SERIAL = 2147483647
/**
 * Operators' messages are system messages (SPEC 3 type 5): the message center always shows them, whatever
 * the user switched off, as an operator writing to users means it.
 */
const KIND = MessageKind.SYSTEM

export class AdminMessageService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
  ) {}

  /** The user a number or a user id names (a deleted account is nobody: it has no message center). */
  private async findUser(db: Db, user: string) {
    const text = user.trim()
    const byNumber = FULL_NUMBER.test(text)
    if (!byNumber && Number(text) > MAX_SERIAL) return undefined
    const [found] = await db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          byNumber ? eq(users.mobilePhone, text) : eq(users.id, Number(text)),
          isNull(users.deletedAt),
        ),
      )
    return found
  }

  async send(
    actor: Actor & { operatorId: number },
    body: SendMessageBody,
  ): Promise<OperatorMessageRow> {
    const user = body.user?.trim()
    if (!body.broadcast && !user) throw new BizError(OperatorCode.USER_NOT_FOUND)
    const id = await this.ctx.db.transaction(async (tx) => {
      const now = this.ctx.clock.now()
      const { title, content } = body
      if (!body.broadcast) {
        const target = await this.findUser(tx, user!)
        if (!target) throw new BizError(OperatorCode.USER_NOT_FOUND)
        const [sent] = await tx
          .insert(operatorMessages)
          .values({
            operatorId: actor.operatorId,
            userId: target.id,
            title,
            content,
            lastUserId: target.id,
            deliveredThrough: target.id,
            recipients: 1,
            createdAt: now,
            deliveredAt: now,
          })
          .returning({ id: operatorMessages.id })
        await tx.insert(messages).values({
          userId: target.id,
          type: KIND,
          title,
          content,
          createdAt: now,
          operatorMessageId: sent.id,
        })
        await this.audit.record(tx, {
          operatorId: actor.operatorId,
          action: 'message.send',
          targetType: 'user',
          targetId: target.id,
          after: { operatorMessageId: sent.id, title },
          ip: actor.ip,
        })
        return sent.id
      }
      // Recipients: the users there now. One registering later gets the welcome messages, not this.
      const [{ last }] = await tx.select({ last: max(users.id) }).from(users)
      const [sent] = await tx
        .insert(operatorMessages)
        .values({
          operatorId: actor.operatorId,
          userId: null,
          title,
          content,
          lastUserId: last ?? 0,
          createdAt: now,
        })
        .returning({ id: operatorMessages.id })
      await enqueueJob(
        tx,
        now,
        DELIVER_OPERATOR_MESSAGE_JOB,
        { operatorMessageId: sent.id },
        { uniqueKey: `${DELIVER_OPERATOR_MESSAGE_JOB}:${sent.id}` },
      )
      await this.audit.record(tx, {
        operatorId: actor.operatorId,
        action: 'message.broadcast',
        targetType: 'operatorMessage',
        targetId: sent.id,
        after: { title, lastUserId: last ?? 0 },
        ip: actor.ip,
      })
      return sent.id
    })
    return this.row(id)
  }

  /**
   * Writes the next batch of a broadcast's rows and moves its cursor, in one transaction; true while
   * users remain. The row lock on the broadcast serialises two workers; the unique key and the cursor
   * make a batch repeated after a crash write nothing twice.
   */
  async deliverBatch(operatorMessageId: number, batch = DELIVERY_BATCH): Promise<boolean> {
    return this.ctx.db.transaction(async (tx) => {
      const [sent] = await tx
        .select()
        .from(operatorMessages)
        .where(eq(operatorMessages.id, operatorMessageId))
        .for('update')
      if (!sent || sent.deliveredAt) return false
      const recipients = await tx
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            gt(users.id, sent.deliveredThrough),
            lte(users.id, sent.lastUserId),
            isNull(users.deletedAt),
          ),
        )
        .orderBy(users.id)
        .limit(batch)
      const now = this.ctx.clock.now()
      const written = recipients.length
        ? await tx
            .insert(messages)
            .values(
              recipients.map((user) => ({
                userId: user.id,
                type: KIND,
                title: sent.title,
                content: sent.content,
                createdAt: sent.createdAt,
                operatorMessageId,
              })),
            )
            .onConflictDoNothing()
            .returning({ id: messages.id })
        : []
      const done = recipients.length < batch
      await tx
        .update(operatorMessages)
        .set({
          deliveredThrough: done ? sent.lastUserId : recipients[recipients.length - 1].id,
          recipients: sql`${operatorMessages.recipients} + ${written.length}`,
          deliveredAt: done ? now : null,
        })
        .where(eq(operatorMessages.id, operatorMessageId))
      return !done
    })
  }

  /** Newest first, with who sent it, to whom, and how many have read it. */
  async list(query: OperatorMessageQuery): Promise<OperatorMessagePage> {
    const { page, rows, offset } = normalisePage({ page: query.page, rows: query.rows ?? 20 })
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(operatorMessages)
    const found = await this.ctx.db
      .select({ id: operatorMessages.id })
      .from(operatorMessages)
      .orderBy(desc(operatorMessages.createdAt), desc(operatorMessages.id))
      .limit(rows)
      .offset(offset)
    const records = await Promise.all(found.map((row) => this.row(row.id)))
    return toPaged(records, page, rows, total)
  }

  private async row(id: number): Promise<OperatorMessageRow> {
    const [found] = await this.ctx.db
      .select({
        sent: operatorMessages,
        operatorName: operators.name,
        mobile: users.mobilePhone,
        userName: users.name,
      })
      .from(operatorMessages)
      .innerJoin(operators, eq(operators.id, operatorMessages.operatorId))
      .leftJoin(users, eq(users.id, operatorMessages.userId))
      .where(eq(operatorMessages.id, id))
    // messages_operator_message_user_key starts with operator_message_id
    const [{ read }] = await this.ctx.db
      .select({ read: count() })
      .from(messages)
      .where(and(eq(messages.operatorMessageId, id), isNotNull(messages.readAt)))
    const { sent } = found
    return {
      id: sent.id,
      operatorId: sent.operatorId,
      operatorName: found.operatorName,
      userId: sent.userId,
      mobile: found.mobile,
      userName: found.userName,
      title: sent.title,
      content: sent.content,
      recipients: sent.recipients,
      read,
      createdAt: sent.createdAt.getTime(),
      deliveredAt: sent.deliveredAt?.getTime() ?? null,
    }
  }
}
