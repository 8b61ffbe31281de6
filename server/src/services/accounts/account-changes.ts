import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import { validatePassword } from '#domain/validators'
import {
  messageSettings,
  messages,
  mobileChangeTickets,
  usageLogs,
  users,
  userWorkTypes,
} from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { MOBILE_CHANGE_TICKET_TTL_MS } from '../../domain/login-policy'
import { hashOpaqueSecret, newOpaqueSecret } from '../../domain/secrets'
import { findByMobile, getUser } from './account-registration'
import type { PersonBenefitService } from './benefits'
import { isUniqueViolation, type ServiceContext } from '../context'
import { hashPassword, verifyPassword } from './passwords'
import type { SessionService } from './session-service'
import { assertMobile, type SmsService } from './sms-service'

/**
 * What a signed-in owner changes of their account (user-routes.ts): the password, the number, and the
 * account's deletion. Each proves the owner first (the old password or an SMS code to the number).
 */
export class AccountChangeService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly sms: SmsService,
    private readonly sessions: SessionService,
    private readonly benefits: PersonBenefitService,
  ) {}

  private assertNewPassword(password: string) {
    const problem = validatePassword(password)
    if (problem) throw new BizError(ResultCode.SHOW_ERROR_TIPS, problem)
  }

  async changePassword(userId: number, tokenId: number, oldPassword: string, newPassword: string) {
    const user = await getUser(userId, this.ctx.db)
    if (!user.passwordHash) throw new BizError(ResultCode.MUST_SET_PASSWORD)
    if (!(await verifyPassword(user.passwordHash, oldPassword)))
      throw new BizError(ResultCode.OLD_PASSWORD_WRONG)
    this.assertNewPassword(newPassword)
    const passwordHash = await hashPassword(newPassword)
    await this.sessions.changingSessionsOf(userId, () =>
      this.ctx.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, userId))
        await this.sessions.revokeAllOf(tx, userId, tokenId)
      }),
    )
  }

  async setFirstPassword(userId: number, newPassword: string) {
    const user = await getUser(userId, this.ctx.db)
    if (user.passwordHash)
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '已设置过密码，请使用修改密码')
    this.assertNewPassword(newPassword)
    const passwordHash = await hashPassword(newPassword)
    // The `is null` guard keeps two concurrent first-sets from overwriting each other.
    const updated = await this.ctx.db
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, userId), isNull(users.passwordHash)))
      .returning({ id: users.id })
    if (updated.length === 0)
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '已设置过密码，请使用修改密码')
  }

  /** Step 1 of changing number: prove the old number, get a single-use ticket. */
  async checkOldMobile(userId: number, code: string) {
    const user = await getUser(userId, this.ctx.db)
    await this.sms.consume(user.mobilePhone!, 'changeOld', code)
    const ticket = newOpaqueSecret()
    await this.ctx.db.insert(mobileChangeTickets).values({
      userId,
      ticketHash: hashOpaqueSecret(ticket),
      expiresAt: new Date(this.ctx.clock.now().getTime() + MOBILE_CHANGE_TICKET_TTL_MS),
    })
    return { ticket, expiresIn: MOBILE_CHANGE_TICKET_TTL_MS / 1000 }
  }

  /** Step 2: with the ticket, prove the new number and move the account to it. */
  async changeMobile(userId: number, ticket: string, newMobilePhone: string, code: string) {
    const now = this.ctx.clock.now()
    const [found] = await this.ctx.db
      .select()
      .from(mobileChangeTickets)
      .where(
        and(
          eq(mobileChangeTickets.ticketHash, hashOpaqueSecret(ticket)),
          eq(mobileChangeTickets.userId, userId),
          isNull(mobileChangeTickets.usedAt),
          gt(mobileChangeTickets.expiresAt, now),
        ),
      )
    if (!found) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '原手机号验证已失效，请重新验证')
    const mobile = assertMobile(newMobilePhone)
    const user = await getUser(userId, this.ctx.db)
    if (user.mobilePhone === mobile)
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '新手机号不能与原手机号相同')
    if (await findByMobile(mobile, this.ctx.db)) throw new BizError(ResultCode.USER_REGISTERED)
    await this.sms.consume(mobile, 'changeNew', code)
    try {
      await this.ctx.db.transaction(async (tx) => {
        const used = await tx
          .update(mobileChangeTickets)
          .set({ usedAt: now })
          .where(and(eq(mobileChangeTickets.id, found.id), isNull(mobileChangeTickets.usedAt)))
          .returning({ id: mobileChangeTickets.id })
        if (used.length === 0)
          throw new BizError(ResultCode.SHOW_ERROR_TIPS, '原手机号验证已失效，请重新验证')
        // The old number is let go: what the account took stays with it (and comes with the new one).
        await this.benefits.remember(tx, userId, user, now)
        await tx.update(users).set({ mobilePhone: mobile }).where(eq(users.id, userId))
        await this.benefits.remember(tx, userId, { ...user, mobilePhone: mobile }, now)
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw new BizError(ResultCode.USER_REGISTERED)
      throw error
    }
  }

  /**
   * Account deletion (SPEC "注销"): erases personal data, frees the number and the WeChat binding, and
   * revokes every token. The row stays (deleted_at) so orders and ledgers keep a valid owner id. The
   * one-time benefits the account took are kept under its number and WeChat (services/accounts/benefits.ts):
   * registering either again is not a new user.
   */
  async deleteAccount(userId: number, code: string) {
    const user = await getUser(userId, this.ctx.db)
    await this.sms.consume(user.mobilePhone!, 'deleteAccount', code)
    await this.sessions.changingSessionsOf(userId, () =>
      this.ctx.db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({
            mobilePhone: null,
            passwordHash: null,
            name: '',
            avatar: '',
            realName: null,
            idCardHash: null,
            idCardMasked: null,
            checkStatus: 0,
            openId: null,
            unionId: null,
            companyName: null,
            companyAddress: null,
            latitude: null,
            longitude: null,
            deviceId: null,
            brand: null,
            deviceModel: null,
            osName: null,
            system: null,
            osVersion: null,
            deletedAt: this.ctx.clock.now(),
            // A deleted account's invite code must not keep attributing new users to it.
            inviteCode: sql`'deleted-' || ${users.id}`,
          })
          .where(eq(users.id, userId))
        // After the update, which holds the row: no order of this account's is placed meanwhile.
        await this.benefits.remember(tx, userId, user, this.ctx.clock.now())
        await tx.delete(userWorkTypes).where(eq(userWorkTypes.userId, userId))
        await tx.delete(messages).where(eq(messages.userId, userId))
        await tx.delete(messageSettings).where(eq(messageSettings.userId, userId))
        await tx.update(usageLogs).set({ userId: null }).where(eq(usageLogs.userId, userId))
        await this.sessions.revokeAllOf(tx, userId, null)
      }),
    )
  }
}
