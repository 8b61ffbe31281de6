/**
 * SPEC section 5 validation rules. Each `validateX` returns a Chinese message saying what is wrong, or
 * null when the value is fine. The server imports this module too, so both sides give the same answer.
 */

export const MOBILE_PATTERN = /^1[3-9]\d{9}$/
const ID_CARD_15 = /^[1-9]\d{7}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}$/
const ID_CARD_18 = /^[1-9]\d{5}(18|19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}[\dXx]$/
const PASSWORD = /^(?=.*[A-Za-z])(?=.*\d)[\x21-\x7e]{6,13}$/
const URL_PATTERN = /^https?:\/\/[^\s/$.?#][^\s]*$/i

export const DEFAULT_SMS_CODE_LENGTH = 6
export const NAME_MAX_LENGTH = 20

export const isMobile = (value: string) => MOBILE_PATTERN.test(value)
export const isPassword = (value: string) => PASSWORD.test(value)
export const isUrl = (value: string) => URL_PATTERN.test(value)
export const isSmsCode = (value: string, length = DEFAULT_SMS_CODE_LENGTH) =>
  new RegExp(`^\\d{${length}}$`).test(value)

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
const ID_CHECK_DIGITS = '10X98765432'

/** 15-digit (first generation) or 18-digit ID card; an 18-digit number must carry a valid check digit. */
/** The birth date an ID number carries is a day of the calendar (no 31 February). */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day))
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  )
}

const birthDate = (digits: string, century: string) =>
  isCalendarDate(
    Number(century + digits.slice(0, -4)),
    Number(digits.slice(-4, -2)),
    Number(digits.slice(-2)),
  )

export function isIdCard(value: string): boolean {
  // 15 digits: yyMMdd from the 7th (born in the 1900s); 18: yyyyMMdd from the 7th
  if (ID_CARD_15.test(value)) return birthDate(value.slice(6, 12), '19')
  if (!ID_CARD_18.test(value) || !birthDate(value.slice(6, 14), '')) return false
  const sum = ID_WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(value[i]), 0)
  return ID_CHECK_DIGITS[sum % 11] === value[17].toUpperCase()
}

const required = (value: string | undefined | null, emptyMessage: string) =>
  value == null || String(value).trim() === '' ? emptyMessage : null

export function validateMobile(value: string | undefined | null): string | null {
  return required(value, '请输入手机号') ?? (isMobile(String(value)) ? null : '请输入正确的手机号')
}

export function validatePassword(value: string | undefined | null): string | null {
  return (
    required(value, '请输入密码') ??
    (isPassword(String(value)) ? null : '密码需为6-13位，且同时包含字母和数字')
  )
}

export function validateSmsCode(
  value: string | undefined | null,
  length = DEFAULT_SMS_CODE_LENGTH,
): string | null {
  return (
    required(value, '请输入验证码') ??
    (isSmsCode(String(value), length) ? null : `请输入${length}位数字验证码`)
  )
}

export function validateIdCard(value: string | undefined | null): string | null {
  return (
    required(value, '请输入身份证号') ?? (isIdCard(String(value)) ? null : '请输入正确的身份证号')
  )
}

export function validateRealName(value: string | undefined | null): string | null {
  return (
    required(value, '请输入真实姓名') ??
    (/^[\u4e00-\u9fa5·]{2,20}$/.test(String(value).trim()) ? null : '请输入2-20位中文真实姓名')
  )
}

export function validateName(value: string | undefined | null): string | null {
  const empty = required(value, '请输入昵称')
  if (empty) return empty
  return [...String(value).trim()].length > NAME_MAX_LENGTH
    ? `昵称不能超过${NAME_MAX_LENGTH}个字`
    : null
}

export function validateUrl(value: string | undefined | null): string | null {
  return (
    required(value, '请输入网址') ??
    (isUrl(String(value)) ? null : '请输入正确的网址（以http://或https://开头）')
  )
}

/** SPEC 5: a phone's and a group's name, 1–20 characters after trimming (client form and server agree). */
export const DEVICE_NAME_MAX = 20
export const GROUP_NAME_MAX = 20
const PACKAGE_NAME = /^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/

function nameProblem(value: string, what: string, max: number): string | null {
  const name = value.trim()
  if (!name) return `请输入${what}`
  return [...name].length > max ? `${what}不能超过${max}个字` : null
}

export const validateDeviceName = (value: string) =>
  nameProblem(value, '云手机名称', DEVICE_NAME_MAX)

export const validateGroupName = (value: string) => nameProblem(value, '分组名称', GROUP_NAME_MAX)

/** An Android package name such as com.example.app (the uninstall command's argument). */
export function validatePackageName(value: string): string | null {
  const name = value.trim()
  if (!name) return '请输入应用包名'
  return PACKAGE_NAME.test(name) ? null : '请输入正确的应用包名，如 com.example.app'
}
