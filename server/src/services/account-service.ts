import { and, count, eq, gt, isNull, sql } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import { validatePassword } from '#domain/validators'
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
  wechatBindTickets,
} from '../db/schema'
import { BizError } from '../domain/biz-error'
import {
  FAILED_LOGIN_WINDOW_MS,
  LOCKED_OUT_MESSAGE,
  MOBILE_CHANGE_TICKET_TTL_MS,
  WRONG_CREDENTIALS_MESSAGE,
  WECHAT_BIND_TICKET_TTL_MS,
  isLockedOut,
} from '../domain/login-policy'
import { OWN_NUMBER_SMS_TYPES } from '../domain/sms-policy'
import { hashOpaqueSecret, newInviteCode, newOpaqueSecret } from '../domain/secrets'
import { PersonBenefits, type Identity } from './benefits'
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
const WECHAT_AUTH_EXPIRED = () =>
  new BizError(ResultCode.WECHAT_ACCOUNT_EMPTY, '微信授权已失效，请重新授权')
const WECHAT_HELD_BY_ANOTHER = () =>
  new BizError(ResultCode.SHOW_ERROR_TIPS, '该微信已绑定其他手机号')

/** The two WeChat logins; a bind ticket from one is taken only by the same kind's bind. */
export type WechatLoginKind = 'applet' | 'officialAccount'

export class AccountService {
  private readonly benefits: PersonBenefits

  constructor(
    private readonly ctx: ServiceContext,
    private readonly sms: SmsService,
    private readonly sessions: SessionService,
    private readonly messages: MessageService,
  ) {
    this.benefits = new PersonBenefits(ctx.settings.benefitPepper)
  }

