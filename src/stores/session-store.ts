/**
 * SPEC 3 "Session and user state" and SPEC 4 "Session": the token, the user (one copy: userInfo, read
 * through getters), the logins (code, password, WeChat and its bind ticket), the accounts stored on
 * this device and the launch context sent with a login. One store on purpose, though long (~480
 * lines): a login, an account switch and a logout each change token, user and account list together
 * in one action, and pages observe them as one session.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { CommonConfig, LoginResult, UserInfo, WxLoginResult } from '@/types/api'
import { APP_VERSION } from '@/constants/limits'
import { maskPhone } from '@/domain/formatters'
import { ResultCode } from '@/domain/result-codes'
import { ApiError } from '@/runtime/api-error'
import { STORAGE_KEYS } from '@/runtime/storage-keys'
import type { Clock, RootStoreDeps } from './deps'

export const DEFAULT_RENEWAL_REMINDER =
  '您的云手机已到期，系统将为您保留2小时，请及时续费，以免数据丢失'
export const STALE_ACCOUNT_MESSAGE = '该账号登录已失效，请重新登录'
export const WECHAT_BIND_EXPIRED_MESSAGE = '微信授权已失效，请重新授权'

/** An account that logged in on this device (SPEC 3 accountList), keyed by userId. */
export interface StoredAccount {
  userId: number
  token: string
  /** full number, shown masked */
  mobilePhone: string
  name: string
  avatar: string
  lastLoginAt: number
}

/** The login response, completed by the user info once it is loaded. */
export type SessionInfo = LoginResult & Partial<UserInfo>

/** Anything a login call answers with: LoginResult, or a WeChat result that carries one. */
export type LoginLike = Partial<LoginResult> & { openid?: string }

/** The kind of WeChat login; its bind ticket is taken only by the bind call of the same kind. */
export type WechatLoginKind = 'applet' | 'officialAccount'

type SessionDeps = Pick<RootStoreDeps, 'api' | 'storage' | 'platform'> & { clock: Clock }

export class SessionStore {
  token = ''
  userId: number | null = null
  personnelId = ''
  openId = ''
  /** the login's answer, completed by the user info once loaded */
  info: SessionInfo | null = null
  /** the user's data as last loaded: name, avatar, user type… are read from it (getters below) */
  userInfo: UserInfo | null = null
  inviteType: string | number = ''
  inviteCode = ''
  bindInfo = -2
  channel: string
  /** the full number: the login form's until the user info arrives, then the user info's */
  mobilePhone = ''
  version = APP_VERSION
  runtime: 'applet' | 'h5'
  renewMsg = DEFAULT_RENEWAL_REMINDER
  commonConfig: CommonConfig | null = null
  deviceId = ''
  deviceModel = ''
  preGroup = ''
  shareUser: number | undefined = undefined
  accountList: StoredAccount[] = []
  /**
   * The bind ticket of the last WeChat login that found no account: binding that WeChat to a number
   * needs it (the openid proves nothing). In memory only: single use and short-lived.
   */
  wechatBind: { kind: WechatLoginKind; ticket: string } | null = null
  /** persistent: set when a login answers showModifyPassword 1, cleared once a password is set */
  needModifyPassword = false
  policyTabIndex = 0

  constructor(private readonly deps: SessionDeps) {
    const { storage, platform } = deps
    this.runtime = platform.runtime
    this.token = storage.get<string>(STORAGE_KEYS.token) ?? ''
    const storedUserId = storage.get<number | string>(STORAGE_KEYS.userId)
    this.userId = storedUserId === undefined ? null : Number(storedUserId)
    this.channel = storage.get<string>(STORAGE_KEYS.channel) ?? platform.defaultChannel
    this.accountList = storage.get<StoredAccount[]>(STORAGE_KEYS.accountList) ?? []
    this.needModifyPassword = Boolean(storage.get(STORAGE_KEYS.modifyPassword))
    this.policyTabIndex = Number(storage.get(STORAGE_KEYS.policyTabIndex) ?? 0)
    makeAutoObservable<SessionStore, 'deps'>(this, { deps: false }, { autoBind: true })
    platform.setCookies({ runtime: platform.runtime, channel: this.cookieChannel })
  }

  get isLoggedIn(): boolean {
    return Boolean(this.token)
  }

  get isVerified(): boolean {
    return this.outerUserCheckStatus === 1
  }

  // One copy of the user: these read the loaded user info and the login's answer.
  get name(): string {
    return this.userInfo?.name ?? ''
  }

