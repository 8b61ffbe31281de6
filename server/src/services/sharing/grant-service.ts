import { randomBytes } from 'node:crypto'
import { and, count, desc, eq, gt, inArray, isNull, ne } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { grantAllows, isGrantDays, SHARE_CODE_TTL_MS, SHARE_QR_PREFIX } from '#domain/grants'
import { validateMobile } from '#domain/validators'
import type {
  AcceptShareResult,
  CreateGrantBody,
  CreateGrantResult,
  CreateShareBody,
  GrantDirection,
  GrantView,
  ShareCode,
  SharePreview,
} from '../../contract/grant'
import type { Db } from '../../db/client'
import { deviceGrants, deviceShareCodes, devices, users } from '../../db/schema'
import { tip } from '../../domain/biz-error'
import { maskPhone } from '#domain/formatters'
import { normalisePage, toPaged, type PageRequest } from '../../domain/paging'
import type { ServiceContext } from '../context'
import { qrDataUrl } from '../qr-image'

const DAY_MS = 86_400_000
export const NOT_YOUR_PHONES = '云手机不存在或不属于您的账号'
export const SHARE_GONE = '分享二维码已失效，请让对方重新分享'

/** A grant that counts now: not revoked, not expired. */
const live = (now: Date) => and(isNull(deviceGrants.revokedAt), gt(deviceGrants.expiresAt, now))

/**
 * Authorisation center (docs/cloud-phones.md "Authorisation"): owners let other accounts view or control
 * phones until a time. Every device call of a grantee asks `permissionFor` at the moment of the call,
 * so a revoke or an expiry takes effect at once.
 */
