import { and, eq, gt, isNull, lt, ne, or } from 'drizzle-orm'
import type { Db } from '../db/client'
import { authTokens, users } from '../db/schema'
import { hashOpaqueSecret, newOpaqueSecret } from '../domain/secrets'
import type { ServiceContext } from './context'

export interface AuthenticatedUser {
  userId: number
  tokenId: number
  frozen: boolean
}

export class SessionService {
  constructor(private readonly ctx: ServiceContext) {}

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

  /** The token must exist, be live, and belong to the userId the client claims; the account must exist. */
  async authenticate(token: string, claimedUserId: string): Promise<AuthenticatedUser | null> {
    if (!/^[0-9a-f]{64}$/.test(token) || !/^\d{1,10}$/.test(claimedUserId)) return null
    const [row] = await this.ctx.db
      .select({ tokenId: authTokens.id, userId: authTokens.userId, frozen: users.frozen })
      .from(authTokens)
      .innerJoin(users, eq(users.id, authTokens.userId))
      .where(
        and(
          eq(authTokens.tokenHash, hashOpaqueSecret(token)),
          eq(authTokens.userId, Number(claimedUserId)),
          isNull(authTokens.revokedAt),
          gt(authTokens.expiresAt, this.ctx.clock.now()),
          isNull(users.deletedAt),
        ),
      )
      .limit(1)
    return row ?? null
  }

  async revoke(tokenId: number): Promise<void> {
    await this.ctx.db
      .update(authTokens)
      .set({ revokedAt: this.ctx.clock.now() })
      .where(and(eq(authTokens.id, tokenId), isNull(authTokens.revokedAt)))
  }

  /** Revokes every live token of the user except `keepTokenId` (null: all of them). */
  async revokeAllOf(db: Db, userId: number, keepTokenId: number | null): Promise<void> {
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
  async purgeDead(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - 86_400_000)
    const rows = await this.ctx.db
      .delete(authTokens)
      .where(or(lt(authTokens.expiresAt, cutoff), lt(authTokens.revokedAt, cutoff)))
      .returning({ id: authTokens.id })
    return rows.length
  }
}
