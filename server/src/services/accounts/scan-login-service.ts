import { and, eq, gt, inArray, lt } from 'drizzle-orm'
import { SCAN_LOGIN_TTL_MS, scanPayload } from '#domain/scan-codes'
import type { LoginResult } from '../../contract/auth'
import type { ScanLoginRequest, ScanLoginSession, ScanLoginState } from '../../contract/scan-login'
import { scanLoginSessions } from '../../db/schema'
import { tip } from '../../domain/biz-error'
import { newOpaqueSecret, sha256Hex } from '../../domain/secrets'
import type { AccountService } from './account-service'
import type { LoginContext } from './account-registration'
import type { ServiceContext } from '../context'
import {
  PURGE_RUN_BUDGET_MS,
  purgeInBatches,
  timeBudget,
  type PurgeBudget,
  type PurgeTarget,
} from '../../db/purge-batches'
import { qrDataUrl } from '../qr-image'

export const SCAN_LOGIN_UNKNOWN = '登录二维码无效，请在电脑上刷新二维码'
export const SCAN_LOGIN_EXPIRED = '登录二维码已过期，请在电脑上刷新二维码'
export const SCAN_LOGIN_TAKEN = '该登录二维码已被其他账号扫描'
export const SCAN_LOGIN_DONE = '该登录请求已处理，请在电脑上刷新二维码'

type Row = typeof scanLoginSessions.$inferSelect

/** The session id shown in the QR is the hash of the browser's poll key, so scanning it gives no login. */
export const sessionIdOf = (pollKey: string) => sha256Hex(`scan-login:${pollKey}`)

