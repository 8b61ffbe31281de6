import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import type { AuthTokenResult } from '../../contract/device'
import { deviceAuthTokens, devices } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import type { ServiceContext } from '../context'
import {
  PURGE_RUN_BUDGET_MS,
  purgeInBatches,
  timeBudget,
  type PurgeBudget,
  type PurgeTarget,
} from '../../db/purge-batches'
import { refusal } from '../devices/device-view'
import type { GrantService } from './grant-service'
import { deviceNotFound } from '../devices/device-lifecycle'

/** A control-page token works once, this long after it is issued (docs/cloud-phones.md). */
export const AUTH_TOKEN_TTL_MS = 2 * 60_000
/** The page opened with it may send commands this long. */
export const CONTROL_SESSION_TTL_MS = 30 * 60_000

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex')
const secret = () => randomBytes(24).toString('base64url')

/** Why a control page is not shown: 401 for a bad/used/expired token, 403 for the wrong user/phone. */
export class ControlRefusal extends Error {
  constructor(readonly httpStatus: 401 | 403) {
    super('链接已失效，请返回重新进入')
  }
}

export interface ControlSession {
  userId: number
  deviceId: number
  /** false: a grantee with 仅查看 — the page shows the stream, and the server refuses their keys and commands. */
  canControl: boolean
}

/** The token hand-off between our app and the supplier's control page (web_instance). */
/** The purge of control-page tokens: once no control session opened with one can be live. */
export function deviceAuthTokenPurge(now: Date): PurgeTarget {
  return {
    table: deviceAuthTokens,
    due: lt(
      deviceAuthTokens.expiresAt,
      new Date(now.getTime() - CONTROL_SESSION_TTL_MS - AUTH_TOKEN_TTL_MS),
    ),
    key: deviceAuthTokens.expiresAt,
  }
}

export class DeviceAuthService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly grants: GrantService,
  ) {}

  /** The phone if the user owns it or may control it now (authorisation center), else undefined. */
  private async controllable(userId: number, deviceId: number) {
    const [device] = await this.ctx.db.select().from(devices).where(eq(devices.id, deviceId))
    if (!device) return undefined
    if (device.userId === userId) return device
    return (await this.grants.allows(userId, deviceId, 'control', this.ctx.db)) ? device : undefined
  }

  /**
   * The phone and whether the user may control it, if they own it or were granted it now (仅查看 sees
   * the control page's stream without its controls), else undefined.
   */
  private async viewable(userId: number, deviceId: number) {
    const device = await this.controllable(userId, deviceId)
    if (device) return { device, canControl: true }
    if (!(await this.grants.allows(userId, deviceId, 'view', this.ctx.db))) return undefined
    const [row] = await this.ctx.db.select().from(devices).where(eq(devices.id, deviceId))
    return row ? { device: row, canControl: false } : undefined
  }

  /**
   * A one-time token for a phone the user owns or was granted (仅查看 too: their page only watches),
   * which must be running and not busy.
   */
  async issue(userId: number, deviceId: number): Promise<AuthTokenResult> {
    const device = (await this.viewable(userId, deviceId))?.device
    if (!device) throw deviceNotFound()
    const why = refusal(device)
    if (why) throw new BizError(ResultCode.SHOW_ERROR_TIPS, why)
    const authToken = secret()
    const now = this.ctx.clock.now()
    const expiresAt = new Date(now.getTime() + AUTH_TOKEN_TTL_MS)
    await this.ctx.db.insert(deviceAuthTokens).values({
      tokenHash: hash(authToken),
      userId,
      deviceId,
      createdAt: now,
      expiresAt,
    })
    return {
      authToken,
      expiresAt: expiresAt.getTime(),
      controlUrl: this.ctx.supplier.controlUrl({ userId, deviceId }),
    }
  }

  /**
   * Uses a token for the page of `deviceId` as `userId`: valid once, before it expires, for the user
   * and phone it was issued for, while that user still owns or may control the phone. Returns the page's
   * session secret.
   */
  async consume(token: string, userId: number, deviceId: number): Promise<{ session: string }> {
    if (!token) throw new ControlRefusal(401)
    const now = this.ctx.clock.now()
    const [row] = await this.ctx.db
      .select()
      .from(deviceAuthTokens)
      .where(eq(deviceAuthTokens.tokenHash, hash(token)))
    if (!row) throw new ControlRefusal(401)
    if (row.userId !== userId || row.deviceId !== deviceId) throw new ControlRefusal(403)
    if (row.usedAt || row.expiresAt <= now) throw new ControlRefusal(401)
    const device = (await this.viewable(userId, deviceId))?.device
    if (!device || device.status === DeviceStatus.released) throw new ControlRefusal(403)
    const session = secret()
    const used = await this.ctx.db
      .update(deviceAuthTokens)
      .set({
        usedAt: now,
        sessionHash: hash(session),
        sessionExpiresAt: new Date(now.getTime() + CONTROL_SESSION_TTL_MS),
      })
      .where(
        and(
          eq(deviceAuthTokens.id, row.id),
          isNull(deviceAuthTokens.usedAt),
          gt(deviceAuthTokens.expiresAt, now),
        ),
      )
      .returning({ id: deviceAuthTokens.id })
    if (used.length === 0) throw new ControlRefusal(401)
    return { session }
  }

  /**
   * The user and phone a control page's session belongs to, or null once it has expired — or once
   * its user may no longer control the phone (grant revoked or run out, phone transferred or
   * released): every call of the page asks again, so such a page goes dark at its next call.
   */
  async session(sessionSecret: string): Promise<ControlSession | null> {
    if (!sessionSecret) return null
    const [row] = await this.ctx.db
      .select({ userId: deviceAuthTokens.userId, deviceId: deviceAuthTokens.deviceId })
      .from(deviceAuthTokens)
      .where(
        and(
          eq(deviceAuthTokens.sessionHash, hash(sessionSecret)),
          gt(deviceAuthTokens.sessionExpiresAt, this.ctx.clock.now()),
        ),
      )
    if (!row) return null
    const seen = await this.viewable(row.userId, row.deviceId)
    return seen && seen.device.status !== DeviceStatus.released
      ? { ...row, canControl: seen.canControl }
      : null
  }

  /** Drops tokens whose sessions are long over. */
  /** Tokens whose control session can no longer be live (in batches, purge-batches.ts). */
  async purgeOld(
    now: Date,
    budget: PurgeBudget = timeBudget(PURGE_RUN_BUDGET_MS),
  ): Promise<number> {
    return (await purgeInBatches(this.ctx.db, deviceAuthTokenPurge(now), { budget })).deleted
  }
}
