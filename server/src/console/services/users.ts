/**
 * The console's 用户 pages: search, one user's profile with a recent list of everything hanging off it,
 * freeze and unfreeze, and the decision on a company-buyer request. Every change writes its audit row in
 * the same transaction.
 */
import { and, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm'
import { OperatorCode } from '#domain/result-codes'
import type {
  AdminUserDetail,
  AdminUserPage,
  AdminUserRow,
  UserSearchQuery,
} from '../contract/users'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import {
  accountBalances,
  accountLedger,
  beanAccounts,
  beanLedger,
  couponTemplates,
  deviceGrants,
  devices,
  deviceTransfers,
  orders,
  userCoupons,
  users,
} from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { normalisePage, toPaged } from '../../domain/paging'
import type { ServiceContext } from '../../services/context'
import type { Actor } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'
import { decideCompanyRequest } from '../../services/accounts'
import type { SessionService } from '../../services/accounts'

/** How many of each list the profile shows (the count says how many there are). */
export const RECENT = 10
/** Largest users.id (a serial); a longer run of digits can only be a number or its tail. */
const MAX_ID_DIGITS = 9
const FULL_NUMBER = /^1\d{10}$/

type User = typeof users.$inferSelect

const ms = (date: Date | null) => date?.getTime() ?? null

export const adminUserRow = (user: User): AdminUserRow => ({
  id: user.id,
  mobile: user.mobilePhone,
  name: user.name,
  userType: user.userType,
  companyName: user.companyName,
  companyStatus: user.companyStatus,
  frozen: user.frozen,
  createdAt: user.createdAt.getTime(),
  lastLoginAt: ms(user.lastLoginAt),
  deletedAt: ms(user.deletedAt),
})

/** Escapes LIKE's wildcards so a company name is matched as written. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`)

/**
 * What `q` looks for. Digits: a full number (users_mobile_phone_key), else a user id (the primary key) or
 * the number's last digits (users_mobile_tail_idx, reverse(mobile_phone) as a prefix). Anything else: a
 * part of the company name, which reads every user (company buyers are few; no trigram index).
 */
export function searchFilter(q: string): SQL | undefined {
  const text = q.trim()
  if (text === '') return undefined
  if (FULL_NUMBER.test(text)) return eq(users.mobilePhone, text)
  if (/^\d+$/.test(text)) {
    const tail = sql`reverse(${users.mobilePhone}) like ${[...text].reverse().join('') + '%'}`
    return text.length <= MAX_ID_DIGITS ? or(eq(users.id, Number(text)), tail) : tail
  }
  return ilike(users.companyName, `%${likeEscape(text)}%`)
}

/** The other user of a grant or transfer (not the one whose page it is), read in the same query. */
const others = alias(users, 'others')

export class AdminUserService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
    private readonly sessions: SessionService,
  ) {}

  /** Newest accounts first; deleted accounts included (support asks about them too). */
  async search(query: UserSearchQuery): Promise<AdminUserPage> {
    const { page, rows, offset } = normalisePage({ page: query.page, rows: query.rows ?? 20 })
    const filters = [
      searchFilter(query.q ?? ''),
      query.companyStatus === undefined ? undefined : eq(users.companyStatus, query.companyStatus),
    ].filter((filter): filter is SQL => filter !== undefined)
    const where = filters.length ? and(...filters) : undefined
    const db = this.ctx.db
    const [found, [{ total }]] = await Promise.all([
      db.select().from(users).where(where).orderBy(desc(users.id)).limit(rows).offset(offset),
      db.select({ total: count() }).from(users).where(where),
    ])
    return toPaged(found.map(adminUserRow), page, rows, Number(total))
  }

  async detail(userId: number): Promise<AdminUserDetail> {
    const db = this.ctx.db
    const [user] = await db.select().from(users).where(eq(users.id, userId))
    if (!user) throw new BizError(OperatorCode.USER_NOT_FOUND)
    const [[beans], [account]] = await Promise.all([
      db.select().from(beanAccounts).where(eq(beanAccounts.userId, userId)),
      db.select().from(accountBalances).where(eq(accountBalances.userId, userId)),
    ])
    /** A recent list and the count of all: the count's query has the list's table and filter. */
    const recent = async <Row, Out>(
      counted: Promise<{ total: number }[]>,
      list: Promise<Row[]>,
      map: (row: Row) => Out,
    ) => {
      const [[{ total }], rows] = await Promise.all([counted, list])
      return { total: Number(total), records: rows.map(map) }
    }
    const countOf = (table: Parameters<ReturnType<Db['select']>['from']>[0], where?: SQL) =>
      db.select({ total: count() }).from(table).where(where)
    const ledgerEntry = ({
      row,
      orderNo,
    }: {
      row: typeof beanLedger.$inferSelect | typeof accountLedger.$inferSelect
      orderNo: string | null
    }) => ({
      id: row.id,
      change: row.change,
      balanceAfter: row.balanceAfter,
      reason: row.reason,
      orderId: row.orderId,
      orderNo,
      createdAt: row.createdAt.getTime(),
    })
    const grantsOf = or(eq(deviceGrants.ownerId, userId), eq(deviceGrants.granteeId, userId))
    const transfersOf = or(
      eq(deviceTransfers.fromUserId, userId),
      eq(deviceTransfers.toUserId, userId),
    )
    const [phones, orderList, beanList, accountList, coupons, grants, transfers] =
      await Promise.all([
        recent(
          countOf(devices, eq(devices.userId, userId)),
          db
            .select()
            .from(devices)
            .where(eq(devices.userId, userId))
            .orderBy(desc(devices.id))
            .limit(RECENT),
          (row) => ({
            id: row.id,
            name: row.name,
            status: row.status,
            level: row.level,
            zoneId: row.zoneId,
            expireAt: row.expireAt.getTime(),
            failReason: row.failReason,
            createdAt: row.createdAt.getTime(),
          }),
        ),
        recent(
          countOf(orders, eq(orders.userId, userId)),
          db
            .select()
            .from(orders)
            .where(eq(orders.userId, userId))
            .orderBy(desc(orders.createdAt), desc(orders.id))
            .limit(RECENT),
          (row) => ({
            id: row.id,
            orderNo: row.orderNo,
            kind: row.kind,
            status: row.status,
            amount: row.amount,
            quantity: row.quantity,
            createdAt: row.createdAt.getTime(),
            paidAt: ms(row.paidAt),
          }),
        ),
        recent(
          countOf(beanLedger, eq(beanLedger.userId, userId)),
          db
            .select({ row: beanLedger, orderNo: orders.orderNo })
            .from(beanLedger)
            .leftJoin(orders, eq(orders.id, beanLedger.orderId))
            .where(eq(beanLedger.userId, userId))
            .orderBy(desc(beanLedger.createdAt), desc(beanLedger.id))
            .limit(RECENT),
          ledgerEntry,
        ),
        recent(
          countOf(accountLedger, eq(accountLedger.userId, userId)),
          db
            .select({ row: accountLedger, orderNo: orders.orderNo })
            .from(accountLedger)
            .leftJoin(orders, eq(orders.id, accountLedger.orderId))
            .where(eq(accountLedger.userId, userId))
            .orderBy(desc(accountLedger.createdAt), desc(accountLedger.id))
            .limit(RECENT),
          ledgerEntry,
        ),
        recent(
          countOf(userCoupons, eq(userCoupons.userId, userId)),
          db
            .select({ coupon: userCoupons, templateName: couponTemplates.name })
            .from(userCoupons)
            .innerJoin(couponTemplates, eq(couponTemplates.id, userCoupons.templateId))
            .where(eq(userCoupons.userId, userId))
            .orderBy(desc(userCoupons.issuedAt), desc(userCoupons.id))
            .limit(RECENT),
          ({ coupon, templateName }) => ({
            id: coupon.id,
            templateName,
            status: coupon.status,
            validUntil: coupon.validUntil.getTime(),
            issuedAt: coupon.issuedAt.getTime(),
            usedAt: ms(coupon.usedAt),
            discount: coupon.discount,
          }),
        ),
        recent(
          countOf(deviceGrants, grantsOf),
          db
            .select({ row: deviceGrants, otherMobile: others.mobilePhone, otherName: others.name })
            .from(deviceGrants)
            .leftJoin(
              others,
              eq(
                others.id,
                sql`case when ${deviceGrants.ownerId} = ${userId} then ${deviceGrants.granteeId} else ${deviceGrants.ownerId} end`,
              ),
            )
            .where(grantsOf)
            .orderBy(desc(deviceGrants.createdAt), desc(deviceGrants.id))
            .limit(RECENT),
          ({ row, otherMobile, otherName }) => ({
            id: row.id,
            otherMobile,
            otherName,
            direction: row.ownerId === userId ? ('given' as const) : ('received' as const),
            deviceId: row.deviceId,
            ownerId: row.ownerId,
            granteeId: row.granteeId,
            permission: row.permission,
            expiresAt: row.expiresAt.getTime(),
            revokedAt: ms(row.revokedAt),
            createdAt: row.createdAt.getTime(),
          }),
        ),
        recent(
          countOf(deviceTransfers, transfersOf),
          db
            .select({
              row: deviceTransfers,
              otherMobile: others.mobilePhone,
              otherName: others.name,
            })
            .from(deviceTransfers)
            .leftJoin(
              others,
              eq(
                others.id,
                sql`case when ${deviceTransfers.fromUserId} = ${userId} then ${deviceTransfers.toUserId} else ${deviceTransfers.fromUserId} end`,
              ),
            )
            .where(transfersOf)
            .orderBy(desc(deviceTransfers.createdAt), desc(deviceTransfers.id))
            .limit(RECENT),
          ({ row, otherMobile, otherName }) => ({
            id: row.id,
            otherMobile,
            otherName,
            direction: row.fromUserId === userId ? ('out' as const) : ('in' as const),
            deviceId: row.deviceId,
            deviceName: row.deviceName,
            fromUserId: row.fromUserId,
            toUserId: row.toUserId,
            createdAt: row.createdAt.getTime(),
          }),
        ),
      ])
    return {
      user: {
        ...adminUserRow(user),
        companyAddress: user.companyAddress,
        checkStatus: user.checkStatus,
        beanBalance: beans?.balance ?? 0,
        accountBalance: account?.balance ?? 0,
      },
      phones,
      orders: orderList,
      beanLedger: beanList,
      accountLedger: accountList,
      coupons,
      grants,
      transfers,
    }
  }

  /**
   * Freezing keeps the user's tokens (unfreezing gives the same sessions back) but every call of theirs
   * answers 1057 (plugins/auth.ts reads users.frozen with the session). changingSessionsOf drops this
   * instance's cached sessions of the user around the commit, so here the next call is refused at once;
   * another instance sees it within its session cache's ttl (SESSION_CACHE_MS, 5 s by default).
   */
  setFrozen(actor: Actor, userId: number, frozen: boolean, reason: string): Promise<AdminUserRow> {
    return this.sessions.changingSessionsOf(userId, () =>
      this.ctx.db.transaction(async (tx) => {
        const before = await liveUser(tx, userId)
        const [after] = await tx
          .update(users)
          .set({ frozen })
          .where(eq(users.id, userId))
          .returning()
        await this.audit.record(tx, {
          ...actor,
          action: frozen ? 'user.freeze' : 'user.unfreeze',
          targetType: 'user',
          targetId: userId,
          before: { frozen: before.frozen },
          after: { frozen: after.frozen, reason: reason.trim() },
        })
        return adminUserRow(after)
      }),
    )
  }

  /** A company-buyer request decided by an operator (companyDecision). */
  decideCompany(
    actor: Actor,
    userId: number,
    verified: boolean,
    reason: string | undefined,
  ): Promise<AdminUserRow> {
    return companyDecision(this.ctx, this.audit, actor, userId, verified, reason)
  }
}

