import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { devices, serverSecrets } from '../../db/schema'
import type { ServiceContext } from '../context'
import type { GrantService } from '../sharing/grant-service'

/**
 * Screen URLs are given out in steps of this length: every URL made within one step ends at the
 * same moment (so a list page and the browser's image cache can keep them), at least one step and at
 * most two after it was made.
 */
export const SCREEN_PASS_STEP_MS = 5 * 60_000
const SCREEN_PASS_STEPS = 2

const KEY_NAME = 'screen-pass'

/** The part of a screen URL that says who may see it until when: `d=…&v=…&e=…&s=…`. */
export interface ScreenPassQuery {
  /** The phone (devices.id) the instance belongs to. */
  d?: string
  /** The viewer (users.id) it was given to. */
  v?: string
  /** Expiry, epoch ms. */
  e?: string
  /** HMAC-SHA256 of instance, phone, viewer and expiry under the database's screen-pass key. */
  s?: string
}

/** Passes for one viewer, all made at one moment. */
export interface ScreenPasses {
  /** The pass query for a phone's current instance. */
  query(instanceId: string, deviceId: number): string
  /** Until when a page holding these passes may still be handed out (each has a step left). */
  freshUntil: number
}

const whole = (value: string | undefined) =>
  value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : null

/**
 * Who may see a phone's screen, carried in its URL. The URL's only other credential, the instance
 * id, never changes while the phone lives, so on its own it would show the screen to whoever once
 * saw it — after a grant was revoked or the phone transferred, too. A pass names its viewer and ends
 * within minutes, and serving it asks again whether that viewer may see the phone now (its owner, or
 * a grant that is neither revoked nor run out): revoking or transferring ends every earlier URL at
 * once. The key is random, one per database (server_secrets), made on first use.
 */
export class ScreenAccessService {
  private key: Promise<Buffer> | null = null

  constructor(
    private readonly ctx: ServiceContext,
    private readonly grants: GrantService,
  ) {}

  private loadKey(): Promise<Buffer> {
    this.key ??= (async () => {
      const { db } = this.ctx
      await db
        .insert(serverSecrets)
        .values({
          name: KEY_NAME,
          value: randomBytes(32).toString('hex'),
          createdAt: this.ctx.clock.now(),
        })
        .onConflictDoNothing()
      const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, KEY_NAME))
      return Buffer.from(row.value, 'hex')
    })().catch((error: unknown) => {
      this.key = null // asked again next time
      throw error
    })
    return this.key
  }

  private static sign(
    key: Buffer,
    instanceId: string,
    deviceId: number,
    viewerId: number,
    expiresAt: number,
  ) {
    return createHmac('sha256', key)
      .update(`screen|${instanceId}|${deviceId}|${viewerId}|${expiresAt}`)
      .digest('base64url')
  }

  /** Passes for `viewerId` as of now (one HMAC per phone: cheap enough for every list page). */
  async passes(viewerId: number): Promise<ScreenPasses> {
    const key = await this.loadKey()
    const step = Math.floor(this.ctx.clock.now().getTime() / SCREEN_PASS_STEP_MS)
    const expiresAt = (step + SCREEN_PASS_STEPS) * SCREEN_PASS_STEP_MS
    return {
      query: (instanceId, deviceId) =>
        `d=${deviceId}&v=${viewerId}&e=${expiresAt}&s=${ScreenAccessService.sign(key, instanceId, deviceId, viewerId, expiresAt)}`,
      freshUntil: (step + 1) * SCREEN_PASS_STEP_MS,
    }
  }

  /**
   * Whether a screen URL of `instanceId` carrying `pass` may be served now: the pass is genuine and
   * unexpired, the instance is still the phone's, the phone is not released, and the viewer owns it
   * or holds a live grant to it.
   */
  async admits(instanceId: string, pass: ScreenPassQuery): Promise<boolean> {
    const deviceId = whole(pass.d)
    const viewerId = whole(pass.v)
    const expiresAt = whole(pass.e)
    if (deviceId === null || viewerId === null || expiresAt === null || !pass.s) return false
    if (expiresAt <= this.ctx.clock.now().getTime()) return false
    const expected = Buffer.from(
      ScreenAccessService.sign(await this.loadKey(), instanceId, deviceId, viewerId, expiresAt),
    )
    const given = Buffer.from(pass.s)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
    const [phone] = await this.ctx.db
      .select({
        userId: devices.userId,
        status: devices.status,
        instanceId: devices.supplierInstanceId,
      })
      .from(devices)
      .where(eq(devices.id, deviceId))
    if (!phone || phone.instanceId !== instanceId || phone.status === DeviceStatus.released) {
      return false
    }
    return phone.userId === viewerId || this.grants.allows(viewerId, deviceId, 'view', this.ctx.db)
  }
}