/** "Chrome · Windows"-style summary of a User-Agent, shown on the confirming phone. */
export function describeUserAgent(ua: string | undefined): string {
  const agent = ua ?? ''
  const browser =
    [
      [/MicroMessenger/i, '微信'],
      [/Edg\//, 'Edge'],
      [/Firefox\//, 'Firefox'],
      [/Chrome\/|CriOS\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ].find(([re]) => (re as RegExp).test(agent))?.[1] ?? '浏览器'
  const os =
    [
      [/Windows/, 'Windows'],
      [/iPhone|iPad/, 'iOS'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/Android/, 'Android'],
      [/Linux/, 'Linux'],
    ].find(([re]) => (re as RegExp).test(agent))?.[1] ?? '未知系统'
  return `${browser as string} · ${os as string}`
}

/**
 * Scan-login (docs/decisions.md): a logged-out browser creates a session and shows its QR; a logged-in
 * phone scans (scanned), then confirms or refuses; the browser's next poll collects the login token once.
 * A session lives SCAN_LOGIN_TTL_MS; only the account that scanned may confirm or refuse it.
 */
/** The purge of scan-login sessions: a day past expiry. */
export function scanLoginPurge(now: Date): PurgeTarget {
  return {
    table: scanLoginSessions,
    due: lt(scanLoginSessions.expiresAt, new Date(now.getTime() - 86_400_000)),
    key: scanLoginSessions.expiresAt,
  }
}

export class ScanLoginService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly accounts: AccountService,
  ) {}

  async create(userAgent: string | undefined, ip: string): Promise<ScanLoginSession> {
    const now = this.ctx.clock.now()
    const pollKey = newOpaqueSecret()
    const id = sessionIdOf(pollKey)
    const expiresAt = new Date(now.getTime() + SCAN_LOGIN_TTL_MS)
    await this.ctx.db.insert(scanLoginSessions).values({
      id,
      requester: describeUserAgent(userAgent),
      requesterIp: ip.slice(0, 64),
      createdAt: now,
      expiresAt,
    })
    return {
      sessionId: id,
      pollKey,
      qrImage: await qrDataUrl(scanPayload('login', id)),
      expiresAt: expiresAt.getTime(),
    }
  }

  /** The browser's poll. Confirmed → consumed in one conditional update, then the token is issued. */
  async status(pollKey: string, login: LoginContext): Promise<ScanLoginState> {
    const row = await this.find(sessionIdOf(pollKey))
    if (!row) throw tip(SCAN_LOGIN_UNKNOWN)
    const status = await this.effectiveStatus(row)
    const base = { status, expiresAt: row.expiresAt.getTime(), login: null }
    if (status !== 'confirmed') return base
    const [claimed] = await this.ctx.db
      .update(scanLoginSessions)
      .set({ status: 'consumed', consumedAt: this.ctx.clock.now() })
      .where(and(eq(scanLoginSessions.id, row.id), eq(scanLoginSessions.status, 'confirmed')))
      .returning()
    if (!claimed?.userId) return { ...base, status: 'consumed' }
    const result: LoginResult = await this.accounts.loginAsUser(claimed.userId, login)
    return { ...base, status: 'consumed', login: result }
  }

  /** The phone scanned the QR: the session is now this account's to confirm or refuse. */
  async scan(userId: number, sessionId: string): Promise<ScanLoginRequest> {
    const row = await this.live(sessionId, userId)
    if (row.status === 'pending') {
      const [taken] = await this.ctx.db
        .update(scanLoginSessions)
        .set({ status: 'scanned', userId, scannedAt: this.ctx.clock.now() })
        .where(and(eq(scanLoginSessions.id, row.id), eq(scanLoginSessions.status, 'pending')))
        .returning()
      if (!taken) throw tip(SCAN_LOGIN_TAKEN)
    }
    return {
      requester: row.requester,
      ip: row.requesterIp,
      createdAt: row.createdAt.getTime(),
      expiresAt: row.expiresAt.getTime(),
    }
  }

  confirm(userId: number, sessionId: string): Promise<{ status: 'confirmed' }> {
    return this.decide(userId, sessionId, 'confirmed')
  }

  refuse(userId: number, sessionId: string): Promise<{ status: 'refused' }> {
    return this.decide(userId, sessionId, 'refused')
  }

  /** Housekeeping: sessions dead for a day are of no further use. */
  /** Sessions a day past expiry (in batches, purge-batches.ts). */
  async purgeDead(
    now: Date,
    budget: PurgeBudget = timeBudget(PURGE_RUN_BUDGET_MS),
  ): Promise<number> {
    return (await purgeInBatches(this.ctx.db, scanLoginPurge(now), { budget })).deleted
  }

  private async decide<S extends 'confirmed' | 'refused'>(
    userId: number,
    sessionId: string,
    status: S,
  ): Promise<{ status: S }> {
    const row = await this.live(sessionId, userId)
    if (row.status !== 'scanned') throw tip(SCAN_LOGIN_UNKNOWN)
    const now = this.ctx.clock.now()
    const [done] = await this.ctx.db
      .update(scanLoginSessions)
      .set(status === 'confirmed' ? { status, confirmedAt: now } : { status })
      .where(
        and(
          eq(scanLoginSessions.id, row.id),
          eq(scanLoginSessions.status, 'scanned'),
          eq(scanLoginSessions.userId, userId),
          gt(scanLoginSessions.expiresAt, now),
        ),
      )
      .returning({ id: scanLoginSessions.id })
    if (!done) throw tip(SCAN_LOGIN_DONE)
    return { status }
  }

  /** A session this account may act on: known, not expired, not decided, not scanned by someone else. */
  private async live(sessionId: string, userId: number): Promise<Row> {
    const row = await this.find(sessionId)
    if (!row) throw tip(SCAN_LOGIN_UNKNOWN)
    const status = await this.effectiveStatus(row)
    if (status === 'expired') throw tip(SCAN_LOGIN_EXPIRED)
    if (row.userId != null && row.userId !== userId) throw tip(SCAN_LOGIN_TAKEN)
    if (status !== 'pending' && status !== 'scanned') throw tip(SCAN_LOGIN_DONE)
    return row
  }

  private async find(id: string): Promise<Row | undefined> {
    const [row] = await this.ctx.db
      .select()
      .from(scanLoginSessions)
      .where(eq(scanLoginSessions.id, id))
      .limit(1)
    return row
  }

  /** pending/scanned past expiresAt read as expired (and are marked so). */
  private async effectiveStatus(row: Row): Promise<ScanLoginState['status']> {
    const status = row.status as ScanLoginState['status']
    if ((status === 'pending' || status === 'scanned') && row.expiresAt <= this.ctx.clock.now()) {
      await this.ctx.db
        .update(scanLoginSessions)
        .set({ status: 'expired' })
        .where(
          and(
            eq(scanLoginSessions.id, row.id),
            inArray(scanLoginSessions.status, ['pending', 'scanned']),
          ),
        )
      return 'expired'
    }
    return status
  }
}
