import { and, eq, isNull } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { users } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { newInviteCode } from '../../domain/secrets'
import type { Identity, PersonBenefitService } from './benefits'
import { issueWelcomeCoupons } from '../coupons/coupon-service'
import { isUniqueViolation, type ServiceContext } from '../context'
import { recordInvite } from '../engagement/engagement-service'
import { WELCOME_MESSAGES, type MessageService } from '../engagement/message-service'

/** Optional context a client sends with a login (SPEC 3 "Login request") plus request headers. */
export interface LoginContext {
  channel?: string | null
  clientType?: string | null
  preGroup?: string
  shareUser?: number
  channelCode?: string
  inviteCode?: string
  deviceId?: string
  brand?: string
  deviceModel?: string
  osName?: string
  system?: string
  osVersion?: string
}

export type UserRow = typeof users.$inferSelect

/** The account that holds a number, deleted ones included (they hold none: deletion frees it). */
export async function findByMobile(mobilePhone: string, db: Db): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.mobilePhone, mobilePhone)).limit(1)
  return row
}

/** A live account, else LOGIN_TOKEN_INVALID: a deleted account's token is worth nothing. */
export async function getUser(userId: number, db: Db): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1)
  if (!row) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
  return row
}

/** How an account comes to be: the first proven login of a number (SMS code, or a WeChat bind). */
export class AccountRegistrationService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly messages: MessageService,
    private readonly benefits: PersonBenefitService,
  ) {}

  /**
   * Finds the account of a number or registers it (with its welcome messages); safe under races. A new
   * account gets the new-user benefits its number (and `wechat`, the WeChat being bound to it) did not
   * take before (services/accounts/benefits.ts).
   */
  async findOrRegister(
    mobilePhone: string,
    login: LoginContext,
    wechat: Pick<Identity, 'openId' | 'unionId'> = { openId: null, unionId: null },
  ) {
    const existing = await findByMobile(mobilePhone, this.ctx.db)
    if (existing) return { user: existing, created: false }
    const identity: Identity = { mobilePhone, ...wechat }
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const user = await this.ctx.db.transaction(async (tx) => {
          const taken = await this.benefits.taken(tx, identity)
          const [created] = await tx
            .insert(users)
            .values({
              mobilePhone,
              firstPurchaseUsed: taken.has('firstPurchase'),
              firstRechargeUsed: taken.has('firstRecharge'),
              inviteCode: newInviteCode(),
              invitedBy: login.inviteCode?.trim() || null,
              channelCode: login.channelCode || null,
              preGroup: login.preGroup || null,
              shareUser: login.shareUser ?? null,
              createdAt: this.ctx.clock.now(),
            })
            .returning()
          await recordInvite(tx, created.id, login.inviteCode, created.createdAt)
          if (!taken.has('welcome')) {
            await issueWelcomeCoupons(tx, created.id, created.createdAt)
            await this.benefits.record(tx, identity, ['welcome'], created.createdAt)
          }
          for (const welcome of WELCOME_MESSAGES) {
            await this.messages.sendMessage(
              created.id,
              welcome.type,
              welcome.title,
              welcome.content,
              tx,
            )
          }
          return created
        })
        return { user, created: true }
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        // Either the same number registered concurrently, or an invite code collided: look again.
        const raced = await findByMobile(mobilePhone, this.ctx.db)
        if (raced) return { user: raced, created: false }
      }
    }
    throw new Error('could not register user after 3 attempts')
  }
}
