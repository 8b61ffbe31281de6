/** Rules for what a user types on the fleet pages; each returns a Chinese message or null. */
export const DEVICE_NAME_MAX = 20
export const GROUP_NAME_MAX = 20
const PACKAGE_NAME = /^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/

const length = (value: string) => [...value].length

function nameProblem(value: string, what: string, max: number): string | null {
  const name = value.trim()
  if (!name) return `请输入${what}`
  return length(name) > max ? `${what}不能超过${max}个字` : null
}

/** 1–20 characters after trimming. */
export const validateDeviceName = (value: string) =>
  nameProblem(value, '云手机名称', DEVICE_NAME_MAX)

export const validateGroupName = (value: string) => nameProblem(value, '分组名称', GROUP_NAME_MAX)

/** An Android package name such as com.example.app. */
export function validatePackageName(value: string): string | null {
  const name = value.trim()
  if (!name) return '请输入应用包名'
  return PACKAGE_NAME.test(name) ? null : '请输入正确的应用包名，如 com.example.app'
}

/** Activation codes are 16 characters; spaces and dashes people paste are dropped, case ignored. */
export const ACTIVATION_CODE_LENGTH = 16
export const normaliseActivationCode = (value: string) => value.replace(/[\s-]/g, '').toUpperCase()

export function validateActivationCode(value: string): string | null {
  const code = normaliseActivationCode(value)
  if (!code) return '请输入激活码'
  return /^[A-Z0-9]{16}$/.test(code) ? null : '激活码为16位字母或数字'
}
