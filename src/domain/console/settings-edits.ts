/**
 * What an operator may set on the console's 设置 page: the common config the user site reads
 * (/configure/getCommonConfig), an activity's title, summary, time window and on/off, and a flash-sale (seckill)
 * item's price, stock and order. The console checks an edit with these before sending it and the server
 * (/vmcloud/admin/api/settings) refuses one that breaks them with the same message. Money is integer fen.
 */
import { MAX_PRICE_FEN } from './catalogue-edits'

/** The common-config texts an operator edits, their console names and longest lengths. */
export const COMMON_CONFIG_FIELDS = {
  renewalReminderMsg: { label: '到期续费提醒', max: 200 },
  customerServicePhone: { label: '客服电话', max: 32 },
  customerServiceHours: { label: '客服时间', max: 64 },
} as const
export type CommonConfigField = keyof typeof COMMON_CONFIG_FIELDS
export type CommonConfigEdit = Record<CommonConfigField, string>

export const ACTIVITY_TITLE_MAX = 60
/** The line under the title on the activity list and page (it names the offer: edit it with the price). */
export const ACTIVITY_SUMMARY_MAX = 120
/** The most units one flash-sale item may offer (far above the seed's 5). */
export const MAX_SECKILL_STOCK = 100_000
export const MAX_SECKILL_SORT = 9_999
/** The latest instant an activity may end (9999-12-31T23:59:59.999Z): a date the database stores. */
export const MAX_SETTINGS_TIME = 253_402_300_799_999

/** Any C0/C1 control character (NUL, newline, tab, escape, DEL…): one-line texts only. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** The first rule a one-line text breaks, or null. Length counts characters, not UTF-16 units. */
export function validateText(label: string, value: unknown, max: number): string | null {
  if (typeof value !== 'string') return `${label}须为文本`
  if (value.trim() === '') return `${label}不能为空`
  if (value !== value.trim()) return `${label}首尾不能有空格`
  if ([...value].length > max) return `${label}最多${max}个字`
  if (CONTROL.test(value)) return `${label}不能包含换行或控制字符`
  return null
}

/** The first rule a common-config edit breaks, or null. */
export function validateCommonConfig(edit: CommonConfigEdit): string | null {
  for (const [key, { label, max }] of Object.entries(COMMON_CONFIG_FIELDS)) {
    const why = validateText(label, edit[key as CommonConfigField], max)
    if (why) return why
  }
  return null
}

/** Whether a web address is an absolute https URL (the customer-service chat is opened from the H5). */
export function validateHttpsUrl(label: string, value: string): string | null {
  const why = validateText(label, value, 2048)
  if (why) return why
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `${label}不是有效的网址`
  }
  if (url.protocol !== 'https:') return `${label}须以 https:// 开头`
  if (url.username || url.password) return `${label}不能包含账号或密码`
  return null
}

export interface ActivityEdit {
  title: string
  summary: string
  /** ms since epoch */
  startsAt: number
  endsAt: number
  enabled: boolean
}

const isTime = (value: unknown): value is number =>
  typeof value === 'number' &&
  Number.isSafeInteger(value) &&
  value > 0 &&
  value <= MAX_SETTINGS_TIME

/** The first rule an activity edit breaks, or null. */
export function validateActivityEdit(edit: ActivityEdit): string | null {
  const why =
    validateText('活动标题', edit.title, ACTIVITY_TITLE_MAX) ??
    validateText('活动简介', edit.summary, ACTIVITY_SUMMARY_MAX)
  if (why) return why
  if (!isTime(edit.startsAt)) return '开始时间无效'
  if (!isTime(edit.endsAt)) return '结束时间无效'
  if (edit.startsAt >= edit.endsAt) return '开始时间须早于结束时间'
  if (typeof edit.enabled !== 'boolean') return '上线状态无效'
  return null
}

export interface SeckillItemEdit {
  /** fen */
  price: number
  /** All units ever offered, the ones sold and held by unpaid orders included. */
  stock: number
  sort: number
}

/**
 * The first rule a flash-sale item edit breaks, or null. `taken`: units already sold or held by unpaid
 * orders (the item's `sold`), as read — the server checks it again against the row it locks.
 */
export function validateSeckillItemEdit(edit: SeckillItemEdit, taken: number): string | null {
  if (!Number.isSafeInteger(edit.price) || edit.price < 1 || edit.price > MAX_PRICE_FEN) {
    return `秒杀价须为 0.01–${MAX_PRICE_FEN / 100} 元之间、精确到分的金额`
  }
  if (!Number.isSafeInteger(edit.stock) || edit.stock < 0 || edit.stock > MAX_SECKILL_STOCK) {
    return `库存须为 0–${MAX_SECKILL_STOCK} 的整数`
  }
  if (edit.stock < taken) return stockBelowTaken(taken)
  if (!Number.isSafeInteger(edit.sort) || edit.sort < 0 || edit.sort > MAX_SECKILL_SORT) {
    return `排序须为 0–${MAX_SECKILL_SORT} 的整数`
  }
  return null
}

/** The refusal of a stock below the units already sold or held. */
export const stockBelowTaken = (taken: number) => `库存不能少于已售出和待支付占用的 ${taken} 件`
