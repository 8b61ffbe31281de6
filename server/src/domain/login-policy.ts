export const MAX_FAILED_LOGINS = 5
export const FAILED_LOGIN_WINDOW_MS = 15 * 60_000
export const LOCKED_OUT_MESSAGE = '尝试次数过多，请15分钟后再试'
export const MOBILE_CHANGE_TICKET_TTL_MS = 10 * 60_000
/** An openid seen from WeChat may be bound to a number (wxOfficialAccountLoginPro) for this long. */
export const WECHAT_BIND_WINDOW_MS = 30 * 60_000

export const isLockedOut = (recentFailures: number) => recentFailures >= MAX_FAILED_LOGINS