export class GrantService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The permission `userId` holds on someone else's phone now (1 view, 2 control), or null. */
  async permissionFor(userId: number, deviceId: number, db: Db) {
    const [grant] = await db
      .select({ permission: deviceGrants.permission })
      .from(deviceGrants)
      .where(
        and(
          eq(deviceGrants.granteeId, userId),
          eq(deviceGrants.deviceId, deviceId),
          live(this.ctx.clock.now()),
        ),
      )
    return grant?.permission ?? null
  }

  async allows(userId: number, deviceId: number, need: 'view' | 'control', db: Db) {
    const permission = await this.permissionFor(userId, deviceId, db)
    return permission !== null && grantAllows(permission, need)
  }

  /** The grants to `userId` that count now, by phone. */
  async grantsTo(userId: number, db: Db) {
    return db
      .select({
        deviceId: deviceGrants.deviceId,
        permission: deviceGrants.permission,
        expiresAt: deviceGrants.expiresAt,
        ownerMobile: users.mobilePhone,
      })
      .from(deviceGrants)
      .innerJoin(users, eq(users.id, deviceGrants.ownerId))
      .where(and(eq(deviceGrants.granteeId, userId), live(this.ctx.clock.now())))
  }

  /** The owner's phones among `deviceIds` that can be authorised (not released), all or an error. */
  private async ownPhones(db: Db, ownerId: number, deviceIds: number[]) {
    const ids = [...new Set(deviceIds)]
    const phones = await db
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(
          inArray(devices.id, ids),
          eq(devices.userId, ownerId),
          ne(devices.status, DeviceStatus.released),
        ),
      )
    if (phones.length !== ids.length) throw tip(NOT_YOUR_PHONES)
    return ids
  }

  private checkDays(days: number) {
    if (!isGrantDays(days)) throw tip('请选择授权时长')
  }

  /** Grants (or re-grants: the old one is replaced) each phone to the account of `mobilePhone`. */
  async grant(ownerId: number, body: CreateGrantBody): Promise<CreateGrantResult> {
    const problem = validateMobile(body.mobilePhone)
    if (problem) throw tip(problem)
    this.checkDays(body.days)
    const [grantee] = await this.ctx.db
      .select()
      .from(users)
      .where(eq(users.mobilePhone, body.mobilePhone.trim()))
    if (!grantee || grantee.deletedAt) throw tip('该手机号尚未注册云手机账号')
    if (grantee.id === ownerId) throw tip('不能授权给自己')
    const now = this.ctx.clock.now()
    const expiresAt = new Date(now.getTime() + body.days * DAY_MS)
    const ids = await this.ctx.db.transaction(async (tx) => {
      const phones = await this.ownPhones(tx, ownerId, body.deviceIds)
      await this.replaceGrants(tx, ownerId, grantee.id, phones, body.permission, expiresAt)
      return phones
    })
    return {
      count: ids.length,
      expiresAt: expiresAt.getTime(),
      granteeMobile: maskPhone(grantee.mobilePhone ?? ''),
    }
  }

  private async replaceGrants(
    tx: Db,
    ownerId: number,
    granteeId: number,
    deviceIds: number[],
    permission: number,
    expiresAt: Date,
  ) {
    const now = this.ctx.clock.now()
    await tx
      .update(deviceGrants)
      .set({ revokedAt: now })
      .where(
        and(
          eq(deviceGrants.granteeId, granteeId),
          inArray(deviceGrants.deviceId, deviceIds),
          isNull(deviceGrants.revokedAt),
        ),
      )
    await tx.insert(deviceGrants).values(
      deviceIds.map((deviceId) => ({
        ownerId,
        granteeId,
        deviceId,
        permission,
        expiresAt,
        createdAt: now,
      })),
    )
  }

  /** Live grants by me (`out`) or to me (`in`), newest first. */
  async list(userId: number, direction: GrantDirection, request: PageRequest) {
    const { page, rows, offset } = normalisePage(request)
    const now = this.ctx.clock.now()
    const mine = and(
      direction === 'out' ? eq(deviceGrants.ownerId, userId) : eq(deviceGrants.granteeId, userId),
      live(now),
    )
    const other = direction === 'out' ? deviceGrants.granteeId : deviceGrants.ownerId
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(deviceGrants).where(mine)
    const found = await this.ctx.db
      .select({ grant: deviceGrants, deviceName: devices.name, otherMobile: users.mobilePhone })
      .from(deviceGrants)
      .innerJoin(devices, eq(devices.id, deviceGrants.deviceId))
      .innerJoin(users, eq(users.id, other))
      .where(mine)
      .orderBy(desc(deviceGrants.createdAt), desc(deviceGrants.id))
      .limit(rows)
      .offset(offset)
    const records: GrantView[] = found.map(({ grant, deviceName, otherMobile }) => ({
      grantId: grant.id,
      deviceId: grant.deviceId,
      deviceName,
      permission: grant.permission,
      expiresAt: grant.expiresAt.getTime(),
      createdAt: grant.createdAt.getTime(),
      otherMobile: maskPhone(otherMobile ?? ''),
    }))
    return toPaged(records, page, rows, total)
  }

  /** Ends the owner's grants at once; an id that is not the owner's live grant is refused. */
  async revoke(ownerId: number, grantIds: number[]): Promise<{ count: number }> {
    const ids = [...new Set(grantIds)]
    return this.ctx.db.transaction(async (tx) => {
      const revoked = await tx
        .update(deviceGrants)
        .set({ revokedAt: this.ctx.clock.now() })
        .where(
          and(
            inArray(deviceGrants.id, ids),
            eq(deviceGrants.ownerId, ownerId),
            isNull(deviceGrants.revokedAt),
          ),
        )
        .returning({ id: deviceGrants.id })
      if (revoked.length !== ids.length) throw tip('授权不存在或已撤销')
      return { count: revoked.length }
    })
  }

  /** A one-time QR share of the owner's phones (valid SHARE_CODE_TTL_MS). */
  async createShare(ownerId: number, body: CreateShareBody): Promise<ShareCode> {
    this.checkDays(body.days)
    const deviceIds = await this.ownPhones(this.ctx.db, ownerId, body.deviceIds)
    const code = randomBytes(12).toString('base64url')
    const now = this.ctx.clock.now()
    const expiresAt = new Date(now.getTime() + SHARE_CODE_TTL_MS)
    await this.ctx.db.insert(deviceShareCodes).values({
      code,
      ownerId,
      deviceIds,
      permission: body.permission,
      grantDays: body.days,
      expiresAt,
      createdAt: now,
    })
    const text = `${SHARE_QR_PREFIX}${code}`
    return { code, text, qrImage: await qrDataUrl(text), expiresAt: expiresAt.getTime() }
  }

  private async usableShare(db: Db, code: string, userId: number) {
    const [share] = await db.select().from(deviceShareCodes).where(eq(deviceShareCodes.code, code))
    if (!share || share.acceptedAt || share.expiresAt <= this.ctx.clock.now()) {
      throw tip(SHARE_GONE)
    }
    if (share.ownerId === userId) throw tip('这是您自己分享的云手机')
    return share
  }

  async previewShare(userId: number, code: string): Promise<SharePreview> {
    const share = await this.usableShare(this.ctx.db, code, userId)
    const [owner] = await this.ctx.db.select().from(users).where(eq(users.id, share.ownerId))
    return {
      ownerMobile: maskPhone(owner?.mobilePhone ?? ''),
      deviceCount: share.deviceIds.length,
      permission: share.permission,
      days: share.grantDays,
      expiresAt: share.expiresAt.getTime(),
    }
  }

  /** Accepting a share: grants to the caller, once (a second accept of the same code is refused). */
  async acceptShare(userId: number, code: string): Promise<AcceptShareResult> {
    return this.ctx.db.transaction(async (tx) => {
      const share = await this.usableShare(tx, code, userId)
      const now = this.ctx.clock.now()
      const [claimed] = await tx
        .update(deviceShareCodes)
        .set({ acceptedBy: userId, acceptedAt: now })
        .where(and(eq(deviceShareCodes.id, share.id), isNull(deviceShareCodes.acceptedAt)))
        .returning({ id: deviceShareCodes.id })
      if (!claimed) throw tip(SHARE_GONE)
      // phones released or given away since the share was made are left out
      const still = await tx
        .select({ id: devices.id })
        .from(devices)
        .where(
          and(
            inArray(devices.id, share.deviceIds),
            eq(devices.userId, share.ownerId),
            ne(devices.status, DeviceStatus.released),
          ),
        )
      if (still.length === 0) throw tip(SHARE_GONE)
      const expiresAt = new Date(now.getTime() + share.grantDays * DAY_MS)
      const ids = still.map((row) => row.id)
      await this.replaceGrants(tx, share.ownerId, userId, ids, share.permission, expiresAt)
      return { count: ids.length, expiresAt: expiresAt.getTime() }
    })
  }

  /** A transferred phone's grants end with the owner who gave them. */
  async revokeForDevices(tx: Db, deviceIds: number[]) {
    await tx
      .update(deviceGrants)
      .set({ revokedAt: this.ctx.clock.now() })
      .where(and(inArray(deviceGrants.deviceId, deviceIds), isNull(deviceGrants.revokedAt)))
  }
}
