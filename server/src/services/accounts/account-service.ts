import { and, count, eq, gt, isNull, sql } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import { WechatAuthError } from '../../adapters/wechat/wechat-adapter'
import type { LoginResult, WxLoginResult } from '../../contract/auth'
import { loginFailures, users, wechatBindTickets } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import {
  FAILED_LOGIN_WINDOW_MS,
  LOCKED_OUT_MESSAGE,
  WRONG_CREDENTIALS_MESSAGE,
  WECHAT_BIND_TICKET_TTL_MS,
  isLockedOut,
} from '../../domain/login-policy'
import { OWN_NUMBER_SMS_TYPES } from '../../domain/sms-policy'
import { hashOpaqueSecret, newOpaqueSecret } from '../../domain/secrets'
import {
  findByMobile,
  getUser,
  type AccountRegistrationService,
  type LoginContext,
  type UserRow,
} from './account-registration'
import type { PersonBenefitService } from './benefits'
import { isUniqueViolation, type ServiceContext } from '../context'
import { hashPassword, verifyPassword } from './passwords'
import type { SessionService } from './session-service'
import { assertMobile, type SmsService } from './sms-service'

const ACCOUNT_FROZEN = () => new BizError(ResultCode.ACCOUNT_HAS_BEEN_FROZEN)
const WECHAT_AUTH_EXPIRED = () =>
  new BizError(ResultCode.WECHAT_ACCOUNT_EMPTY, '微信授权已失效，请重新授权')
const WECHAT_HELD_BY_ANOTHER = () =>
  new BizError(ResultCode.SHOW_ERROR_TIPS, '该微信已绑定其他手机号')

/** The two WeChat logins; a bind ticket from one is taken only by the same kind's bind. */
export type WechatLoginKind = 'applet' | 'officialAccount'

/**
 * The logins (SMS code, password, WeChat and its bind, a confirmed scan) and the SMS codes they ask
 * for: what auth-routes.ts calls. A number's first login registers it (account-registration.ts); what
 * a signed-in owner changes of the account is account-changes.ts.
 */
export class AccountService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly sms: SmsService,
    private readonly sessions: SessionService,
    private readonly registration: AccountRegistrationService,
    private readonly benefits: PersonBenefitService,
  ) {}

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
    return this.completeLogin(await getUser(userId, this.ctx.db), login, false)
  }

  /** Codes for changeOld/deleteAccount go to the caller's own number, whatever the body says. */
  async sendSmsCode(type: string, mobilePhone: string | undefined, userId: number | null) {
    if ((OWN_NUMBER_SMS_TYPES as readonly string[]).includes(type)) {
      if (userId == null) throw new BizError(ResultCode.LOGIN_TOKEN_INVALID)
      const user = await getUser(userId, this.ctx.db)
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
    const { user, created } = await this.registration.findOrRegister(mobile, login)
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
    const user = await findByMobile(mobile, this.ctx.db)
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
   * only thing that can bind it: an openid is no secret, so it is never taken from a client.
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
    const { user, created } = await this.registration.findOrRegister(mobile, login, wechat)
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
}