  get avatar(): string {
    return this.userInfo?.avatar ?? ''
  }

  get userType(): 1 | 2 | null {
    return this.userInfo?.userType ?? null
  }

  get outerUserCheckStatus(): number {
    return this.userInfo?.outerUserCheckStatus ?? 0
  }

  get openActivityBall(): number {
    return this.userInfo?.openActivityBall ?? 0
  }

  get firstLogin(): number {
    return this.info?.firstLogin ?? 0
  }

  get showModifyPassword(): number {
    return this.info?.showModifyPassword ?? 0
  }

  get maskedPhone(): string {
    return maskPhone(this.mobilePhone)
  }

  private get cookieChannel(): 'wx' | 'h5' {
    return this.deps.platform.isWeChatBrowser() ? 'wx' : this.deps.platform.defaultChannel
  }

  /**
   * Fields sent with every login (SPEC 3 "Login request"); device fields on ios or wx channels — the
   * channel the app runs on (mini-program, WeChat browser), which a launch link's channel code does
   * not change.
   */
  get loginContext() {
    const context: Record<string, string | number> = {}
    if (this.preGroup) context.preGroup = this.preGroup
    if (this.shareUser !== undefined) context.shareUser = this.shareUser
    if (this.inviteCode) context.inviteCode = this.inviteCode
    if (this.channel && this.channel !== 'wx' && this.channel !== 'h5')
      context.channelCode = this.channel
    if (this.channel === 'ios' || this.channel === 'wx' || this.cookieChannel === 'wx') {
      const device = this.deps.platform.getDeviceInfo()
      Object.assign(context, device)
    }
    return context
  }

  // -- logins ---------------------------------------------------------------------------------

  async loginWithCode(form: { mobilePhone: string; code: string }): Promise<boolean> {
    const result = await this.deps.api.user.loginByCode({ ...this.loginContext, ...form })
    return this.loginWithResult(result, { mobilePhone: form.mobilePhone })
  }

  async loginWithPassword(form: { mobilePhone: string; password: string }): Promise<boolean> {
    const result = await this.deps.api.user.loginByPassword({ ...this.loginContext, ...form })
    return this.loginWithResult(result, { mobilePhone: form.mobilePhone })
  }

  /** Mini-program login: logs in when the WeChat is bound, else keeps its bind ticket. */
  async loginWithWechat(): Promise<{ bound: boolean; openid: string }> {
    const jsCode = await this.deps.platform.wechatLogin()
    return this.afterWechatLogin('applet', await this.deps.api.user.wxAppletsLogin(jsCode))
  }

  /**
   * Official-account OAuth code → openid, and a session when bound. On an error the server message
   * is only logged (SPEC 7); resolves null then.
   */
  async officialAccountLogin(jsCode: string): Promise<{ bound: boolean; openid: string } | null> {
    try {
      const result = await this.deps.api.user.wxOfficialAccountLogin(jsCode)
      return await this.afterWechatLogin('officialAccount', result)
    } catch (error) {
      console.warn('wxOfficialAccountLogin', error instanceof ApiError ? error.msg : error)
      return null
    }
  }

  private async afterWechatLogin(kind: WechatLoginKind, result: WxLoginResult) {
    if (result.openid) this.setOpenId(result.openid)
    const bound = Boolean(result.bound && result.token)
    this.wechatBind = !bound && result.bindTicket ? { kind, ticket: result.bindTicket } : null
    if (bound) await this.loginWithResult(result)
    return { bound, openid: result.openid }
  }

  /**
   * Binds the WeChat of the last unbound WeChat login (its bind ticket) to a mobile number proven by
   * an SMS code, and logs in. The ticket is forgotten once used or refused as expired (1004): the page
   * then starts the WeChat login again.
   */
  async bindWechat(form: { mobilePhone: string; code: string }): Promise<boolean> {
    const pending = this.wechatBind
    if (!pending) throw new ApiError(ResultCode.WECHAT_ACCOUNT_EMPTY, WECHAT_BIND_EXPIRED_MESSAGE)
    const body = { ...this.loginContext, ...form, bindTicket: pending.ticket }
    let result: LoginResult
    try {
      result =
        pending.kind === 'applet'
          ? await this.deps.api.user.wxAppletsLoginPro(body)
          : await this.deps.api.user.wxOfficialAccountLoginPro(body)
    } catch (error) {
      if (error instanceof ApiError && error.code === ResultCode.WECHAT_ACCOUNT_EMPTY) {
        runInAction(() => (this.wechatBind = null))
      }
      throw error
    }
    runInAction(() => (this.wechatBind = null))
    return this.loginWithResult(result, { mobilePhone: form.mobilePhone })
  }

