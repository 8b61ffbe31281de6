import { and, count, eq, gt, isNull, sql } from 'drizzle-orm'
import { ResultCode } from '../../../src/domain/result-codes'
import { validatePassword } from '../../../src/domain/validators'
import { WechatAuthError } from '../adapters/wechat/wechat-adapter'
import type { LoginResult, WxLoginResult } from '../contract/auth'
import type { Db } from '../db/client'
import {
  loginFailures,
  messageSettings,
  messages,
  mobileChangeTickets,
  usageLogs,
  users,
  userWorkTypes,
  wechatSessions,
} from '../db/schema'
import { BizError } from '../domain/biz-error'
import {
  FAILED_LOGIN_WINDOW_MS,
  LOCKED_OUT_MESSAGE,
  MOBILE_CHANGE_TICKET_TTL_MS,
  WECHAT_BIND_WINDOW_MS,
  isLockedOut,
} from '../domain/login-policy'
import { OWN_NUMBER_SMS_TYPES } from '../domain/sms-policy'
import { hashOpaqueSecret, newInviteCode, newOpaqueSecret } from '../domain/secrets'
import { issueWelcomeCoupons } from './coupon-service'
import type { ServiceContext } from './context'
import { isUniqueViolation } from './context'
import type { MessageService } from './message-service'
import { recordInvite } from './engagement-service'
import { WELCOME_MESSAGES } from './message-service'
import { hashPassword, verifyPassword } from './passwords'
import type { SessionService } from './session-service'
import { assertMobile, type SmsService } from './sms-service'

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

type UserRow = typeof users.$inferSelect

const ACCOUNT_FROZEN = () => new BizError(ResultCode.ACCOUNT_HAS_BEEN_FROZEN)

