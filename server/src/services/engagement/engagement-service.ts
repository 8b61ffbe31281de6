import { and, count, desc, eq, gte, isNull, sql } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import { floatingBallProblem, orderedShortcuts } from '#domain/floating-ball'
import {
  type FloatingBallSettings,
  type NewUserGuideConfig,
  type PlayTrialConfig,
  type SaveFloatingBallBody,
  type TrialOffer,
  type TrialPhone,
  type Invitee,
} from '../../contract/engagement'
import type { Db } from '../../db/client'
import {
  devices,
  floatingBallSettings,
  gameTrials,
  goods,
  goodsInventory,
  invites,
  newUserGuideSteps,
  trialClaims,
  trialOffers,
  users,
  zones,
} from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import { maskPhone } from '#domain/formatters'
import { normalisePage, toPaged, type PageRequest } from '../../domain/paging'
import { identityOf, type PersonBenefitService } from '../accounts/benefits'
import { isUniqueViolation, type ServiceContext } from '../context'
import type { DeviceLifecycleService } from '../devices/device-lifecycle'
import type { GoodsService } from '../catalogue/goods-service'
import { MessageKind, type MessageService } from './message-service'

const MINUTES_PER_DAY = 1440
export const TRIAL_TAKEN = '您已领取过免费试用云机'
/** The trial was taken on an earlier account of this number or WeChat (services/accounts/benefits.ts). */
export const TRIAL_TAKEN_BEFORE =
  '该手机号或微信已领取过免费试用云机，新人福利每人仅限一次，注销后重新注册不再发放'

export const DEFAULT_FLOATING_BALL: FloatingBallSettings = {
  visible: true,
  side: 'right',
  opacity: 80,
  shortcuts: ['返回', '主页', '多任务'],
}

/** Checks a floating-ball form; the first problem is thrown as a Chinese message. */
export function validateFloatingBall(body: SaveFloatingBallBody): FloatingBallSettings {
  const problem = floatingBallProblem(body)
  if (problem) throw tip(problem)
  const side = body.side === 'left' ? 'left' : 'right'
  return {
    visible: body.visible,
    side,
    opacity: body.opacity,
    shortcuts: orderedShortcuts(body.shortcuts),
  }
}

/**
 * Binds a newly registered account to the owner of `inviteCode`, inside the registration's
 * transaction. An unknown code or one's own code binds nothing; an account is bound at most once.
 */
export async function recordInvite(
  tx: Db,
  inviteeId: number,
  inviteCode: string | undefined,
  now: Date,
): Promise<boolean> {
  const code = inviteCode?.trim()
  if (!code) return false
  const [inviter] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.inviteCode, code), isNull(users.deletedAt)))
  if (!inviter || inviter.id === inviteeId) return false
  const inserted = await tx
    .insert(invites)
    .values({ inviteeId, inviterId: inviter.id, inviteCode: code, createdAt: now })
    .onConflictDoNothing()
    .returning({ inviteeId: invites.inviteeId })
  return inserted.length > 0
}