  /**
   * SPEC 4: store token, userId, the first-login and modify-password flags and info; add or
   * replace the account; load common config, then user info. Resolves false (silently) when the
   * initial user-info load fails.
   */
  async loginWithResult(result: LoginLike, extra: { mobilePhone?: string } = {}): Promise<boolean> {
    if (!result.token || result.userId === undefined || result.userId === null) {
      throw new Error('登录失败，请重试')
    }
    const login: LoginResult = {
      token: result.token,
      userId: Number(result.userId),
      firstLogin: result.firstLogin ?? 0,
      showModifyPassword: result.showModifyPassword ?? 0,
    }
    this.setCredentials(login.token, login.userId)
    this.info = { ...login }
    if (extra.mobilePhone) this.mobilePhone = extra.mobilePhone
    if (login.showModifyPassword === 1) this.setNeedModifyPassword(true)
    this.upsertAccount({ userId: login.userId, token: login.token, mobilePhone: extra.mobilePhone })

    try {
      await this.loadCommonConfig()
    } catch {
      // the request layer has reported it; the login itself stands
    }
    try {
      await this.loadUserInfo()
    } catch {
      return false
    }
    return true
  }

  /** `quiet`: no loading overlay. The service caches the config for 5 minutes. */
  async loadCommonConfig(options: { quiet?: boolean } = {}): Promise<CommonConfig> {
    const config = await this.deps.api.common.getCommonConfig(options)
    runInAction(() => {
      this.commonConfig = config
      this.renewMsg = config.renewalReminderMsg || DEFAULT_RENEWAL_REMINDER
    })
    return config
  }

  /**
   * At launch and on each return to the app: a stored session gets the configured texts (the renewal
   * reminder) without logging in again; until they land, and if the call fails, the defaults stay.
   */
  async refreshCommonConfig(): Promise<void> {
    if (!this.isLoggedIn) return
    try {
      await this.loadCommonConfig({ quiet: true })
    } catch {
      // the request layer has reported it; the built-in texts stay
    }
  }

  /** Loads the user info into the session; rejects on failure. */
  /** `quiet`: no loading overlay (a background refresh, e.g. Home learning openActivityBall). */
  async loadUserInfo(options: { quiet?: boolean } = {}): Promise<UserInfo> {
    const info = await this.deps.api.user.getUserInfo(
      undefined,
      options.quiet ? { loading: false } : undefined,
    )
    runInAction(() => this.applyUserInfo(info))
    return info
  }

  // -- leaving --------------------------------------------------------------------------------

  /** Explicit logout: revoke the token (best effort), forget this device's entry, then clear. */
  async logout(): Promise<void> {
    const userId = this.userId
    if (this.token) {
      try {
        await this.deps.api.user.exitLogin()
      } catch {
        // best effort: the local session ends either way
      }
    }
    runInAction(() => {
      if (userId !== null) this.removeAccount(userId)
      this.clear()
    })
  }

  /** Empties token, info and user info (so name, avatar, check status, user type…), userId, openId. */
  clear() {
    this.token = ''
    this.info = null
    this.userInfo = null
    this.userId = null
    this.openId = ''
    this.wechatBind = null
    this.mobilePhone = ''
    this.deps.storage.remove(STORAGE_KEYS.token)
    this.deps.storage.remove(STORAGE_KEYS.userId)
    this.deps.platform.removeCookies(['token', 'userId'])
  }

  /** The server said the token is invalid (request layer hook): clear stored session data. */
  handleTokenInvalid() {
    this.clear()
  }

  // -- accounts -------------------------------------------------------------------------------

  /**
   * Switch to a stored account: use its token, then verify it with getUserInfo. A stale entry is
   * removed, the previous session restored, and the failure rethrown for the page to show.
   */
  async switchAccount(userId: number): Promise<void> {
    const entry = this.accountList.find((a) => a.userId === Number(userId))
    if (!entry) throw new Error('账号不存在')
    if (entry.userId === this.userId && this.isLoggedIn) return
    const previous = {
      token: this.token,
      userId: this.userId,
      info: this.info,
      userInfo: this.userInfo,
    }
    this.setCredentials(entry.token, entry.userId)
    this.info = { token: entry.token, userId: entry.userId, firstLogin: 0, showModifyPassword: 0 }
    try {
      const info = await this.deps.api.user.getUserInfo(undefined, { authRedirect: false })
      runInAction(() => {
        this.applyUserInfo(info)
        this.upsertAccount({ userId: entry.userId, token: entry.token })
      })
    } catch (error) {
      runInAction(() => {
        this.removeAccount(entry.userId)
        if (previous.token && previous.userId !== null) {
          this.setCredentials(previous.token, previous.userId)
          this.info = previous.info
          if (previous.userInfo) this.applyUserInfo(previous.userInfo)
        } else {
          this.clear()
        }
      })
      if (error instanceof ApiError && error.code !== ResultCode.LOGIN_TOKEN_INVALID) throw error
      throw new ApiError(ResultCode.LOGIN_TOKEN_INVALID, STALE_ACCOUNT_MESSAGE)
    }
  }