export class AccountService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly sms: SmsService,
    private readonly sessions: SessionService,
    private readonly messages: MessageService,
  ) {}

  private async findByMobile(
    mobilePhone: string,
    db: Db = this.ctx.db,
  ): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.mobilePhone, mobilePhone)).limit(1)
    return row
  }

  async getUser(userId: number, db: Db = this.ctx.db): Promise<UserRow> {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .limit(1)
    if (!row) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
    return row
  }

  /** Finds the account of a number or registers it (with its welcome messages); safe under races. */
  private async findOrRegister(mobilePhone: string, login: LoginContext) {
    const existing = await this.findByMobile(mobilePhone)
    if (existing) return { user: existing, created: false }
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const user = await this.ctx.db.transaction(async (tx) => {
          const [created] = await tx
            .insert(users)
            .values({
              mobilePhone,
              inviteCode: newInviteCode(),
              invitedBy: login.inviteCode?.trim() || null,
              channelCode: login.channelCode || null,
              preGroup: login.preGroup || null,
              shareUser: login.shareUser ?? null,
              createdAt: this.ctx.clock.now(),
            })
            .returning()
          await recordInvite(tx, created.id, login.inviteCode, created.createdAt)
          await issueWelcomeCoupons(tx, created.id, created.createdAt)
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
        const raced = await this.findByMobile(mobilePhone)
        if (raced) return { user: raced, created: false }
      }
    }
    throw new Error('could not register user after 3 attempts')
  }

  /** Records where this login came from and issues the token. */
  private async completeLogin(
    user: UserRow,
    login: LoginContext,
    firstLogin: boolean,
  ): Promise<LoginResult> {
    if (user.frozen) throw ACCOUNT_FROZEN()
    const token = await this.ctx.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          lastLoginAt: this.ctx.clock.now(),
          channel: login.channel ?? user.channel,
          clientType: login.clientType ?? user.clientType,
          deviceId: login.deviceId ?? user.deviceId,
          brand: login.brand ?? user.brand,
          deviceModel: login.deviceModel ?? user.deviceModel,
          osName: login.osName ?? user.osName,
          system: login.system ?? user.system,
          osVersion: login.osVersion ?? user.osVersion,
        })
        .where(eq(users.id, user.id))
      return this.sessions.issue(tx, user.id, login.clientType ?? null)
    })
    return {
      token,
      userId: user.id,
      firstLogin: firstLogin ? 1 : 0,
      showModifyPassword: user.passwordHash ? 0 : 1,
    }
  }

  /** Logs an existing account in without a secret: only for a login its owner confirmed (scan-login). */
  async loginAsUser(userId: number, login: LoginContext): Promise<LoginResult> {
    return this.completeLogin(await this.getUser(userId), login, false)
  }

  /** Codes for changeOld/deleteAccount go to the caller's own number, whatever the body says. */
  async sendSmsCode(type: string, mobilePhone: string | undefined, userId: number | null) {
    if ((OWN_NUMBER_SMS_TYPES as readonly string[]).includes(type)) {
      if (userId == null) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
      const user = await this.getUser(userId)
      return this.sms.send(user.mobilePhone!, type)
    }
    return this.sms.send(mobilePhone ?? '', type)
  }

  async loginWithCode(
    mobilePhone: string,
    code: string,
    login: LoginContext,
  ): Promise<LoginResult> {
    const mobile = assertMobile(mobilePhone)
    await this.sms.consume(mobile, 'login', code)
    const { user, created } = await this.findOrRegister(mobile, login)
    return this.completeLogin(user, login, created)
  }

  async loginWithPassword(
    mobilePhone: string,
    password: string,
    login: LoginContext,
  ): Promise<LoginResult> {
    if (!mobilePhone?.trim() || !password) throw new BizError(ResultCode.PASSWORD_OR_PHONE_EMPTY)
    const mobile = assertMobile(mobilePhone)
    const now = this.ctx.clock.now()
    const since = new Date(now.getTime() - FAILED_LOGIN_WINDOW_MS)
    const recentFailures = async () => {
      const [{ n }] = await this.ctx.db
        .select({ n: count() })
        .from(loginFailures)
        .where(and(eq(loginFailures.mobilePhone, mobile), gt(loginFailures.createdAt, since)))
      return n
    }
    if (isLockedOut(await recentFailures())) {
      throw new BizError(ResultCode.PASSWORD_VERIFICATION_FAILED, LOCKED_OUT_MESSAGE)
    }
    const user = await this.findByMobile(mobile)
    if (!user) throw new BizError(ResultCode.USER_NOT_REGISTERED)
    if (!user.passwordHash) {
      throw new BizError(
        ResultCode.PASSWORD_VERIFICATION_FAILED,
        '该账号尚未设置密码，请使用验证码登录',
      )
    }
    if (!(await verifyPassword(user.passwordHash, password))) {
      await this.ctx.db.insert(loginFailures).values({ mobilePhone: mobile, createdAt: now })
      if (isLockedOut(await recentFailures())) {
        throw new BizError(ResultCode.PASSWORD_VERIFICATION_FAILED, LOCKED_OUT_MESSAGE)
      }
      throw new BizError(ResultCode.PASSWORD_VERIFICATION_FAILED, '手机号或密码错误')
    }
    await this.ctx.db.delete(loginFailures).where(eq(loginFailures.mobilePhone, mobile))
    return this.completeLogin(user, login, false)
  }

  private async wechatIdentity(source: 'applet' | 'officialAccount', code: string) {
    try {
      return source === 'applet'
        ? await this.ctx.wechat.code2session(code)
        : await this.ctx.wechat.oauthCode(code)
    } catch (error) {
      if (error instanceof WechatAuthError) {
        this.ctx.log.warn({ err: error.message, source }, 'wechat code rejected')
        throw new BizError(ResultCode.ONE_KEY_LOGIN_FAILED, '微信授权失败，请重新进入后再试')
      }
      throw error
    }
  }

  /** WeChat login: a bound openid logs in; an unbound one is remembered so it can be bound by SMS. */
  async loginWithWechat(
    source: 'applet' | 'officialAccount',
    code: string,
    login: LoginContext,
  ): Promise<WxLoginResult> {
    const identity = await this.wechatIdentity(source, code)
    const now = this.ctx.clock.now()
    await this.ctx.db
      .insert(wechatSessions)
      .values({ openId: identity.openid, unionId: identity.unionid ?? null, source, seenAt: now })
      .onConflictDoUpdate({
        target: wechatSessions.openId,
        set: { seenAt: now, source, unionId: identity.unionid ?? null },
      })
    const [user] = await this.ctx.db
      .select()
      .from(users)
      .where(eq(users.openId, identity.openid))
      .limit(1)
    if (!user) return { openid: identity.openid, bound: false }
    return {
      openid: identity.openid,
      bound: true,
      ...(await this.completeLogin(user, login, false)),
    }
  }

  /** Binds an openid that WeChat gave us recently to a number proven by SMS, registering it if new. */
  async bindWechatAndLogin(openid: string, mobilePhone: string, code: string, login: LoginContext) {
    const mobile = assertMobile(mobilePhone)
    const since = new Date(this.ctx.clock.now().getTime() - WECHAT_BIND_WINDOW_MS)
    const [session] = await this.ctx.db
      .select()
      .from(wechatSessions)
      .where(and(eq(wechatSessions.openId, openid), gt(wechatSessions.seenAt, since)))
    if (!session) throw new BizError(ResultCode.WECHAT_ACCOUNT_EMPTY, '微信授权已失效，请重新授权')
    const [holder] = await this.ctx.db
      .select({ mobilePhone: users.mobilePhone })
      .from(users)
      .where(eq(users.openId, openid))
    if (holder && holder.mobilePhone !== mobile) {
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '该微信已绑定其他手机号')
    }
    await this.sms.consume(mobile, 'login', code)
    const { user, created } = await this.findOrRegister(mobile, login)
    await this.ctx.db
      .update(users)
      .set({ openId: openid, unionId: session.unionId })
      .where(eq(users.id, user.id))
    return this.completeLogin({ ...user, openId: openid }, login, created)
  }

  private assertNewPassword(password: string) {
    const problem = validatePassword(password)
    if (problem) throw new BizError(ResultCode.SHOW_ERROR_TIPS, problem)
  }

  async changePassword(userId: number, tokenId: number, oldPassword: string, newPassword: string) {
    const user = await this.getUser(userId)
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
    const user = await this.getUser(userId)
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
    const user = await this.getUser(userId)
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
    const user = await this.getUser(userId)
    if (user.mobilePhone === mobile)
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '新手机号不能与原手机号相同')
    if (await this.findByMobile(mobile)) throw new BizError(ResultCode.USER_REGISTERED)
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
        await tx.update(users).set({ mobilePhone: mobile }).where(eq(users.id, userId))
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw new BizError(ResultCode.USER_REGISTERED)
      throw error
    }
  }

  /**
   * Account deletion (SPEC "注销"): erases personal data, frees the number and the WeChat binding, and
   * revokes every token. The row stays (deleted_at) so orders and ledgers keep a valid owner id.
   */
  async deleteAccount(userId: number, code: string) {
    const user = await this.getUser(userId)
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
        await tx.delete(userWorkTypes).where(eq(userWorkTypes.userId, userId))
        await tx.delete(messages).where(eq(messages.userId, userId))
        await tx.delete(messageSettings).where(eq(messageSettings.userId, userId))
        await tx.update(usageLogs).set({ userId: null }).where(eq(usageLogs.userId, userId))
        await this.sessions.revokeAllOf(tx, userId, null)
      }),
    )
  }
}
