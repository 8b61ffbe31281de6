/** SPEC section 9 business constants. */
import packageJson from '../../package.json'

/** The one version number is package.json's (the bundler keeps only this field of it). */
export const APP_VERSION = packageJson.version
export const REQUEST_TIMEOUT_MS = 60_000
export const FORM_REQUEST_TIMEOUT_MS = 10_000
export const ASYNC_PAGE_DELAY_MS = 200
export const USAGE_REPORT_INTERVAL_MS = 30_000
export const USAGE_NEW_SESSION_AFTER_HIDDEN_MS = 45_000
export const USAGE_EXIT_DEDUP_MS = 1_000
export const UNREAD_POLL_MS = 60_000
export const SMS_COUNTDOWN_S = 60
export const DICT_CACHE_MS = 5 * 60_000
export const PAGE_SIZE = 10
export const PULL_DOWN_OFFSET = 80
export const LOAD_MORE_OFFSET = 150
export const BACK_TO_TOP_FROM = 1000
export const TOAST_DURATION_MS = 2000
export const CALENDAR_MONTHS = 3
export const SEARCH_PLACEHOLDER = '请输入关键字'
export const LOADING_TEXT = '加载中'
export const LIST_TEXTS = {
  loading: '加载中...',
  noMore: '没有更多了',
  error: '加载失败',
  empty: '暂无相关数据',
} as const
