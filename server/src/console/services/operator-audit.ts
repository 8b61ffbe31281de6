import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { AuditAction, AuditPage, AuditQuery } from '../contract'
import type { Db } from '../../db/client'
import {
  activities,
  apps,
  couponTemplates,
  devices,
  goods,
  goodsPrices,
  operatorAudit,
  operators,
  orders,
  seckillItems,
  users,
  zones,
} from '../../db/schema'
import { normalisePage, toPaged } from '../../domain/paging'
import type { ServiceContext } from '../../services/context'

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

const target = operatorAudit.targetId
/** The target id as the table's key, read only in the branch of its own type (others are not numbers). */
const targetKey = sql`${target}::bigint`

/**
 * The target's name, by type, in the page's own query (each a primary-key lookup, never a request per
 * row): what the console shows and links instead of `#id`.
 */
const targetName = sql<string | null>`case ${operatorAudit.targetType}
  when 'user' then (select ${users.name} from ${users} where ${users.id} = ${targetKey})
  when 'order' then (select ${orders.orderNo} from ${orders} where ${orders.id} = ${targetKey})
  when 'device' then (select ${devices.name} from ${devices} where ${devices.id} = ${targetKey})
  when 'couponTemplate' then
    (select ${couponTemplates.name} from ${couponTemplates} where ${couponTemplates.id} = ${targetKey})
  when 'goods' then (select ${goods.name} from ${goods} where ${goods.id} = ${targetKey})
  when 'goods_price' then (select ${goods.name} from ${goodsPrices}
    join ${goods} on ${goods.id} = ${goodsPrices.goodId} where ${goodsPrices.id} = ${targetKey})
  when 'zone' then (select ${zones.name} from ${zones} where ${zones.id} = ${targetKey})
  when 'operator' then
    (select t.name from ${operators} t where t.id = ${targetKey})
  when 'activity' then (select ${activities.title} from ${activities} where ${activities.id} = ${targetKey})
  when 'app' then (select ${apps.name} from ${apps} where ${apps.id} = ${targetKey})
  when 'seckill_item' then (select ${goods.name} from ${seckillItems}
    join ${goodsPrices} on ${goodsPrices.id} = ${seckillItems.priceId}
    join ${goods} on ${goods.id} = ${goodsPrices.goodId} where ${seckillItems.id} = ${targetKey})
  end`
const targetMobile = sql<string | null>`case when ${operatorAudit.targetType} = 'user' then
  (select ${users.mobilePhone} from ${users} where ${users.id} = ${targetKey}) end`
const targetDays = sql<number | null>`case when ${operatorAudit.targetType} = 'goods_price' then
  (select ${goodsPrices.goodTime} from ${goodsPrices} where ${goodsPrices.id} = ${targetKey}) end`

/** An id field of before or after, as text (null when absent). */
const field = (name: string) =>
  sql`${operatorAudit.before} ->> ${name}, ${operatorAudit.after} ->> ${name}`
const released = sql`${operatorAudit.after} -> 'releasedPhones'`
/**
 * The names of the phones, goods and zones before/after name by id (refund's releasedPhones, edits').
 * The phones are looked up by their key as a number (an index range: devices grows); a cast of the
 * key to text would read the whole table.
 */
const refNames = sql<
  Record<string, string>
>`(select coalesce(jsonb_object_agg(ref.k, ref.v), '{}'::jsonb)
  from (
    select 'device:' || d.id as k, d.name as v from ${devices} d
      where jsonb_typeof(${released}) = 'array'
        and d.id in (select e::integer from jsonb_array_elements_text(${released}) e
                     where e ~ '^[0-9]{1,9}$')
    union all
    select 'goods:' || g.id, g.name from ${goods} g where g.id::text in (${field('goodId')})
    union all
    select 'zone:' || z.id, z.name from ${zones} z where z.id::text in (${field('zoneId')})
  ) ref)`

/** The append-only record of what operators did (operator_audit; the database refuses changes to it). */
export class OperatorAuditService {
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
        .select({
          row: operatorAudit,
          operatorName: operators.name,
          targetName,
          targetMobile,
          targetDays,
          refNames,
        })
        .from(operatorAudit)
        .leftJoin(operators, eq(operators.id, operatorAudit.operatorId))
        .where(where)
        .orderBy(desc(operatorAudit.at), desc(operatorAudit.id))
        .limit(rows)
        .offset(offset),
      db.select({ total: count() }).from(operatorAudit).where(where),
    ])
    const records = found.map(({ row, ...names }) => ({
      id: row.id,
      at: row.at.getTime(),
      operatorId: row.operatorId,
      operatorName: names.operatorName,
      actor: row.actor as 'operator' | 'cli',
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      targetName: names.targetName,
      targetMobile: names.targetMobile,
      targetDays: names.targetDays === null ? null : Number(names.targetDays),
      refNames: names.refNames ?? {},
      before: row.before,
      after: row.after,
      ip: row.ip,
    }))
    return toPaged(records, page, rows, Number(total))
  }
}
