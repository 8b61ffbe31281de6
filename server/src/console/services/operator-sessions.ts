import { createHash, randomBytes } from 'node:crypto'
import { and, eq, lt, lte, or, sql } from 'drizzle-orm'
import { OperatorCode } from '#domain/result-codes'
import { operatorNameKey, type OperatorRole } from '#domain/console/operator-roles'
import { SERVER_DEFAULTS } from '../../config'
import type { AdminSession, OperatorIdentity, SignInBody } from '../contract'
import { operators, operatorSessions } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import type { Db } from '../../db/client'
import type { ServiceContext } from '../../services/context'
import { takeTotpStep } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'
import { acceptedTotpStep } from './operator-totp'
import { hashPassword, verifyPassword } from '../../services/accounts'

/** A signed-in operator as the admin hook attaches it to the request. */
export interface OperatorAuth {
  operator: OperatorIdentity
  /** sha-256 of the cookie's secret: the session's key. */
  tokenHash: string
  csrfToken: string
}

const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/
const newSecret = () => randomBytes(32).toString('base64url')
const sha256 = (secret: string) => createHash('sha256').update(secret).digest('hex')
/** last_seen_at is written at most this often, so a burst of calls is not a burst of writes. */
const TOUCH_AFTER_MS = 60_000

/**
 * Operator sessions: signing in with name, password and TOTP; the session cookie's secret is known only
 * to the browser (the database keeps its sha-256). A session ends after SERVER_DEFAULTS'
 * operatorSessionIdleMs without a call, operatorSessionMaxMs after sign-in, at sign-out, or when the
 * operator is disabled.
 */
export class OperatorSessionService {
  /** Verified when the name is unknown, so an unknown name costs the same argon2 work as a known one. */
  private dummyHash: Promise<string> | null = null

  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
  ) {}

  /**
   * Refuses any wrong part (name, password, TOTP, a used TOTP, a disabled account) alike, and the right
   * code too once SERVER_DEFAULTS.operatorTotpGuessesPer15Minutes codes were tried after the right
   * password: only someone who has the password can run that count up.
   */
  async signIn(
    body: SignInBody,
    ip: string | null,
  ): Promise<{ secret: string; session: AdminSession; expiresAt: Date }> {
    const now = this.ctx.clock.now()
    const [operator] = await this.ctx.db
      .select()
      .from(operators)
      .where(eq(operators.name, operatorNameKey(body.name)))
    this.dummyHash ??= hashPassword(newSecret())
    const passwordOk = await verifyPassword(
      operator?.passwordHash ?? (await this.dummyHash),
      body.password,
    )
    const refuse = (why: string) => {
      this.ctx.log.info({ operator: operator?.id ?? null, ip, why }, 'operator sign-in refused')
      return new BizError(OperatorCode.SIGN_IN_FAILED)
    }
    if (!operator || !passwordOk) throw refuse('name or password')
    if (operator.disabledAt) throw refuse('disabled')
    if (!(await takeTotpGuess(this.ctx.db, operator.id, now))) throw refuse('codes used up')
    const step = acceptedTotpStep(operator.totpSecret, body.totp, now, operator.lastTotpStep)
    if (step === null) throw refuse('code')
    const secret = newSecret()
    const csrfToken = newSecret()
    const expiresAt = new Date(now.getTime() + SERVER_DEFAULTS.operatorSessionMaxMs)
    const identity: OperatorIdentity = {
      id: operator.id,
      name: operator.name,
      role: operator.role as OperatorRole,
    }
    await this.ctx.db.transaction(async (tx) => {
      // a code is accepted once: a second sign-in racing with the same code finds its step taken
      if (!(await takeTotpStep(tx, operator.id, step))) throw refuse('code used')
      // sessions that ran out and were never used again go here
      await tx
        .delete(operatorSessions)
        .where(
          or(
            lt(operatorSessions.expiresAt, now),
            lt(
              operatorSessions.lastSeenAt,
              new Date(now.getTime() - SERVER_DEFAULTS.operatorSessionIdleMs),
            ),
          ),
        )
      await tx.insert(operatorSessions).values({
        tokenHash: sha256(secret),
        operatorId: operator.id,
        csrfToken,
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
      })
      await this.audit.record(tx, {
        operatorId: operator.id,
        ip,
        action: 'session.signIn',
        targetType: 'operator',
        targetId: operator.id,
      })
    })
    return { secret, session: { operator: identity, csrfToken }, expiresAt }
  }

  /** The live session of a cookie's secret, or null (unknown, expired, idle, operator disabled). */
  async authenticate(secret: string): Promise<OperatorAuth | null> {
    if (!SECRET_FORMAT.test(secret)) return null
    const tokenHash = sha256(secret)
    const now = this.ctx.clock.now()
    const [found] = await this.ctx.db
      .select({ session: operatorSessions, operator: operators })
      .from(operatorSessions)
      .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
      .where(eq(operatorSessions.tokenHash, tokenHash))
    if (!found) return null
    const { session, operator } = found
    const idle = now.getTime() - session.lastSeenAt.getTime()
    if (
      operator.disabledAt ||
      now >= session.expiresAt ||
      idle >= SERVER_DEFAULTS.operatorSessionIdleMs
    ) {
      await this.ctx.db.delete(operatorSessions).where(eq(operatorSessions.tokenHash, tokenHash))
      return null
    }
    if (idle >= TOUCH_AFTER_MS) {
      await this.ctx.db
        .update(operatorSessions)
        .set({ lastSeenAt: now })
        .where(eq(operatorSessions.tokenHash, tokenHash))
    }
    return {
      operator: { id: operator.id, name: operator.name, role: operator.role as OperatorRole },
      tokenHash,
      csrfToken: session.csrfToken,
    }
  }

  async signOut(auth: OperatorAuth, ip: string | null): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const ended = await tx
        .delete(operatorSessions)
        .where(
          and(
            eq(operatorSessions.tokenHash, auth.tokenHash),
            eq(operatorSessions.operatorId, auth.operator.id),
          ),
        )
        .returning({ tokenHash: operatorSessions.tokenHash })
      if (ended.length === 0) return
      await this.audit.record(tx, {
        operatorId: auth.operator.id,
        ip,
        action: 'session.signOut',
        targetType: 'operator',
        targetId: auth.operator.id,
      })
    })
  }
}

const TOTP_GUESS_WINDOW_MS = 15 * 60_000

/**
 * Counts one code tried after the right password, before it is checked: false when
 * SERVER_DEFAULTS.operatorTotpGuessesPer15Minutes were tried in the window that began with the first
 * of them. One conditional update, so guesses sent at once cannot pass the count together; a sign-in
 * ends the count (takeTotpStep).
 */
async function takeTotpGuess(db: Db, operatorId: number, now: Date): Promise<boolean> {
  const windowOver = or(
    sql`${operators.totpGuessesSince} is null`,
    lte(operators.totpGuessesSince, new Date(now.getTime() - TOTP_GUESS_WINDOW_MS)),
  )
  const taken = await db
    .update(operators)
    .set({
      totpGuesses: sql`case when ${windowOver} then 1 else ${operators.totpGuesses} + 1 end`,
      totpGuessesSince: sql`case when ${windowOver} then ${now.toISOString()}::timestamptz else ${operators.totpGuessesSince} end`,
    })
    .where(
      and(
        eq(operators.id, operatorId),
        or(windowOver, lt(operators.totpGuesses, SERVER_DEFAULTS.operatorTotpGuessesPer15Minutes)),
      ),
    )
    .returning({ id: operators.id })
  return taken.length === 1
}
