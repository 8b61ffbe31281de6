import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { AuditAction, AuditPage, AuditQuery } from '../contract/admin'
import type { Db } from '../db/client'
import { operatorAudit, operators } from '../db/schema'
import { normalisePage, toPaged } from '../domain/paging'
import type { ServiceContext } from './context'

export interface AuditEntry {
  /** null: admin:create on the command line. */
  operatorId: number | null
  action: AuditAction
  targetType: string
  targetId: string | number | null
  before?: unknown
  after?: unknown
  ip: string | null
}

/** Keys that must never reach the audit log, at any depth. */
const SECRET_KEYS =
  /^(password|passwordHash|password_hash|totpSecret|totp_secret|csrfToken|tokenHash)$/

function assertNoSecrets(value: unknown, where: string) {
  if (value === null || typeof value !== 'object') return
  for (const [key, inner] of Object.entries(value)) {
    if (SECRET_KEYS.test(key)) throw new Error(`audit ${where} carries the secret field ${key}`)
    assertNoSecrets(inner, where)
  }
}

/** The append-only record of what operators did (operator_audit; the database refuses changes to it). */
export class OperatorAudit {
  /** db and clock only: admin:create runs it without the server's adapters. */
  constructor(private readonly ctx: Pick<ServiceContext, 'db' | 'clock'>) {}

  /** One row, in the caller's transaction: the change and its record commit or fail together. */
  async record(tx: Db, entry: AuditEntry): Promise<void> {
    assertNoSecrets(entry.before, 'before')
    assertNoSecrets(entry.after, 'after')
    await tx.insert(operatorAudit).values({
      operatorId: entry.operatorId,
      actor: entry.operatorId === null ? 'cli' : 'operator',
      at: this.ctx.clock.now(),
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId === null ? null : String(entry.targetId),
      before: entry.before ?? null,
      after: entry.after ?? null,
      ip: entry.ip,
    })
  }

  /** Newest first. */
  async page(query: AuditQuery): Promise<AuditPage> {
    const { page, rows, offset } = normalisePage({ page: query.page, rows: query.rows ?? 20 })
    const filters: SQL[] = []
    if (query.operatorId !== undefined) filters.push(eq(operatorAudit.operatorId, query.operatorId))
    if (query.action !== undefined) filters.push(eq(operatorAudit.action, query.action))
    if (query.targetType !== undefined) filters.push(eq(operatorAudit.targetType, query.targetType))
    if (query.targetId !== undefined) filters.push(eq(operatorAudit.targetId, query.targetId))
    const where = filters.length ? and(...filters) : undefined
    const db = this.ctx.db
    const [found, [{ total }]] = await Promise.all([
      db
        .select({ row: operatorAudit, operatorName: operators.name })
        .from(operatorAudit)
        .leftJoin(operators, eq(operators.id, operatorAudit.operatorId))
        .where(where)
        .orderBy(desc(operatorAudit.at), desc(operatorAudit.id))
        .limit(rows)
        .offset(offset),
      db.select({ total: count() }).from(operatorAudit).where(where),
    ])
    const records = found.map(({ row, operatorName }) => ({
      id: row.id,
      at: row.at.getTime(),
      operatorId: row.operatorId,
      operatorName,
      actor: row.actor as 'operator' | 'cli',
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      before: row.before,
      after: row.after,
      ip: row.ip,
    }))
    return toPaged(records, page, rows, Number(total))
  }
}
