export const MAX_FAILED_LOGINS = 5
export const FAILED_LOGIN_WINDOW_MS = 15 * 60_000
export const LOCKED_OUT_MESSAGE = '尝试次数过多，请15分钟后再试，或使用验证码登录'
/**
 * The one answer to a password login that did not succeed, whether the number is unknown, has no
 * password or the password is wrong: a login must not tell who is registered or who set a password.
 */
export const WRONG_CREDENTIALS_MESSAGE = '手机号或密码错误'
export const MOBILE_CHANGE_TICKET_TTL_MS = 10 * 60_000
/** A WeChat login that found no account may bind its identity to a number for this long. */
export const WECHAT_BIND_TICKET_TTL_MS = 10 * 60_000

export const isLockedOut = (recentFailures: number) => recentFailures >= MAX_FAILED_LOGINS
