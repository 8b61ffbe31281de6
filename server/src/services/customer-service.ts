import { count, desc, eq } from 'drizzle-orm'
import type { CustomerServiceInfo, FeedbackTicket } from '../contract/config'
import { feedback } from '../db/schema'
import { normalisePage, toPaged, type PageRequest } from '../domain/paging'
import type { CommonConfigService } from './config-service'
import type { ServiceContext } from './context'

export class CustomerServiceService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly commonConfig: CommonConfigService,
  ) {}

  async contact(): Promise<CustomerServiceInfo> {
    const config = await this.commonConfig.commonConfig()
    return {
      url: this.ctx.settings.customerServiceUrl,
      phone: config.customerServicePhone,
      hours: config.customerServiceHours,
    }
  }

  async submitFeedback(userId: number, content: string, contact?: string): Promise<FeedbackTicket> {
    const [row] = await this.ctx.db
      .insert(feedback)
      .values({
        userId,
        content: content.trim(),
        contact: contact?.trim() || null,
        createdAt: this.ctx.clock.now(),
      })
      .returning()
    return toTicket(row)
  }

  async listFeedback(userId: number, request: PageRequest) {
    const { page, rows, offset } = normalisePage(request)
    const [{ total }] = await this.ctx.db
      .select({ total: count() })
      .from(feedback)
      .where(eq(feedback.userId, userId))
    const found = await this.ctx.db
      .select()
      .from(feedback)
      .where(eq(feedback.userId, userId))
      .orderBy(desc(feedback.createdAt), desc(feedback.id))
      .limit(rows)
      .offset(offset)
    return toPaged(found.map(toTicket), page, rows, total)
  }
}

function toTicket(row: typeof feedback.$inferSelect): FeedbackTicket {
  return {
    id: row.id,
    content: row.content,
    contact: row.contact,
    status: row.status,
    reply: row.reply,
    createdAt: row.createdAt.getTime(),
  }
}