  removeAccount(userId: number) {
    this.accountList = this.accountList.filter((a) => a.userId !== Number(userId))
    this.persistAccounts()
  }

  // -- small setters --------------------------------------------------------------------------

  setInviteInfo(type: string | number, code: string) {
    this.inviteType = type
    this.inviteCode = code
    this.bindInfo = -2
  }

  setBindInfo(value: number) {
    this.bindInfo = value
    if (value === -1) {
      this.inviteType = ''
      this.inviteCode = ''
    }
  }

  /** Channel code from a launch link; stored and sent as the channel header. */
  setChannel(channel: string) {
    this.channel = channel
    this.deps.storage.set(STORAGE_KEYS.channel, channel)
  }

  setOpenId(openId: string) {
    this.openId = openId
  }

  setPreGroup(preGroup: string) {
    this.preGroup = preGroup
  }

  setShareUser(shareUser: number | undefined) {
    this.shareUser = shareUser
  }

  setPolicyTabIndex(index: number) {
    this.policyTabIndex = index
    this.deps.storage.set(STORAGE_KEYS.policyTabIndex, index)
  }

  setNeedModifyPassword(value: boolean) {
    this.needModifyPassword = value
    if (value) this.deps.storage.set(STORAGE_KEYS.modifyPassword, 1)
    else this.deps.storage.remove(STORAGE_KEYS.modifyPassword)
  }

  /** After a password was set or changed: the modify-password prompt is done. */
  markPasswordSet() {
    this.setNeedModifyPassword(false)
    if (this.info) this.info = { ...this.info, showModifyPassword: 0, hasPassword: true }
    if (this.userInfo) this.userInfo = { ...this.userInfo, hasPassword: true }
  }

  setDeviceInfo(deviceId: string, deviceModel: string) {
    this.deviceId = deviceId
    this.deviceModel = deviceModel
  }

  // -- internals ------------------------------------------------------------------------------

  private setCredentials(token: string, userId: number) {
    this.token = token
    this.userId = userId
    this.deps.storage.set(STORAGE_KEYS.token, token)
    this.deps.storage.set(STORAGE_KEYS.userId, String(userId))
    this.deps.platform.setCookies({
      token,
      userId: String(userId),
      channel: this.cookieChannel,
      runtime: this.deps.platform.runtime,
    })
  }

  private applyUserInfo(info: UserInfo) {
    this.userInfo = info
    this.info = {
      ...(this.info ?? {
        token: this.token,
        userId: info.userId,
        firstLogin: 0,
        showModifyPassword: 0,
      }),
      ...info,
    }
    this.mobilePhone = info.mobilePhone
    if (info.hasPassword && this.needModifyPassword) this.setNeedModifyPassword(false)
    const entry = this.accountList.find((a) => a.userId === info.userId)
    if (entry) {
      this.upsertAccount({
        userId: info.userId,
        token: entry.token,
        mobilePhone: info.mobilePhone,
        name: info.name,
        avatar: info.avatar,
      })
    }
  }

  private upsertAccount(account: Partial<StoredAccount> & { userId: number; token: string }) {
    const existing = this.accountList.find((a) => a.userId === account.userId)
    const next: StoredAccount = {
      userId: account.userId,
      token: account.token,
      mobilePhone: account.mobilePhone ?? existing?.mobilePhone ?? '',
      name: account.name ?? existing?.name ?? '',
      avatar: account.avatar ?? existing?.avatar ?? '',
      lastLoginAt: this.deps.clock.now(),
    }
    this.accountList = existing
      ? this.accountList.map((a) => (a.userId === account.userId ? next : a))
      : [...this.accountList, next]
    this.persistAccounts()
  }

  private persistAccounts() {
    this.deps.storage.set(STORAGE_KEYS.accountList, this.accountList)
  }
}