/** The user, locked for this transaction; a deleted account is not found. */
async function liveUser(tx: Db, userId: number): Promise<User> {
  const [user] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for('update')
  if (!user) throw new BizError(OperatorCode.USER_NOT_FOUND)
  return user
}

/**
 * The one way a company-buyer request is decided, by the console and by npm run company:verify (actor
 * operatorId null: 'cli' in the audit log): decideCompanyRequest's rule (only a waiting request; the user
 * told by a system message) and the audit row in one transaction. 4020 no such user, 4021 nothing waiting.
 */
export function companyDecision(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  audit: OperatorAuditService,
  actor: Actor,
  userId: number,
  verified: boolean,
  reason: string | undefined,
): Promise<AdminUserRow> {
  return ctx.db.transaction(async (tx) => {
    const before = await liveUser(tx, userId)
    if (!(await decideCompanyRequest(tx, ctx.clock.now(), userId, verified))) {
      throw new BizError(OperatorCode.NO_COMPANY_REQUEST)
    }
    const [after] = await tx.select().from(users).where(eq(users.id, userId))
    const company = (user: User) => ({
      companyName: user.companyName,
      companyStatus: user.companyStatus,
      userType: user.userType,
    })
    await audit.record(tx, {
      ...actor,
      action: verified ? 'company.verify' : 'company.reject',
      targetType: 'user',
      targetId: userId,
      before: company(before),
      after: { ...company(after), ...(reason?.trim() ? { reason: reason.trim() } : {}) },
    })
    return adminUserRow(after)
  })
}