/** New-user guide and trial phone, game-trial landing config, floating ball, invites. */
export class EngagementService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly lifecycle: DeviceLifecycleService,
    private readonly messages: MessageService,
    private readonly goods: GoodsService,
    private readonly benefits: PersonBenefitService,
  ) {}

  /**
   * Why this user may not claim the trial phone, or null: claimed here, or by the person before. The
   * person's claims are read before the account's: each statement sees what was committed when it began,
   * so a claim of this account committing between the two reads is then seen as this account's
   * (TRIAL_TAKEN), never as an earlier account's.
   */
  private async trialRefusal(db: Db, userId: number): Promise<string | null> {
    const taken = await this.benefits.taken(db, await identityOf(db, userId))
    const [claim] = await db
      .select({ userId: trialClaims.userId })
      .from(trialClaims)
      .where(eq(trialClaims.userId, userId))
    if (claim) return TRIAL_TAKEN
    return taken.has('trial') ? TRIAL_TAKEN_BEFORE : null
  }

  private async offerRow(db: Db) {
    const [row] = await db
      .select({
        enabled: trialOffers.enabled,
        goodId: trialOffers.goodId,
        minutes: trialOffers.minutes,
        zonePolicy: trialOffers.zonePolicy,
        goodName: goods.name,
        configName: goods.configName,
      })
      .from(trialOffers)
      .innerJoin(goods, eq(goods.id, trialOffers.goodId))
      .where(eq(trialOffers.id, 1))
    return row
  }

  private async stockOf(goodId: number, db: Db): Promise<number> {
    const [row] = await db
      .select({ stock: sql<number>`coalesce(sum(${goodsInventory.stock}), 0)::int` })
      .from(goodsInventory)
      .where(eq(goodsInventory.goodId, goodId))
    return row?.stock ?? 0
  }

  async trialOffer(userId: number): Promise<TrialOffer> {
    const offer = await this.offerRow(this.ctx.db)
    if (!offer) {
      return {
        enabled: false,
        goodId: 0,
        goodName: '',
        configName: '',
        minutes: 0,
        zonePolicy: 'mostStock',
        claimed: false,
        inStock: false,
      }
    }
    const claimed = (await this.trialRefusal(this.ctx.db, userId)) !== null
    const inStock = (await this.stockOf(offer.goodId, this.ctx.db)) > 0
    return {
      ...offer,
      enabled: offer.enabled && !claimed && inStock,
      claimed,
      inStock,
    }
  }

  async guideConfig(userId: number): Promise<NewUserGuideConfig> {
    const steps = await this.ctx.db
      .select({
        id: newUserGuideSteps.id,
        title: newUserGuideSteps.title,
        text: newUserGuideSteps.text,
        image: newUserGuideSteps.image,
      })
      .from(newUserGuideSteps)
      .orderBy(newUserGuideSteps.sort, newUserGuideSteps.id)
    return { steps, trialOffer: await this.trialOffer(userId) }
  }

  /**
   * The free trial phone: once per person ever, one unit of stock from the zone with the most, created
   * through DeviceLifecycleService in the same transaction. No order is written. Once: trial_claims' primary key
   * per account, and benefit_claims' per number and WeChat, which outlives the account (of two accounts
   * sharing a WeChat that claim at once, the second waits on the first's row and is refused).
   */
  async claimTrialPhone(userId: number): Promise<TrialPhone> {
    try {
      return await this.ctx.db.transaction(async (tx) => {
        const offer = await this.offerRow(tx)
        if (!offer?.enabled) throw tip('当前没有免费试用活动')
        const refusal = await this.trialRefusal(tx, userId)
        if (refusal) throw tip(refusal)
        const now = this.ctx.clock.now()
        await this.benefits.claim(tx, await identityOf(tx, userId), 'trial', now)
        const [zone] = await tx
          .select({ zoneId: goodsInventory.zoneId, name: zones.name })
          .from(goodsInventory)
          .innerJoin(zones, eq(zones.id, goodsInventory.zoneId))
          .where(
            and(
              eq(goodsInventory.goodId, offer.goodId),
              gte(goodsInventory.stock, 1),
              eq(zones.onSale, true),
            ),
          )
          .orderBy(desc(goodsInventory.stock), zones.sort, zones.id)
          .limit(1)
        if (!zone || !(await this.goods.reserveStock(tx, offer.goodId, zone.zoneId, 1))) {
          throw new BizError(ResultCode.CLOUD_OUT_OF_STOCK, '试用云机已领完，请稍后再试')
        }
        const [deviceId] = await this.lifecycle.createDevicesForOrder(tx, {
          userId,
          orderId: 0,
          goodId: offer.goodId,
          zoneId: zone.zoneId,
          quantity: 1,
          days: offer.minutes / MINUTES_PER_DAY,
        })
        const [device] = await tx
          .update(devices)
          .set({ orderId: null })
          .where(eq(devices.id, deviceId))
          .returning({ name: devices.name, expireAt: devices.expireAt })
        await tx.insert(trialClaims).values({
          userId,
          deviceId,
          goodId: offer.goodId,
          zoneId: zone.zoneId,
          claimedAt: now,
        })
        await this.messages.sendMessage(
          userId,
          MessageKind.CREATE,
          '试用云机领取成功',
          `${device.name}（${offer.goodName}，${zone.name}）正在创建，几分钟后即可使用。`,
          tx,
        )
        return {
          deviceId,
          name: device.name,
          zoneName: zone.name,
          expireAt: device.expireAt.getTime(),
        }
      })
    } catch (error) {
      // a concurrent claim by the same user, or by the same person's other account, committed first
      if (isUniqueViolation(error)) throw tip(TRIAL_TAKEN)
      throw error
    }
  }

  async playTrialConfig(): Promise<PlayTrialConfig> {
    const [game] = await this.ctx.db.select().from(gameTrials).where(eq(gameTrials.id, 1))
    if (!game) throw tip('试玩活动已结束')
    const offer = await this.offerRow(this.ctx.db)
    const { id: _id, ...rest } = game
    return {
      ...rest,
      trial: {
        offered: Boolean(offer?.enabled),
        goodName: offer?.goodName ?? '',
        configName: offer?.configName ?? '',
        minutes: offer?.minutes ?? 0,
      },
    }
  }

  async floatingBall(userId: number): Promise<FloatingBallSettings> {
    const [row] = await this.ctx.db
      .select()
      .from(floatingBallSettings)
      .where(eq(floatingBallSettings.userId, userId))
    if (!row) return { ...DEFAULT_FLOATING_BALL, shortcuts: [...DEFAULT_FLOATING_BALL.shortcuts] }
    return {
      visible: row.visible,
      side: row.side === 'left' ? 'left' : 'right',
      opacity: row.opacity,
      shortcuts: row.shortcuts,
    }
  }

  async saveFloatingBall(
    userId: number,
    body: SaveFloatingBallBody,
  ): Promise<FloatingBallSettings> {
    const settings = validateFloatingBall(body)
    const values = { ...settings, updatedAt: this.ctx.clock.now() }
    await this.ctx.db
      .insert(floatingBallSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: floatingBallSettings.userId, set: values })
    return settings
  }

  /** Who joined with my invite code, newest first, numbers masked. */
  async myInvitees(userId: number, request: PageRequest) {
    const { page, rows, offset } = normalisePage(request)
    const where = eq(invites.inviterId, userId)
    const records = await this.ctx.db
      .select({ mobilePhone: users.mobilePhone, createdAt: invites.createdAt })
      .from(invites)
      .innerJoin(users, eq(users.id, invites.inviteeId))
      .where(where)
      .orderBy(desc(invites.createdAt), desc(invites.inviteeId))
      .limit(rows)
      .offset(offset)
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(invites).where(where)
    const list: Invitee[] = records.map((r) => ({
      mobilePhone: r.mobilePhone ? maskPhone(r.mobilePhone) : '已注销用户',
      joinedAt: r.createdAt.getTime(),
    }))
    return toPaged(list, page, rows, total)
  }
}
