import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { epochMs, jsonRecord, newestFirstJsonPage, pagedJson } from '../../db/page-with-total'
import { preparedOn } from '../../db/prepared'
import { messageSettings, messages } from '../../db/schema'
import { normalisePage, type PageRequest } from '../../domain/paging'
import type {
  Message,
  MessageSettings,
  UnreadCount,
  UpdateMessageSettingsBody,
} from '../../contract/message'
import type { ServiceContext } from '../context'

/** The caller's unread messages counted by type. */
const unreadByType = (db: Db) =>
  db
    .select({ type: messages.type, n: count() })
    .from(messages)
    .where(and(eq(messages.userId, sql.placeholder('userId')), isNull(messages.readAt)))
    .groupBy(messages.type)

/**
 * A page of the caller's messages, newest first, of one type or of all, as one JSON array, with their
 * total: one row, even past the last page.
 */
function messagePage(db: Db, byType: boolean, first: boolean) {
  const where = and(
    eq(messages.userId, sql.placeholder('userId')),
    byType ? eq(messages.type, sql.placeholder('type')) : undefined,
  )
  const record = jsonRecord<Message>({
    id: messages.id,
    type: messages.type,
    title: messages.title,
    content: messages.content,
    read: sql`${messages.readAt} is not null`,
    createdAt: epochMs(messages.createdAt),
  })
  return newestFirstJsonPage(db, messages, where, record, first)
}

/** SPEC 3 message types. */
export const MessageKind = {
  NOTICE: 1,
  RENEWAL: 2,
  TRANSFER: 3,
  CREATE: 4,
  SYSTEM: 5,
} as const
export type MessageKind = (typeof MessageKind)[keyof typeof MessageKind]

const SETTING_OF_KIND = {
  1: 'notice',
  2: 'renewal',
  3: 'transfer',
  4: 'create',
} as const

const ALL_ON: MessageSettings = {
  notice: true,
  renewal: true,
  transfer: true,
  create: true,
  system: true,
}

export const WELCOME_MESSAGES = [
  {
    type: MessageKind.SYSTEM,
    title: '欢迎使用云手机',
    content: '注册成功！在「创建云手机」选购配置，几分钟即可拥有一台 7×24 小时在线的云端手机。',
  },
  {
    type: MessageKind.NOTICE,
    title: '新用户指南',
    content:
      '云手机到期前我们会发消息提醒您续费；到期后数据保留2小时，请及时续费。如有问题请联系在线客服。',
  },
] as const

export class MessageService {
  constructor(private readonly ctx: ServiceContext) {}

  async getSettings(userId: number, db: Db): Promise<MessageSettings> {
    const [row] = await db.select().from(messageSettings).where(eq(messageSettings.userId, userId))
    if (!row) return { ...ALL_ON }
    return {
      notice: row.notice,
      renewal: row.renewal,
      transfer: row.transfer,
      create: row.create,
      system: true,
    }
  }

  async updateSettings(userId: number, patch: UpdateMessageSettingsBody): Promise<MessageSettings> {
    const next = { ...(await this.getSettings(userId, this.ctx.db)), ...patch, system: true }
    const values = {
      notice: next.notice,
      renewal: next.renewal,
      transfer: next.transfer,
      create: next.create,
    }
    await this.ctx.db
      .insert(messageSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: messageSettings.userId, set: values })
    return next
  }

  /** Creates a message unless the user switched its category off (system messages always go out). */
  async sendMessage(
    userId: number,
    type: MessageKind,
    title: string,
    content: string,
    db: Db,
  ): Promise<boolean> {
    if (type !== MessageKind.SYSTEM) {
      const settings = await this.getSettings(userId, db)
      if (!settings[SETTING_OF_KIND[type]]) return false
    }
    await db
      .insert(messages)
      .values({ userId, type, title, content, createdAt: this.ctx.clock.now() })
    return true
  }

  /**
   * sendMessage for many at once (a job's batch): one settings read and one insert, each message going
   * out unless its user switched the category off. Returns how many were created.
   */
  async sendMessages(
    type: MessageKind,
    items: { userId: number; title: string; content: string }[],
    db: Db,
  ): Promise<number> {
    if (items.length === 0) return 0
    let out = items
    if (type !== MessageKind.SYSTEM) {
      const users = [...new Set(items.map((item) => item.userId))]
      const off = new Set(
        (
          await db
            .select({ userId: messageSettings.userId, on: messageSettings[SETTING_OF_KIND[type]] })
            .from(messageSettings)
            .where(inArray(messageSettings.userId, users))
        )
          .filter((row) => !row.on)
          .map((row) => row.userId),
      )
      out = items.filter((item) => !off.has(item.userId))
    }
    if (out.length === 0) return 0
    const createdAt = this.ctx.clock.now()
    await db.insert(messages).values(out.map((item) => ({ ...item, type, createdAt })))
    return out.length
  }

  async unreadCount(userId: number): Promise<UnreadCount> {
    const rows = await preparedOn(this.ctx.db, 'message_unread_count', unreadByType).execute({
      userId,
    })
    const byType = (type: number) => rows.find((row) => row.type === type)?.n ?? 0
    const all = rows.reduce((sum, row) => sum + row.n, 0)
    return {
      unreadCount: all,
      longAll: all,
      longNotice: byType(1),
      longRenewal: byType(2),
      longTransfer: byType(3),
      longCreate: byType(4),
      longSystem: byType(5),
      // Workflow categories of SPEC 3 that this product does not produce.
      longApply: 0,
      longAuthentication: 0,
      longExamine: 0,
      longSettlement: 0,
      longSigncontract: 0,
    }
  }

  /** /message/list as JSON (see jsonRecord). */
  async listJson(userId: number, request: PageRequest & { type?: number }) {
    const { page, rows, offset } = normalisePage(request)
    const byType = Boolean(request.type)
    const first = offset === 0
    const statement = preparedOn(this.ctx.db, `message_list_${+byType}${+first}`, (db) =>
      messagePage(db, byType, first),
    )
    const [found] = await statement.execute({ userId, type: request.type, limit: rows, offset })
    return pagedJson(found.records, page, rows, found.total)
  }

  /** Marks read only the caller's messages, selected by ids, by type, or all. */
  async markRead(userId: number, selection: { ids?: number[]; type?: number; all?: boolean }) {
    let filter
    if (selection.all) filter = undefined
    else if (selection.ids?.length) filter = inArray(messages.id, selection.ids)
    else if (selection.type) filter = eq(messages.type, selection.type)
    else return { updated: 0 }
    const updated = await this.ctx.db
      .update(messages)
      .set({ readAt: this.ctx.clock.now() })
      .where(and(eq(messages.userId, userId), isNull(messages.readAt), filter))
      .returning({ id: messages.id })
    return { updated: updated.length }
  }
}
