import { and, eq, gt, isNull, lt, ne } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { authTokens, users } from '../../db/schema'
import { hashOpaqueSecret, newOpaqueSecret } from '../../domain/secrets'
import type { ServiceContext } from '../context'
import {
  PURGE_RUN_BUDGET_MS,
  purgeInBatches,
  timeBudget,
  type PurgeBudget,
  type PurgeTarget,
} from '../../db/purge-batches'
import { SessionCache } from './session-cache'

export interface AuthenticatedUser {
  userId: number
  tokenId: number
  frozen: boolean
}

const SESSION_CACHE_ENTRIES = 20_000

/** The purge of dead tokens: a day past expiry, or a day past revocation (each rule has its index). */
export function authTokenPurges(now: Date): PurgeTarget[] {
  const cutoff = new Date(now.getTime() - 86_400_000)
  return [
    {
      table: authTokens,
      due: lt(authTokens.expiresAt, cutoff),
      key: authTokens.expiresAt,
    },
    {
      table: authTokens,
      due: lt(authTokens.revokedAt, cutoff),
      key: authTokens.revokedAt,
    },
  ]
}

export class SessionService {
  private readonly cache: SessionCache<AuthenticatedUser>

  constructor(private readonly ctx: ServiceContext) {
    this.cache = new SessionCache(ctx.settings.sessionCacheMs, SESSION_CACHE_ENTRIES)
  }

  /** Issues a new opaque token; only its hash is stored. */
  async issue(db: Db, userId: number, clientType: string | null): Promise<string> {
    const token = newOpaqueSecret()
    const now = this.ctx.clock.now()
    await db.insert(authTokens).values({
      userId,
      tokenHash: hashOpaqueSecret(token),
      clientType,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.ctx.settings.tokenTtlDays * 86_400_000),
    })
    return token
  }

  /**
   * The token must exist, be live, and belong to the userId the client claims; the account must exist.
   * Answers from the session cache when it can (see SessionCache for how revocations reach it).
   */
  async authenticate(token: string, claimedUserId: string): Promise<AuthenticatedUser | null> {
    if (!/^[0-9a-f]{64}$/.test(token) || !/^\d{1,10}$/.test(claimedUserId)) return null
    const tokenHash = hashOpaqueSecret(token)
    const userId = Number(claimedUserId)
    const now = this.ctx.clock.now()
    const cached = this.cache.get(tokenHash, now.getTime())
    if (cached) return cached.userId === userId ? cached : null
    const begun = this.cache.begin()
    const [row] = await this.ctx.db
      .select({
        tokenId: authTokens.id,
        userId: authTokens.userId,
        frozen: users.frozen,
        expiresAt: authTokens.expiresAt,
      })
      .from(authTokens)
      .innerJoin(users, eq(users.id, authTokens.userId))
      .where(
        and(
          eq(authTokens.tokenHash, tokenHash),
          eq(authTokens.userId, userId),
          isNull(authTokens.revokedAt),
          gt(authTokens.expiresAt, now),
          isNull(users.deletedAt),
        ),
      )
      .limit(1)
    if (!row) return null
    const user: AuthenticatedUser = { userId: row.userId, tokenId: row.tokenId, frozen: row.frozen }
    this.cache.store(tokenHash, user, row.expiresAt.getTime(), now.getTime(), begun)
    return user
  }

  async revoke(tokenId: number): Promise<void> {
    await this.cache.change(
      (session) => session.tokenId === tokenId,
      () =>
        this.ctx.db
          .update(authTokens)
          .set({ revokedAt: this.ctx.clock.now() })
          .where(and(eq(authTokens.id, tokenId), isNull(authTokens.revokedAt))),
    )
  }

  /**
   * Runs `change`, a transaction that calls `revokeAllOf` for the user or closes the account, so that no
   * cached session of the user outlives its commit on this instance.
   */
  changingSessionsOf<R>(userId: number, change: () => Promise<R>): Promise<R> {
    return this.cache.change((session) => session.userId === userId, change)
  }

  /**
   * Revokes every live token of the user except `keepTokenId` (null: all of them). Call it inside
   * `changingSessionsOf`, so this instance's cache cannot keep a revoked session.
   */
  async revokeAllOf(db: Db, userId: number, keepTokenId: number | null): Promise<void> {
    if (!this.cache.changing) throw new Error('revokeAllOf runs inside sessions.changingSessionsOf')
    await db
      .update(authTokens)
      .set({ revokedAt: this.ctx.clock.now() })
      .where(
        and(
          eq(authTokens.userId, userId),
          isNull(authTokens.revokedAt),
          keepTokenId == null ? undefined : ne(authTokens.id, keepTokenId),
        ),
      )
  }

  /** Housekeeping: tokens expired or revoked more than a day ago are of no further use. */
  /** Tokens a day past their expiry or their revocation (in batches, purge-batches.ts). */
  async purgeDead(
    now: Date,
    budget: PurgeBudget = timeBudget(PURGE_RUN_BUDGET_MS),
  ): Promise<number> {
    let deleted = 0
    for (const target of authTokenPurges(now)) {
      deleted += (await purgeInBatches(this.ctx.db, target, { budget })).deleted
    }
    return deleted
  }
}