  private async findByMobile(mobilePhone: string, db: Db): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.mobilePhone, mobilePhone)).limit(1)
    return row
  }

  async getUser(userId: number, db: Db): Promise<UserRow> {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .limit(1)
    if (!row) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
    return row
  }

  /**
   * Finds the account of a number or registers it (with its welcome messages); safe under races. A new
   * account gets the new-user benefits its number (and `wechat`, the WeChat being bound to it) did not
   * take before (services/benefits.ts).
   */
  private async findOrRegister(
    mobilePhone: string,
    login: LoginContext,
    wechat: Pick<Identity, 'openId' | 'unionId'> = { openId: null, unionId: null },
  ) {
    const existing = await this.findByMobile(mobilePhone, this.ctx.db)
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
        const raced = await this.findByMobile(mobilePhone, this.ctx.db)
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
    return this.completeLogin(await this.getUser(userId, this.ctx.db), login, false)
  }

  /** Codes for changeOld/deleteAccount go to the caller's own number, whatever the body says. */
  async sendSmsCode(type: string, mobilePhone: string | undefined, userId: number | null) {
    if ((OWN_NUMBER_SMS_TYPES as readonly string[]).includes(type)) {
      if (userId == null) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
      const user = await this.getUser(userId, this.ctx.db)
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
    // The owner proved the number: password failures others made against it are forgotten.
    await this.ctx.db.delete(loginFailures).where(eq(loginFailures.mobilePhone, mobile))
    const { user, created } = await this.findOrRegister(mobile, login)
    return this.completeLogin(user, login, created)
  }

  /**
   * Password login. An unknown number, an account without a password and a wrong password get the
   * same answer after the same work (a hash is verified in every case), and every attempt counts
   * towards the number's lockout, so neither the answer, its timing nor the lockout tells them apart.
   * The lockout only closes password login: the SMS-code login stays open to the owner.
   */
  async loginWithPassword(
    mobilePhone: string,
    password: string,
    login: LoginContext,
  ): Promise<LoginResult> {
    if (!mobilePhone?.trim() || !password) throw new BizError(ResultCode.PASSWORD_OR_PHONE_EMPTY)
    const mobile = assertMobile(mobilePhone)
    const attempts = await this.reservePasswordAttempt(mobile)
    const user = await this.findByMobile(mobile, this.ctx.db)
    const matches = await verifyPassword(
      user?.passwordHash ?? (await this.unmatchableHash()),
      password,
    )
    if (!user?.passwordHash || !matches) {
      if (isLockedOut(attempts)) {
        throw new BizError(ResultCode.PASSWORD_VERIFICATION_FAILED, LOCKED_OUT_MESSAGE)
      }
      throw new BizError(ResultCode.PASSWORD_VERIFICATION_FAILED, WRONG_CREDENTIALS_MESSAGE)
    }
    await this.ctx.db.delete(loginFailures).where(eq(loginFailures.mobilePhone, mobile))
    return this.completeLogin(user, login, false)
  }

  /**
   * Counts a password attempt against the number before the password is checked, under a per-number
   * lock, so that parallel guesses cannot all pass the check before any is counted. Throws once the
   * window holds MAX_FAILED_LOGINS; answers the attempts in the window, this one included. A right
   * password then clears them all.
   */
  private async reservePasswordAttempt(mobile: string): Promise<number> {
    const now = this.ctx.clock.now()
    const since = new Date(now.getTime() - FAILED_LOGIN_WINDOW_MS)
    return this.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login:${mobile}`}))`)
      const [{ n }] = await tx
        .select({ n: count() })
        .from(loginFailures)
        .where(and(eq(loginFailures.mobilePhone, mobile), gt(loginFailures.createdAt, since)))
      if (isLockedOut(n)) {
        throw new BizError(ResultCode.PASSWORD_VERIFICATION_FAILED, LOCKED_OUT_MESSAGE)
      }
      await tx.insert(loginFailures).values({ mobilePhone: mobile, createdAt: now })
      return n + 1
    })
  }

  private unmatchableHashOnce: Promise<string> | null = null

  /** A real argon2id hash of a random secret: verified when there is no hash, for equal timing. */
  private unmatchableHash(): Promise<string> {
    this.unmatchableHashOnce ??= hashPassword(newOpaqueSecret())
    return this.unmatchableHashOnce
  }

  private async wechatIdentity(source: WechatLoginKind, code: string) {
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

  /**
   * WeChat login: an identity an account holds logs in. One that no account holds gets a bind ticket
   * (single use, WECHAT_BIND_TICKET_TTL_MS, kept hashed with the identity and this kind of login), the
   * only thing that can bind it: an openid is no secret (issue 24), so it is never taken from a client.
   */
  async loginWithWechat(
    source: WechatLoginKind,
    code: string,
    login: LoginContext,
  ): Promise<WxLoginResult> {
    const identity = await this.wechatIdentity(source, code)
    const [user] = await this.ctx.db
      .select()
      .from(users)
      .where(eq(users.openId, identity.openid))
      .limit(1)
    if (user) {
      return {
        openid: identity.openid,
        bound: true,
        ...(await this.completeLogin(user, login, false)),
      }
    }
    const bindTicket = newOpaqueSecret()
    await this.ctx.db.insert(wechatBindTickets).values({
      ticketHash: hashOpaqueSecret(bindTicket),
      source,
      openId: identity.openid,
      unionId: identity.unionid ?? null,
      expiresAt: new Date(this.ctx.clock.now().getTime() + WECHAT_BIND_TICKET_TTL_MS),
    })
    return {
      openid: identity.openid,
      bound: false,
      bindTicket,
      bindTicketExpiresIn: WECHAT_BIND_TICKET_TTL_MS / 1000,
    }
  }

  /**
   * Binds the WeChat identity of a bind ticket, issued by a login of the same kind, to a number proven
   * by SMS, registering the number if new. The ticket is looked at before the code is spent, and used
   * up together with the binding, so a mistyped code does not cost the ticket.
   */
  async bindWechatAndLogin(
    source: WechatLoginKind,
    bindTicket: string,
    mobilePhone: string,
    code: string,
    login: LoginContext,
  ) {
    const mobile = assertMobile(mobilePhone)
    const now = this.ctx.clock.now()
    const liveTicket = and(
      eq(wechatBindTickets.source, source),
      isNull(wechatBindTickets.usedAt),
      gt(wechatBindTickets.expiresAt, now),
    )
    // the ticket and the WeChat's present holder in one statement, so one snapshot: a binding through
    // this ticket that commits meanwhile shows as a used ticket, never as another number's WeChat
    const [found] = await this.ctx.db
      .select({ ticket: wechatBindTickets, holderMobile: users.mobilePhone })
      .from(wechatBindTickets)
      .leftJoin(users, eq(users.openId, wechatBindTickets.openId))
      .where(and(eq(wechatBindTickets.ticketHash, hashOpaqueSecret(bindTicket)), liveTicket))
    if (!found) throw WECHAT_AUTH_EXPIRED()
    const { ticket, holderMobile } = found
    if (holderMobile && holderMobile !== mobile) throw WECHAT_HELD_BY_ANOTHER()
    await this.sms.consume(mobile, 'login', code)
    const wechat = { openId: ticket.openId, unionId: ticket.unionId }
    const { user, created } = await this.findOrRegister(mobile, login, wechat)
    try {
      await this.ctx.db.transaction(async (tx) => {
        const used = await tx
          .update(wechatBindTickets)
          .set({ usedAt: now })
          .where(and(eq(wechatBindTickets.id, ticket.id), liveTicket))
          .returning({ id: wechatBindTickets.id })
        if (used.length === 0) throw WECHAT_AUTH_EXPIRED()
        await tx.update(users).set(wechat).where(eq(users.id, user.id))
        await this.benefits.remember(
          tx,
          user.id,
          { mobilePhone: mobile, ...wechat },
          this.ctx.clock.now(),
        )
      })
    } catch (error) {
      // the same WeChat was bound to another number meanwhile, through another ticket
      if (isUniqueViolation(error)) throw WECHAT_HELD_BY_ANOTHER()
      throw error
    }
    return this.completeLogin({ ...user, ...wechat }, login, created)
  }

  private assertNewPassword(password: string) {
    const problem = validatePassword(password)
    if (problem) throw new BizError(ResultCode.SHOW_ERROR_TIPS, problem)
  }

  async changePassword(userId: number, tokenId: number, oldPassword: string, newPassword: string) {
    const user = await this.getUser(userId, this.ctx.db)
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
    const user = await this.getUser(userId, this.ctx.db)
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
    const user = await this.getUser(userId, this.ctx.db)
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
    const user = await this.getUser(userId, this.ctx.db)
    if (user.mobilePhone === mobile)
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '新手机号不能与原手机号相同')
    if (await this.findByMobile(mobile, this.ctx.db)) throw new BizError(ResultCode.USER_REGISTERED)
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
   * one-time benefits the account took are kept under its number and WeChat (services/benefits.ts):
   * registering either again is not a new user.
   */
  async deleteAccount(userId: number, code: string) {
    const user = await this.getUser(userId, this.ctx.db)
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
